"""`simtsync report`: the experiment's tables (printed, and written as markdown) and its plots
(PNG and PDF), from OUT/results.csv. Writes into TO: report.md, the figures, and copies of
results.csv and metrics.csv (and of records.csv, gzipped, when the points have policy
records), so that TO (e.g. docs/results/NAME/) stands on its own."""
import os
import shutil

import results
from experiment import ExperimentError
from resultset import ResultSet
from tables import build_table


def report(exp, out, to):
    csv_path = os.path.join(out, "results.csv")
    if not os.path.isfile(csv_path):
        raise ExperimentError(f"no {csv_path}: run `simtsync sweep` (or --collect) first")
    rows = results.read_results(csv_path)
    known = {p.id for p in exp.points}
    rows = [r for r in rows if r.get("point") in known]
    rs = ResultSet(exp, rows)
    os.makedirs(to, exist_ok=True)
    counts = {}
    for r in rows:
        counts[r.get("status")] = counts.get(r.get("status"), 0) + 1

    md = [f"# {exp.name}", ""]
    if exp.description:
        md += [exp.description, ""]
    has_records = os.path.isfile(os.path.join(out, "records.csv"))
    md += [f"{len(rows)} points (" + ", ".join(f"{n} {s}" for s, n in sorted(counts.items()))
           + "); every statistic per point in [results.csv](results.csv), the metrics in "
           "[metrics.csv](metrics.csv)"
           + (", the policies' records (`stats.gpu.records`) a row each in "
              "[records.csv.gz](records.csv.gz)" if has_records else "")
           + ". Summary rows leave out points without a value.", ""]
    metric_lines = [f"- `{name}`: `{path}`" for name, path in exp.metrics.items()]
    if metric_lines:
        md += ["Metrics (paths into `simtsync run --json`; `[*]` sums over indices):", ""]
        md += metric_lines + [""]
    for spec in exp.tables:
        for heading, table in build_table(rs, spec):
            print(f"\n{heading}\n{table}")
            md += [f"## {heading}", "", table, ""]

    failed = [r for r in rows if r.get("status") == "failed"]
    if failed:
        md += ["## Failed points", ""]
        md += [f"- `{r['point']}`: exit {r['exit_code']}, {r['reason']}" for r in failed] + [""]
        print(f"\n{len(failed)} failed points (see report.md)")
    missing = [r["point"] for r in rows if r.get("status") in ("missing", "stale")]
    missing += sorted(known - {r.get("point") for r in rows})
    if missing:
        md += ["## Points without results", ""] + [f"- `{p}`" for p in missing] + [""]
        print(f"{len(missing)} points have no result")

    written = []
    if exp.plots:
        from plots import draw  # matplotlib is needed for figures only
        md += ["## Figures", ""]
        for spec in exp.plots:
            files = draw(rs, spec, to)
            written += files
            md += [f"![{os.path.basename(f)}]({os.path.basename(f)})" for f in files
                   if f.endswith(".png")]
            md += [""]
    if exp.seeds:
        md += ["## Seeds' values drawn beside ours", ""]
        md += [f"- {s['label']}: {s['source']}" for s in exp.seeds] + [""]

    for name in ("results.csv", "metrics.csv"):
        src = os.path.join(out, name)
        dst = os.path.join(to, name)
        if os.path.isfile(src) and os.path.abspath(src) != os.path.abspath(dst):
            shutil.copyfile(src, dst)
    # The policies' records (a delay-limit trace can hold 10^5 rows) travel compressed.
    src, dst = os.path.join(out, "records.csv"), os.path.join(to, "records.csv.gz")
    if os.path.isfile(src):
        results.gzip_copy(src, dst)
    elif os.path.exists(dst):
        os.remove(dst)
    md_path = os.path.join(to, "report.md")
    with open(md_path, "w") as f:
        f.write("\n".join(md).rstrip() + "\n")
    print(f"\nwrote {md_path}" + (f" and {len(written)} figure files" if written else ""))
    return 0
