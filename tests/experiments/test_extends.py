"""`extends: OTHER`: an experiment takes another's keys and replaces the top-level keys it sets
itself; a cycle or a missing base is a usage error (exit 2) that names the file."""
import os

from common import TINY, check, fresh_workdir, read_csv, simtsync

work = fresh_workdir()
with open(TINY) as f:
    base = f.read()
with open(os.path.join(work, "base.yaml"), "w") as f:
    f.write(base)
child = os.path.join(work, "child.yaml")
with open(child, "w") as f:
    f.write("extends: base\nworkloads: [vecadd]\nset: {watchdog.max_cycles: 5000000}\n")

out = os.path.join(work, "out")
text = simtsync("sweep", child, "--out", out, "--dry-run")
check("child: 2 points" in text, "the child is named after its own file and has 2 points")
check("would run: vecadd.tiny.test.lrr" in text and "would run: vecadd.tiny.test.gto" in text
      and "ht." not in text, "the child's workloads replace the base's; its policies are inherited")
simtsync("sweep", child, "--out", out)
rows = read_csv(os.path.join(out, "metrics.csv"))
check(len(rows) == 2 and all(r["status"] == "ok" for r in rows), "both points ran")
check("issued_per_sm" in rows[0] and rows[0]["issued_per_sm"] != "",
      "the base's metrics are inherited")
with open(os.path.join(out, "points", "vecadd.tiny.test.gto.inputs.json")) as f:
    inputs = f.read()
check("watchdog.max_cycles=5000000" in inputs, "the child's `set` applies to its points")

with open(os.path.join(work, "loop_a.yaml"), "w") as f:
    f.write("extends: loop_b\n")
with open(os.path.join(work, "loop_b.yaml"), "w") as f:
    f.write("extends: loop_a.yaml\nworkloads: [vecadd]\n")
text = simtsync("sweep", os.path.join(work, "loop_a.yaml"), "--dry-run", expect=2)
check("a cycle" in text and "loop_" in text, "a cycle of extends is an error naming the file")
with open(os.path.join(work, "orphan.yaml"), "w") as f:
    f.write("extends: nowhere\nworkloads: [vecadd]\n")
text = simtsync("sweep", os.path.join(work, "orphan.yaml"), "--dry-run", expect=2)
check("no experiment file" in text and "nowhere.yaml" in text, "a missing base is named")
