"""Metric values from a results.csv row: a JSON path into the run's JSON, as flattened columns.

`stats.gpu.cycles` names one column; `[*]` matches every index and the matches are summed
(`stats.gpu.sm[*].sched[*].issued`: all schedulers of all SMs).
"""
import math
import re

_patterns = {}


def to_float(v):
    if v is None or v == "":
        return None
    if isinstance(v, bool):
        return float(v)
    try:
        return float(v)
    except (TypeError, ValueError):
        s = str(v).lower()
        return {"true": 1.0, "false": 0.0}.get(s)


def metric_value(row, path):
    if "[*]" not in path:
        return to_float(row.get(path))
    rx = _patterns.get(path)
    if rx is None:
        rx = _patterns[path] = re.compile(re.escape(path).replace(r"\[\*\]", r"\[\d+\]") + "$")
    vals = [to_float(v) for k, v in row.items() if rx.match(k)]
    vals = [v for v in vals if v is not None]
    return sum(vals) if vals else None


def geomean(vals):
    vals = [v for v in vals if v is not None and v > 0]
    if not vals:
        return None
    return math.exp(sum(math.log(v) for v in vals) / len(vals))


def mean(vals):
    vals = [v for v in vals if v is not None]
    return sum(vals) / len(vals) if vals else None
