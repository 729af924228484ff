"""The sweep's progress display: points done, running and failed, and the estimated time left.

On a terminal one status line is redrawn in place; otherwise (CI logs, files) one line is
printed per finished point.
"""
import sys
import time


def fmt_duration(s):
    s = int(round(s))
    if s >= 3600:
        return f"{s // 3600}:{s % 3600 // 60:02d}:{s % 60:02d}"
    return f"{s // 60}:{s % 60:02d}"


class Progress:
    def __init__(self, total, jobs, stream=sys.stderr):
        self.total, self.jobs, self.stream = total, jobs, stream
        self.done = self.failed = 0
        self.running = {}  # point id -> start time
        self.t0 = time.monotonic()
        self.tty = stream.isatty()
        self.last_draw = 0.0

    def started(self, pid):
        self.running[pid] = time.monotonic()

    def finished(self, pid, rc, reason):
        took = time.monotonic() - self.running.pop(pid)
        self.done += 1
        self.failed += rc != 0
        outcome = "ok" if rc == 0 else f"FAILED ({reason})"
        self._clear()
        if not self.tty or rc != 0:
            print(f"[{self.done}/{self.total}] {pid}: {outcome} in {took:.1f} s | {self.status()}",
                  file=self.stream, flush=True)
        self.tick(force=True)

    def eta(self):
        """Points finish at the rate seen so far; before the first one there is no estimate."""
        if self.done == 0:
            return "?"
        elapsed = time.monotonic() - self.t0
        return fmt_duration(elapsed / self.done * (self.total - self.done))

    def status(self):
        return (f"done {self.done}/{self.total}, running {len(self.running)}, "
                f"failed {self.failed}, elapsed {fmt_duration(time.monotonic() - self.t0)}, "
                f"ETA {self.eta()}")

    def tick(self, force=False):
        now = time.monotonic()
        if self.tty and (force or now - self.last_draw > 0.5):
            self.last_draw = now
            self.stream.write("\r\033[K" + self.status())
            self.stream.flush()

    def _clear(self):
        if self.tty:
            self.stream.write("\r\033[K")

    def close(self):
        self._clear()
        if self.total:
            print(f"sweep: {self.status()}", file=self.stream, flush=True)
