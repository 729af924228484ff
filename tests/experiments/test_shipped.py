"""Every shipped experiment (experiments/*.yaml) loads: known keys, axes and values, its base
(`extends`) found, a baseline for every point, and its name equal to its file's stem (results
and docs/results/NAME are named after it). Loading runs no simulation."""
import os
import sys

from common import SOURCE, check

sys.path.insert(0, os.path.join(SOURCE, "tools", "experiments"))
from experiment import Experiment, ExperimentError  # noqa: E402

folder = os.path.join(SOURCE, "experiments")
names = sorted(f for f in os.listdir(folder) if f.endswith(".yaml"))
check(len(names) >= 20, f"{len(names)} shipped experiments found")
for f in names:
    try:
        exp = Experiment(os.path.join(folder, f))
    except ExperimentError as e:
        check(False, f"{f} loads: {e}")
    check(exp.name == f[:-5] and exp.points, f"{f}: {len(exp.points)} points, named {exp.name}")
