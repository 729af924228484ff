"""Issue 45 item 9: `simtsync sweep --force` replaces each point's results only when its new run
finishes, so SIGINT during a forced sweep loses no finished point: every point keeps a result
(its earlier one, or the new one), results.csv lists every point ok, and no partial file of the
interrupted run is left among the results."""
import os
import signal
import subprocess
import time

from common import EXE, check, fresh_workdir, point_files, read_csv, simtsync

work = fresh_workdir()
slow = os.path.join(work, "slow.yaml")
with open(slow, "w") as f:  # ctas=4096 takes about 2 s, the others a fraction of a second
    f.write("""name: slow
workloads: [ht]
configs: [tiny]
sizes: [test]
sweep: {workload.ctas: [4, 8, 4096, 16]}
""")
out = os.path.join(work, "out")
simtsync("sweep", slow, "--out", out, "--jobs", "2")
points = point_files(out, "rc")
check(len(points) == 4, "the first sweep finished all 4 points")
before = {p: os.path.getmtime(os.path.join(out, "points", p + ".json")) for p in points}

start = time.time()
time.sleep(0.05)  # mtimes after `start` are this sweep's
proc = subprocess.Popen([EXE, "sweep", slow, "--out", out, "--jobs", "1", "--force"],
                        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
slow_id = "ht.tiny.test.default.ctas=4096"


def slow_point_started():
    """Its log of this sweep exists: points/.running/ID.log (or, as sweeps before issue 45 ran
    points, a new points/ID.log)."""
    for path in (os.path.join(out, "points", ".running", slow_id + ".log"),
                 os.path.join(out, "points", slow_id + ".log")):
        try:
            if os.path.getmtime(path) > start:
                return True
        except OSError:
            pass
    return False


deadline = time.time() + 120
while time.time() < deadline and proc.poll() is None and not slow_point_started():
    time.sleep(0.02)
time.sleep(0.3)  # the slow point is running; ctas=4 and ctas=8 were run again before it
proc.send_signal(signal.SIGINT)
print(proc.communicate(timeout=120)[0])
check(proc.returncode == 130, "the interrupted forced sweep exited with 130")
check(point_files(out, "rc") == points, f"every point still has its .rc ({point_files(out, 'rc')})")
check(all(os.path.isfile(os.path.join(out, "points", p + ".json")) for p in points),
      "every point still has its statistics")
rerun = [p for p in points if os.path.getmtime(os.path.join(out, "points", p + ".json")) != before[p]]
check(sorted(rerun) == ["ht.tiny.test.default.ctas=4", "ht.tiny.test.default.ctas=8"],
      f"the 2 points run before the interruption have new results ({rerun})")
rows = read_csv(os.path.join(out, "results.csv"))
check(len(rows) == 4 and all(r["status"] == "ok" for r in rows),
      "results.csv lists all 4 points ok after the interruption")
check(os.listdir(os.path.join(out, "points", ".running")) == [],
      "no partial file of the interrupted run is left")
text = simtsync("sweep", slow, "--out", out, "--dry-run")
check("0 to run" in text, "every point is up to date afterwards")
