"""`simtsync report` on the tiny experiment prints and writes the normalized tables (speedup,
geometric mean) and the figures as PNG and PDF."""
import os
import sys

from common import TINY, check, fresh_workdir, simtsync

work = fresh_workdir()
out, to = os.path.join(work, "out"), os.path.join(work, "report")
simtsync("sweep", TINY, "--out", out)
text = simtsync("report", TINY, "--out", out, "--to", to, expect=None)
if "No module named 'matplotlib'" in text:
    print("skipped: python3-matplotlib is not installed (scripts/setup.sh installs it)")
    sys.exit(77)
check("speedup over policy=lrr" in text and "geomean" in text, "printed a speedup table")
md = open(os.path.join(to, "report.md")).read()
check("| workload" in md and "| geomean" in md, "report.md holds the tables")
check("example seed value" in md, "the seeds' values are a column beside ours")
lrr_row = [line for line in md.splitlines() if line.startswith("| vecadd")][0]
check("1.000" in lrr_row, "the baseline's speedup over itself is 1")
for name in ("speedup", "stalls"):
    png, pdf = (os.path.join(to, f"{name}.{e}") for e in ("png", "pdf"))
    check(open(png, "rb").read(8) == b"\x89PNG\r\n\x1a\n", f"{name}.png is a PNG")
    check(open(pdf, "rb").read(5) == b"%PDF-", f"{name}.pdf is a PDF")
    check(f"({name}.png)" in md, f"report.md shows {name}.png")
for name in ("results.csv", "metrics.csv"):
    check(os.path.isfile(os.path.join(to, name)), f"{name} copied beside the report")
