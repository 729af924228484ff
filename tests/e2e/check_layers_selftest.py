#!/usr/bin/env python3
"""CTest lint.layers_catches_upward_include: scripts/check_layers.py must fail on a tree whose
lowest layer includes a header of the highest timing layer, and pass on the same tree without
that include (both with the project's own layer table)."""
import os
import shutil
import subprocess
import sys
import tempfile

root, script = sys.argv[1], os.path.join(sys.argv[1], "scripts", "check_layers.py")
with tempfile.TemporaryDirectory() as t:
    os.makedirs(os.path.join(t, "docs"))
    shutil.copy(os.path.join(root, "docs", "architecture.md"), os.path.join(t, "docs"))
    for d in ("src/common", "src/timing/gpu"):
        os.makedirs(os.path.join(t, d))
    with open(os.path.join(t, "src/timing/gpu/launch.h"), "w") as f:
        f.write('#include "common/types.h"\n')
    with open(os.path.join(t, "src/common/types.h"), "w") as f:
        f.write("#pragma once\n")
    ok = subprocess.run([sys.executable, script, t], capture_output=True, text=True)
    with open(os.path.join(t, "src/common/types.h"), "a") as f:
        f.write('#include "timing/gpu/launch.h"\n')
    bad = subprocess.run([sys.executable, script, t], capture_output=True, text=True)
    print(ok.stdout, bad.stdout, sep="")
    if ok.returncode != 0 or bad.returncode != 1 or "src/common/types.h:2" not in bad.stdout:
        sys.exit("check_layers did not tell the downward include from the upward one")
print("check_layers: passes the clean tree, fails the upward include")
