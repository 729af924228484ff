"""The Slurm job array of the tiny experiment: its tasks, run here one by one as Slurm would
(SLURM_ARRAY_TASK_ID set), followed by --collect, give the same CSV files as a local sweep."""
import os
import re
import subprocess

from common import TINY, check, fail, fresh_workdir, point_files, read_csv, simtsync, \
    without_times

work = fresh_workdir()
local, cluster, slurm = (os.path.join(work, d) for d in ("local", "cluster", "slurm"))

simtsync("sweep", TINY, "--out", local, "--jobs", "2")

out = simtsync("sweep", TINY, "--out", cluster, "--emit-slurm", slurm)
script = open(os.path.join(slurm, "sweep.sbatch")).read()
commands = open(os.path.join(slurm, "commands.txt")).read().splitlines()
check(len(commands) == 4, "one command per point")
check("#SBATCH --array=0-3" in script, "a job array of 4 tasks")
check(all(re.search(r"--json points/\S+\.json > points/\S+\.log 2>&1; echo \$\? > points/\S+\.rc$",
                    c) for c in commands), "each command writes its deterministic files")
check(point_files(cluster, "rc") == [], "nothing ran yet")
out = simtsync("sweep", TINY, "--out", cluster, "--collect")
check("4 missing" in out, "--collect before the tasks ran: every point missing")

for task in range(len(commands)):
    env = dict(os.environ, SLURM_ARRAY_TASK_ID=str(task))
    p = subprocess.run(["bash", os.path.join(slurm, "sweep.sbatch")], env=env)
    if p.returncode != 0:
        fail(f"array task {task} exited with {p.returncode}")
check(len(point_files(cluster, "rc")) == 4, "every task wrote its exit status")

out = simtsync("sweep", TINY, "--out", cluster, "--collect")
check("4 points: 4 ok" in out, "--collect merged 4 results")
for name in ("results.csv", "metrics.csv"):
    a = without_times(read_csv(os.path.join(local, name)))
    b = without_times(read_csv(os.path.join(cluster, name)))
    check(a == b, f"{name} from Slurm tasks + --collect equals the local sweep's")
check(len(read_csv(os.path.join(local, "results.csv"))[0]) > 50,
      "results.csv has every statistic as a column")

out = simtsync("sweep", TINY, "--out", cluster)
check("0 to run" in out, "a local sweep over collected results runs nothing")
out = simtsync("sweep", TINY, "--out", cluster, "--emit-slurm", slurm)
check(not os.path.exists(os.path.join(slurm, "sweep.sbatch")) and
      open(os.path.join(slurm, "commands.txt")).read() == "",
      "emitting again when every point is up to date writes no job")
