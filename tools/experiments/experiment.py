"""An experiment file (experiments/*.yaml): its points, baseline, metrics, tables, plots, seeds.

Loading validates everything before anything runs: an unknown key, axis or value is an
ExperimentError that names it. docs/experiments.md describes the format.
"""
import itertools
import os
import re
from dataclasses import dataclass, field

import yaml

FIXED_AXES = ("workload", "config", "size", "policy")
TOP_KEYS = {"name", "description", "mode", "workloads", "configs", "sizes", "policies", "sweep",
            "set", "exclude", "baseline", "metrics", "tables", "plots", "seeds", "slurm",
            "extends"}
TABLE_KEYS = {"title", "metric", "normalize", "rows", "columns", "summary", "where"}
PLOT_KEYS = {"name", "kind", "title", "metric", "metrics", "normalize", "x", "series", "where",
             "ylabel", "xlabel", "logx", "logy"}
SEED_KEYS = {"label", "source", "metric", "normalize", "values"}
NORMALIZE = {"none", "speedup", "relative", "fraction"}
SIZES = ("test", "default", "paper")


class ExperimentError(Exception):
    pass


def set_value(v):
    """A YAML scalar as `--set` expects it (booleans lower-case)."""
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, (int, float, str)):
        return str(v)
    raise ExperimentError(f"override value {v!r} is not a scalar")


def safe(text):
    return re.sub(r"[^A-Za-z0-9_.=+-]", "_", str(text))


@dataclass
class Point:
    """One run: a workload at a size on a config with a set of --set overrides."""
    id: str
    coords: dict          # axis -> value as a string: workload, config, size, policy, sweep keys
    workload: str
    config: str           # a shipped config name or an absolute path to a YAML file
    size: str
    mode: str
    sets: dict = field(default_factory=dict)  # key -> value (str), applied in this order

    def run_args(self):
        """The `simtsync` arguments that run this point (without --json)."""
        args = ["run", self.workload, "--config", self.config, "--size", self.size,
                "--mode", self.mode]
        for k, v in self.sets.items():
            args += ["--set", f"{k}={v}"]
        return args


def load_mapping(path):
    try:
        with open(path, encoding="utf-8") as f:
            d = yaml.safe_load(f) or {}
    except OSError as e:
        raise ExperimentError(f"{path}: {e.strerror}") from None
    except UnicodeDecodeError as e:
        raise ExperimentError(f"{path}: not UTF-8 text (byte {e.start}: {e.reason})") from None
    except yaml.YAMLError as e:
        raise ExperimentError(f"{path}: {e}") from None
    if not isinstance(d, dict):
        raise ExperimentError(f"{path}: expected a mapping at the top level")
    return d


def with_base(path, d, chain=()):
    """`extends: OTHER` (a name beside this file, or a path relative to it): OTHER's keys, with
    this file's top-level keys replacing them whole (a `set:` here replaces OTHER's `set:`);
    `name` is never inherited. OTHER may extend another file in turn."""
    base = d.get("extends")
    if base is None:
        return d
    if not isinstance(base, str) or not base:
        raise ExperimentError(f"{path}: extends: expected the name or path of an experiment")
    here = os.path.dirname(os.path.abspath(path))
    cand = os.path.join(here, base)
    if not cand.endswith((".yaml", ".yml")) and not os.path.isfile(cand):
        cand += ".yaml"
    cand = os.path.abspath(cand)
    chain = chain + (os.path.abspath(path),)
    if cand in chain:
        raise ExperimentError(f"{path}: extends: {base} extends this file again (a cycle)")
    if not os.path.isfile(cand):
        raise ExperimentError(f"{path}: extends: no experiment file {cand}")
    merged = {k: v for k, v in with_base(cand, load_mapping(cand), chain).items()
              if k not in ("name", "extends")}
    merged.update({k: v for k, v in d.items() if k != "extends"})
    return merged


class Experiment:
    def __init__(self, path, size_override=None):
        self.path = os.path.abspath(path)
        d = with_base(path, load_mapping(path))
        self._check_keys(d, TOP_KEYS, "experiment")
        self.name = str(d.get("name", os.path.splitext(os.path.basename(path))[0]))
        # The name is a folder under results/ (and docs/results/): a plain name, never a path.
        if not re.fullmatch(r"[A-Za-z0-9_][A-Za-z0-9_.-]*", self.name):
            raise ExperimentError(f"name {self.name!r}: letters, digits, _ . - only (a plain "
                                  f"name, not a path), starting with a letter, digit or _")
        self.description = str(d.get("description", "")).strip()
        self.mode = d.get("mode", "timing")
        self.workloads = self._list(d, "workloads", required=True)
        self.configs = self._list(d, "configs", default=["gtx480"])
        self.sizes = [size_override] if size_override else self._list(d, "sizes", ["default"])
        for s in self.sizes:
            if s not in SIZES:
                raise ExperimentError(f"size '{s}' is not one of {', '.join(SIZES)}")
        self.policies = self._mapping(d, "policies") or {"default": {}}
        self.sweep = self._mapping(d, "sweep")
        for k, vs in self.sweep.items():
            if not isinstance(vs, list) or not vs:
                raise ExperimentError(f"sweep.{k}: expected a non-empty list of values")
        self.common_sets = self._mapping(d, "set")
        self.slurm = self._mapping(d, "slurm")
        self.axes = list(FIXED_AXES) + list(self.sweep)
        self.exclude = d.get("exclude") or []
        if not isinstance(self.exclude, list):
            raise ExperimentError("'exclude': expected a list of {axis: value} filters")
        for i, e in enumerate(self.exclude):
            self._check_keys(e, set(self.axes), f"exclude[{i}]")
        self.baseline = {k: str(v) for k, v in self._mapping(d, "baseline").items()}
        self.metrics = {}
        for name, m in self._mapping(d, "metrics").items():
            path = m.get("path") if isinstance(m, dict) else m
            if not isinstance(path, str):
                raise ExperimentError(f"metrics.{name}: expected a JSON path")
            self.metrics[name] = path
        self.tables = [self._table(i, t) for i, t in enumerate(d.get("tables") or [])]
        if not d.get("tables"):
            self.tables = [self._table(i, {"metric": m}) for i, m in enumerate(self.metrics)]
        self.plots = [self._plot(i, p) for i, p in enumerate(d.get("plots") or [])]
        self.seeds = [self._seed(i, s) for i, s in enumerate(d.get("seeds") or [])]
        self.points = self._expand()
        self._check_baseline()

    # ---- axes and points

    def axis_values(self, axis):
        """The values an axis takes, in the order the experiment lists them (as strings)."""
        if axis == "workload":
            return list(self.workloads)
        if axis == "config":
            return [config_label(c) for c in self.configs]
        if axis == "size":
            return list(self.sizes)
        if axis == "policy":
            return list(self.policies)
        return [set_value(v) for v in self.sweep[axis]]

    def _expand(self):
        base_dir = os.path.dirname(self.path)
        short = {k: k.rsplit(".", 1)[-1] for k in self.sweep}
        if len(set(short.values())) != len(short):
            short = {k: k for k in self.sweep}
        points = []
        for w, c, s, p, *vals in itertools.product(self.workloads, self.configs, self.sizes,
                                                    self.policies, *self.sweep.values()):
            config = c
            if c.endswith((".yaml", ".yml")):
                config = os.path.normpath(os.path.join(base_dir, c))
            coords = {"workload": w, "config": config_label(c), "size": s, "policy": p}
            sets = {k: set_value(v) for k, v in self.common_sets.items()}
            sets.update({k: set_value(v) for k, v in (self.policies[p] or {}).items()})
            pid = ".".join(safe(x) for x in (w, coords["config"], s, p))
            for k, v in zip(self.sweep, vals):
                coords[k] = set_value(v)
                sets[k] = set_value(v)
                pid += "." + safe(f"{short[k]}={set_value(v)}")
            if any(matches(coords, e) for e in self.exclude):
                continue
            points.append(Point(pid, coords, w, config, s, self.mode, sets))
        if not points:
            raise ExperimentError("the experiment has no points")
        ids = [p.id for p in points]
        if len(set(ids)) != len(ids):
            raise ExperimentError("two points share an id; give policies distinct names")
        return points

    def baseline_coords(self, coords):
        b = dict(coords)
        b.update(self.baseline)
        return b

    def _check_baseline(self):
        for k, v in self.baseline.items():
            if k not in self.axes:
                raise ExperimentError(f"baseline: unknown axis '{k}' "
                                      f"(axes: {', '.join(self.axes)})")
            if v not in self.axis_values(k):
                raise ExperimentError(f"baseline: '{v}' is not a value of axis '{k}'")

    # ---- sections

    def _table(self, i, t):
        where = f"tables[{i}]"
        self._check_keys(t, TABLE_KEYS, where)
        spec = {"title": t.get("title"), "metric": self._metric_ref(t.get("metric"), where),
                "normalize": self._normalize(t, where), "rows": t.get("rows", "workload"),
                "columns": t.get("columns", "policy"), "where": self._where(t, where)}
        spec["summary"] = t.get("summary", "mean" if spec["normalize"] == "none" else "geomean")
        if spec["summary"] not in ("geomean", "mean", "none"):
            raise ExperimentError(f"{where}.summary: expected geomean, mean or none")
        for a in ("rows", "columns"):
            self._axis(spec[a], f"{where}.{a}")
        return spec

    def _plot(self, i, p):
        where = f"plots[{i}]"
        self._check_keys(p, PLOT_KEYS, where)
        kind = p.get("kind", "bars")
        if kind not in ("bars", "stacked", "line"):
            raise ExperimentError(f"{where}.kind: expected bars, stacked or line")
        if "name" not in p or not re.fullmatch(r"[A-Za-z0-9_.-]+", str(p["name"])):
            raise ExperimentError(f"{where}.name: required, letters, digits, _ . - only")
        spec = dict(p)
        spec.update(kind=kind, normalize=self._normalize(p, where), where=self._where(p, where),
                    x=p.get("x", "workload"), series=p.get("series", "policy"))
        if kind == "stacked":
            spec["metrics"] = [self._metric_ref(m, where) for m in p.get("metrics") or []]
            if not spec["metrics"]:
                raise ExperimentError(f"{where}.metrics: a stacked plot needs a list of metrics")
        else:
            spec["metric"] = self._metric_ref(p.get("metric"), where)
        for a in ("x", "series"):
            self._axis(spec[a], f"{where}.{a}")
        return spec

    def _seed(self, i, s):
        where = f"seeds[{i}]"
        self._check_keys(s, SEED_KEYS, where)
        if "label" not in s or not isinstance(s.get("values"), list):
            raise ExperimentError(f"{where}: needs a label and a list of values")
        values = []
        for v in s["values"]:
            if not isinstance(v, dict) or "value" not in v:
                raise ExperimentError(f"{where}.values: each entry needs a value")
            coords = {k: set_value(x) for k, x in v.items() if k != "value"}
            for k in coords:
                self._axis(k, f"{where}.values")
            values.append((coords, float(v["value"])))
        return {"label": str(s["label"]), "source": str(s.get("source", "")),
                "metric": self._metric_ref(s.get("metric"), where),
                "normalize": self._normalize(s, where), "values": values}

    def _metric_ref(self, m, where):
        if m not in self.metrics:
            raise ExperimentError(f"{where}: unknown metric '{m}' (metrics: "
                                  f"{', '.join(self.metrics)})")
        return m

    def _axis(self, a, where):
        if a not in self.axes:
            raise ExperimentError(f"{where}: unknown axis '{a}' (axes: {', '.join(self.axes)})")

    def _where(self, d, where):
        w = d.get("where") or {}
        for k in w:
            self._axis(k, f"{where}.where")
        return {k: [set_value(x) for x in (v if isinstance(v, list) else [v])]
                for k, v in w.items()}

    def _normalize(self, d, where):
        n = d.get("normalize", "none")
        if n not in NORMALIZE:
            raise ExperimentError(f"{where}.normalize: '{n}' is not one of {sorted(NORMALIZE)}")
        if n in ("speedup", "relative") and not self.baseline:
            raise ExperimentError(f"{where}.normalize: {n} needs a baseline")
        return n

    @staticmethod
    def _check_keys(d, allowed, where):
        if not isinstance(d, dict):
            raise ExperimentError(f"{where}: expected a mapping")
        for k in d:
            if k not in allowed:
                raise ExperimentError(f"{where}: unknown key '{k}' (allowed: "
                                      f"{', '.join(sorted(allowed))})")

    @staticmethod
    def _list(d, key, default=None, required=False):
        v = d.get(key, default)
        if v is None and required:
            raise ExperimentError(f"'{key}' is required")
        if isinstance(v, (str, int)):
            v = [v]
        if not isinstance(v, list) or not v:
            raise ExperimentError(f"'{key}': expected a non-empty list")
        return [str(x) for x in v]

    @staticmethod
    def _mapping(d, key):
        v = d.get(key) or {}
        if not isinstance(v, dict):
            raise ExperimentError(f"'{key}': expected a mapping")
        return v


def config_label(config):
    """How a config appears in point ids and tables: a shipped name or a file's stem."""
    base = os.path.basename(config)
    return os.path.splitext(base)[0] if base.endswith((".yaml", ".yml")) else config


def matches(coords, where):
    """Whether coordinates satisfy a filter {axis: value or [values]}."""
    for k, v in where.items():
        allowed = [set_value(x) for x in (v if isinstance(v, list) else [v])]
        if coords.get(k) not in allowed:
            return False
    return True


def find_experiment(arg):
    """EXPERIMENT on the command line: a file, or a name under SOURCE/experiments/."""
    if os.path.isfile(arg):
        return arg
    src = os.environ.get("SIMTSYNC_SOURCE_DIR", "")
    for cand in (os.path.join(src, "experiments", arg + ".yaml"),
                 os.path.join(src, "experiments", arg)):
        if src and os.path.isfile(cand):
            return cand
    known = []
    if src and os.path.isdir(os.path.join(src, "experiments")):
        known = sorted(f[:-5] for f in os.listdir(os.path.join(src, "experiments"))
                       if f.endswith(".yaml"))
    raise ExperimentError(f"no experiment '{arg}' (a file, or one of: {', '.join(known)})")
