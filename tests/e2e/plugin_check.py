"""What the plug-in checks (check_plugin.py, check_unit_plugin.py, check_mem_unit.py) share: the
simtsync binary and output folder from the command line, a runner that records a failed command,
and the report that ends the test."""
import os
import subprocess
import sys


class Check:
    def __init__(self):
        self.exe, self.out = sys.argv[1], sys.argv[2]
        os.makedirs(self.out, exist_ok=True)
        self.fails = []

    def run(self, *args):
        """simtsync's stdout; a non-zero exit is a failure."""
        p = subprocess.run([self.exe, *args], capture_output=True, text=True)
        if p.returncode != 0:
            self.fails.append(f"{' '.join(args)}: exit {p.returncode}: {p.stderr[-400:]}")
        return p.stdout

    def finish(self):
        for f in self.fails:
            print("FAIL:", f)
        print("PASS" if not self.fails else f"{len(self.fails)} failure(s)")
        sys.exit(1 if self.fails else 0)
