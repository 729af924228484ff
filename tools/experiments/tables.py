"""Markdown tables: a metric (raw or normalized to the baseline) by rows x columns axes, a summary
row (geometric or arithmetic mean), and the seeds' reported values as extra columns."""
from metrics import geomean, mean

SUMMARY = {"geomean": geomean, "mean": mean}
NORMALIZED_NAME = {"speedup": "speedup over", "relative": "relative to"}


def fmt_value(v, normalized):
    if v is None:
        return "-"
    if normalized:
        return f"{v:.3f}"
    if abs(v) >= 1000:
        return f"{v:.0f}"
    return f"{v:.4g}"


def summary_cell(f, values, normalized):
    """The summary of a column; over fewer rows than the table has, it says over how many."""
    have = [v for v in values if v is not None]
    text = fmt_value(f(have), normalized)
    return text if len(have) == len(values) else f"{text} ({len(have)} of {len(values)})"


def title_of(exp, spec):
    if spec.get("title"):
        return spec["title"]
    t = spec["metric"]
    if spec["normalize"] in NORMALIZED_NAME:
        base = ", ".join(f"{k}={v}" for k, v in exp.baseline.items())
        t += f", {NORMALIZED_NAME[spec['normalize']]} {base}"
    return t


def markdown(header, body):
    widths = [max(len(str(r[i])) for r in [header] + body) for i in range(len(header))]
    line = lambda r: "| " + " | ".join(str(c).ljust(w) for c, w in zip(r, widths)) + " |"
    sep = "|" + "|".join("-" * (w + 2) if i == 0 else "-" * (w + 1) + ":"
                         for i, w in enumerate(widths)) + "|"
    return "\n".join([line(header), sep] + [line(r) for r in body])


def build_table(rs, spec):
    """[(heading, markdown text)], one per group of points."""
    exp, normalized = rs.exp, spec["normalize"] in ("speedup", "relative")
    groups, xs, series = rs.grid(spec["where"], spec["rows"], spec["columns"])
    out = []
    for g in groups:
        seeds = rs.seeds_for(spec["metric"], spec["normalize"], g, spec["rows"], spec["columns"])
        header = [spec["rows"]] + series + [label for label, _ in seeds]
        body, columns = [], {s: [] for s in series}
        for x in xs:
            cells = []
            for s in series:
                c = rs.value(g.rows.get((x, s)), spec["metric"], spec["normalize"])
                columns[s].append(c.value)
                cells.append(fmt_value(c.value, normalized) if c.value is not None else c.note)
            cells += [fmt_value(vals.get(x), normalized) for _, vals in seeds]
            body.append([x] + cells)
        if spec["summary"] != "none" and len(xs) > 1:
            f = SUMMARY[spec["summary"]]
            body.append([spec["summary"]] + [summary_cell(f, columns[s], normalized)
                                             for s in series]
                        + [fmt_value(vals.get(spec["summary"]), normalized) for _, vals in seeds])
        heading = title_of(exp, spec) + (f" ({g.label})" if g.label else "")
        out.append((heading, markdown(header, body)))
    return out
