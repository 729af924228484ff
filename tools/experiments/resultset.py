"""An experiment's results.csv as data for tables and plots: metric values (raw or normalized
to the baseline point), points grouped into grids of x values by series, and seed values."""
import itertools

from experiment import matches
from metrics import metric_value

SHORT_FAILURE = {"1": "invalid", "2": "error", "3": "deadlock", "4": "unsupported", "5": "fault"}


class Cell:
    """A value, or why there is none (a failed point, a missing result, a missing baseline)."""

    def __init__(self, value=None, note=""):
        self.value, self.note = value, note


class Group:
    """The points of one table or figure: one per (x, series), plus the coordinates they share."""

    def __init__(self, coords, label):
        self.coords, self.label = coords, label
        self.rows = {}  # (x, series) -> results row


class ResultSet:
    def __init__(self, exp, rows):
        self.exp = exp
        self.rows = rows
        self.by_coords = {self._key(self.coords(r)): r for r in rows}

    def coords(self, row):
        return {a: row.get(a, "") for a in self.exp.axes}

    def _key(self, coords):
        return tuple(coords.get(a, "") for a in self.exp.axes)

    def baseline_row(self, row):
        return self.by_coords.get(self._key(self.exp.baseline_coords(self.coords(row))))

    def raw(self, row, metric):
        if row is None:
            return Cell(note="-")
        if row.get("status") != "ok":
            status = row.get("status", "")
            if status == "failed":
                return Cell(note="FAIL:" + SHORT_FAILURE.get(row.get("exit_code", ""), "exit "
                                                            + row.get("exit_code", "?")))
            return Cell(note=status or "-")
        v = metric_value(row, self.exp.metrics[metric])
        return Cell(v, "" if v is not None else "n/a")

    def value(self, row, metric, normalize):
        """speedup: baseline / value (for times: higher is better); relative: value / baseline."""
        c = self.raw(row, metric)
        if c.value is None or normalize in ("none", "fraction"):
            return c
        b = self.raw(self.baseline_row(row), metric)
        if b.value is None:
            return Cell(note="no base")
        if normalize == "speedup":
            return Cell(b.value / c.value) if c.value else Cell(note="n/a")
        return Cell(c.value / b.value) if b.value else Cell(note="n/a")

    def grid(self, where, x_axis, series_axis):
        """Groups of points over the x and series axes; every other axis that still varies after
        `where` splits the points into several groups (several tables or figures)."""
        rows = [r for r in self.rows if matches(self.coords(r), where)]
        others = [a for a in self.exp.axes if a not in (x_axis, series_axis)]
        varying = [a for a in others if len({r.get(a) for r in rows}) > 1]
        groups = []
        for vals in itertools.product(*(self.exp.axis_values(a) for a in varying)):
            fixed = dict(zip(varying, vals))
            members = [r for r in rows if matches(self.coords(r), fixed)]
            if not members:
                continue
            coords = {a: members[0].get(a) for a in others}
            g = Group(coords, ", ".join(f"{a}={v}" for a, v in fixed.items()))
            for r in members:
                g.rows[(r.get(x_axis), r.get(series_axis))] = r
            groups.append(g)
        xs = [x for x in self.exp.axis_values(x_axis) if any(x == r.get(x_axis) for r in rows)]
        ss = [s for s in self.exp.axis_values(series_axis)
              if any(s == r.get(series_axis) for r in rows)]
        return groups, xs, ss

    def seeds_for(self, metric, normalize, group, x_axis, series_axis):
        """[(label, {x: value})] of the seeds' values that belong in this group."""
        out = []
        for s in self.exp.seeds:
            if s["metric"] != metric or s["normalize"] != normalize:
                continue
            vals = {}
            for coords, v in s["values"]:
                if x_axis not in coords:
                    continue
                if all(group.coords.get(k) == c for k, c in coords.items()
                       if k not in (x_axis, series_axis)):
                    vals[coords[x_axis]] = v
            if vals:
                out.append((s["label"], vals))
        return out
