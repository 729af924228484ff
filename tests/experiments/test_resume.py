"""Resumability: a sweep runs only the points whose results are missing or whose inputs changed;
an interrupted sweep, run again, finishes only the missing points; a failed point is recorded
(exit code, reason) without stopping the sweep."""
import os
import re
import signal
import subprocess
import time

from common import EXE, TINY, check, fresh_workdir, point_files, read_csv, simtsync

work = fresh_workdir()
out = os.path.join(work, "out")


def ran(text):
    m = re.search(r"(\d+) up to date, (\d+) to run", text)
    return int(m.group(2)) if m else None


# A complete sweep, then the same again: nothing runs.
text = simtsync("sweep", TINY, "--out", out, "--jobs", "2")
check(ran(text) == 4 and "4 points: 4 ok" in text, "first sweep ran all 4 points")
check(ran(simtsync("sweep", TINY, "--out", out)) == 0, "second sweep ran nothing")

# Results deleted (as if the sweep had stopped before them): only those points run again.
mtime = os.path.getmtime(os.path.join(out, "points", "vecadd.tiny.test.lrr.json"))
os.remove(os.path.join(out, "points", "ht.tiny.test.gto.rc"))
for f in os.listdir(os.path.join(out, "points")):
    if f.startswith("ht.tiny.test.lrr."):
        os.remove(os.path.join(out, "points", f))
text = simtsync("sweep", TINY, "--out", out)
check(ran(text) == 2 and "4 points: 4 ok" in text, "only the 2 points without results ran")
check(os.path.getmtime(os.path.join(out, "points", "vecadd.tiny.test.lrr.json")) == mtime,
      "an up-to-date point's result was left alone")

# Changed inputs: another override in one policy runs that policy's points again.
changed = os.path.join(work, "tiny_changed.yaml")
with open(TINY) as f:
    text = f.read().replace("gto: {sm.warp_scheduler.impl: gto}",
                            "gto: {sm.warp_scheduler.impl: gto, "
                            "sm.warp_scheduler.rotation_period: 1000}")
with open(changed, "w") as f:
    f.write(text)
check(ran(simtsync("sweep", changed, "--out", out)) == 2, "changed overrides re-ran 2 points")
check(ran(simtsync("sweep", changed, "--out", out, "--size", "test")) == 0,
      "--size with the experiment's own size changes nothing")

# A real interruption: two fast points, a slow one, a fast one; SIGINT while the slow one runs.
slow = os.path.join(work, "slow.yaml")
with open(slow, "w") as f:
    f.write("""name: slow
workloads: [ht]
configs: [tiny]
sizes: [test]
sweep: {workload.ctas: [4, 8, 4096, 16]}
""")
out2 = os.path.join(work, "out_slow")
proc = subprocess.Popen([EXE, "sweep", slow, "--out", out2, "--jobs", "1"],
                        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
deadline = time.time() + 60
while time.time() < deadline and proc.poll() is None:
    done = point_files(out2, "rc") if os.path.isdir(os.path.join(out2, "points")) else []
    if len(done) >= 2:  # ctas=4 and ctas=8 finished, ctas=4096 runs (about 2 s)
        break
    time.sleep(0.02)
proc.send_signal(signal.SIGINT)
print(proc.communicate()[0])
check(proc.returncode == 130, "the interrupted sweep exited with 130")
done = point_files(out2, "rc")
check(done == ["ht.tiny.test.default.ctas=4", "ht.tiny.test.default.ctas=8"],
      f"2 points finished before the interruption ({done})")
text = simtsync("sweep", slow, "--out", out2, "--dry-run")
check(ran(text) == 2 and "would run: ht.tiny.test.default.ctas=4096" in text,
      "running again would run only the 2 unfinished points")
rows = {r["point"]: r for r in read_csv(os.path.join(out2, "results.csv"))}
check(rows["ht.tiny.test.default.ctas=4096"]["status"] == "missing",
      "the CSV lists the interrupted point as missing")

# A failing point (naive_lock SIMT-deadlocks) is recorded and the others still run.
failing = os.path.join(work, "failing.yaml")
with open(failing, "w") as f:
    f.write("workloads: [naive_lock, vecadd]\nconfigs: [tiny]\nsizes: [test]\n")
out3 = os.path.join(work, "out_failing")
text = simtsync("sweep", failing, "--out", out3)
check("1 ok, 1 failed" in text, "one point failed, the other ran")
rows = {r["point"]: r for r in read_csv(os.path.join(out3, "results.csv"))}
bad = rows["naive_lock.tiny.test.default"]
check(bad["status"] == "failed" and bad["exit_code"] == "3"
      and "cannot finish" in bad["reason"] and "deadlock" in bad["reason"],
      f"the failure is recorded with exit code 3 and a reason ({bad['reason']})")
check(ran(simtsync("sweep", failing, "--out", out3)) == 0, "a failed point counts as done")
check(ran(simtsync("sweep", failing, "--out", out3, "--rerun-failed")) == 1,
      "--rerun-failed runs it again")
