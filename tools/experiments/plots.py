"""Figures like the seeds': grouped bars, stacked bars (stall breakdowns, warp-state
distributions) and line plots (parameter sweeps), each written as PNG and PDF. Seeds' reported
values are drawn beside the measured ones: hatched bars, or dashed lines with open markers."""
import os

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import matplotlib.ticker  # noqa: E402

from experiment import safe  # noqa: E402
from metrics import geomean  # noqa: E402
from tables import title_of  # noqa: E402

SEED_STYLE = dict(facecolor="white", edgecolor="black", hatch="///", linewidth=0.6)


def _ylabel(exp, spec, metric):
    if spec.get("ylabel"):
        return spec["ylabel"]
    return {"speedup": f"speedup ({metric})", "relative": f"{metric}, normalized",
            "fraction": "fraction"}.get(spec["normalize"], metric)


def _save(fig, to, name):
    files = []
    for ext in ("png", "pdf"):
        path = os.path.join(to, f"{name}.{ext}")
        fig.savefig(path, dpi=150, bbox_inches="tight")
        files.append(path)
    plt.close(fig)
    return files


def _name(spec, group):
    return spec["name"] + (f"-{safe(group.label)}" if group.label else "")


def _title(exp, spec, group):
    return title_of(exp, spec) + (f" ({group.label})" if group.label else "")


def bars(rs, spec, to):
    files = []
    groups, xs, series = rs.grid(spec["where"], spec["x"], spec["series"])
    normalized = spec["normalize"] in ("speedup", "relative")
    for g in groups:
        seeds = rs.seeds_for(spec["metric"], spec["normalize"], g, spec["x"], spec["series"])
        labels = xs + (["geomean"] if normalized and len(xs) > 1 else [])
        cells = {s: [rs.value(g.rows.get((x, s)), spec["metric"], spec["normalize"]) for x in xs]
                 for s in series}
        cols = {s: [c.value for c in cells[s]] for s in series}
        if len(labels) > len(xs):
            for s in series:
                cols[s].append(geomean(cols[s]))
        n = len(series) + len(seeds)
        width = 0.8 / n
        fig, ax = plt.subplots(figsize=(max(6, 0.22 * n * len(labels) + 2), 3.6))
        for i, s in enumerate(series):
            pos = [j + (i - (n - 1) / 2) * width for j in range(len(labels))]
            ax.bar(pos, [v if v is not None else 0 for v in cols[s]], width, label=s)
            for p, c in zip(pos, cells[s]):  # a point without a value says why at the axis
                if c.value is None:  # at the axis in axes coordinates: works on a log scale
                    ax.text(p, 0.01, " " + c.note, rotation=90, ha="center", va="bottom",
                            fontsize=6, transform=ax.get_xaxis_transform())
        for k, (label, vals) in enumerate(seeds):
            i = len(series) + k
            have = [j for j, x in enumerate(labels) if x in vals]
            ax.bar([j + (i - (n - 1) / 2) * width for j in have], [vals[labels[j]] for j in have],
                   width, label=label, **SEED_STYLE)
        if normalized:
            ax.axhline(1.0, color="grey", linewidth=0.6)
        ax.set_xticks(range(len(labels)), labels, rotation=30 if len(labels) > 6 else 0,
                      ha="right" if len(labels) > 6 else "center")
        ax.set_ylabel(_ylabel(rs.exp, spec, spec["metric"]))
        ax.set_title(_title(rs.exp, spec, g), fontsize=10)
        if spec.get("logy"):
            ax.set_yscale("log")
        ax.legend(fontsize=7, ncol=min(n, 4))
        files += _save(fig, to, _name(spec, g))
    return files


def stacked(rs, spec, to):
    """One bar per (x, series), stacked by the metrics; normalize: fraction (each bar sums to 1),
    relative (to the baseline point's total), or none."""
    files = []
    groups, xs, series = rs.grid(spec["where"], spec["x"], spec["series"])
    comps = spec["metrics"]
    for g in groups:
        fig, ax = plt.subplots(figsize=(max(6, 0.2 * len(xs) * (len(series) + 1) + 2), 4))
        step = len(series) + 1
        pos, ticks = [], []
        heights = {c: [] for c in comps}
        for j, x in enumerate(xs):
            for i, s in enumerate(series):
                row = g.rows.get((x, s))
                vals = [rs.raw(row, c).value for c in comps]
                total = sum(v for v in vals if v is not None)
                if spec["normalize"] == "fraction":
                    scale = total
                elif spec["normalize"] == "relative":
                    base = rs.baseline_row(row) if row else None
                    base_vals = [rs.raw(base, c).value for c in comps] if base else []
                    scale = sum(v for v in base_vals if v)
                else:
                    scale = 1.0
                for c, v in zip(comps, vals):
                    heights[c].append(v / scale if v is not None and scale else 0)
                pos.append(j * step + i)
                ticks.append(s)
        bottom = [0.0] * len(pos)
        for c in comps:
            ax.bar(pos, heights[c], 0.85, bottom=bottom, label=c)
            bottom = [b + h for b, h in zip(bottom, heights[c])]
        if spec["normalize"] == "relative":  # the baseline's total (an energy breakdown's 1.0)
            ax.axhline(1.0, color="grey", linewidth=0.6)
        ax.set_xticks(pos, ticks, rotation=90, fontsize=7)
        centers = [j * step + (len(series) - 1) / 2 for j in range(len(xs))]
        sec = ax.secondary_xaxis("bottom")
        many = len(xs) > 8  # group labels would overlap: turn them
        sec.set_xticks(centers, xs, rotation=60 if many else 0, ha="right" if many else "center")
        sec.tick_params(axis="x", length=0, pad=8 + 5 * max(len(s) for s in series))
        ax.set_ylabel(_ylabel(rs.exp, spec, "value"))
        title = spec.get("title") or ", ".join(comps)
        ax.set_title(title + (f" ({g.label})" if g.label else ""), fontsize=10)
        ax.legend(fontsize=7, bbox_to_anchor=(1.01, 1), loc="upper left")
        files += _save(fig, to, _name(spec, g))
    return files


def line(rs, spec, to):
    files = []
    groups, xs, series = rs.grid(spec["where"], spec["x"], spec["series"])
    xv = [float(x) for x in xs]
    for g in groups:
        seeds = rs.seeds_for(spec["metric"], spec["normalize"], g, spec["x"], spec["series"])
        fig, ax = plt.subplots(figsize=(6, 3.6))
        for s in series:
            ys = [rs.value(g.rows.get((x, s)), spec["metric"], spec["normalize"]).value for x in xs]
            pts = [(a, b) for a, b in zip(xv, ys) if b is not None]
            ax.plot([a for a, _ in pts], [b for _, b in pts], marker="o", label=s)
        for label, vals in seeds:
            pts = sorted((float(x), v) for x, v in vals.items() if x not in ("geomean", "mean"))
            # Markers only: a seed gives values at some x, nothing about the curve between them.
            ax.plot([a for a, _ in pts], [b for _, b in pts], linestyle="none", marker="s",
                    markersize=7, markerfacecolor="white", color="black", label=label)
        if spec.get("logx"):
            ax.set_xscale("log", base=2)
        if spec.get("logy"):
            ax.set_yscale("log")
        ax.set_xticks(xv, xs)
        ax.xaxis.set_minor_locator(matplotlib.ticker.NullLocator())
        ax.set_xlabel(spec.get("xlabel") or spec["x"])
        ax.set_ylabel(_ylabel(rs.exp, spec, spec["metric"]))
        ax.set_title(_title(rs.exp, spec, g), fontsize=10)
        ax.grid(alpha=0.3)
        ax.legend(fontsize=7)
        files += _save(fig, to, _name(spec, g))
    return files


KINDS = {"bars": bars, "stacked": stacked, "line": line}


def draw(rs, spec, to):
    return KINDS[spec["kind"]](rs, spec, to)

