"""A sweep's results folder: per-point files, their status, and the merged CSV files.

OUT/points/ID.inputs.json  what the point depends on (written before it runs)
OUT/points/ID.json         `simtsync run --json` (plus ID.config.yaml, the resolved config)
OUT/points/ID.log          the run's stdout and stderr
OUT/points/ID.rc           its exit status, written last: a point without it has not finished
OUT/points/.running/ID.*   a local sweep's run of the point in progress; its files replace the
                           point's (old .rc removed first, new .rc last) only when it finishes
OUT/results.csv            one row per point, every statistic a column
OUT/metrics.csv            one row per point, the experiment's metrics only
OUT/records.csv            the policies' records (`stats.gpu.records.<kind>`: a DDOS branch, a
                           delay-limit change, ...), one row per record: point, record, index,
                           then the record's fields. Lists of rows, not statistics: like
                           `simtsync run --csv`, results.csv leaves them out (one column per
                           field and index made it hundreds of thousands of columns wide)
"""
import csv
import gzip
import json
import os

from metrics import metric_value

EXIT_REASONS = {1: "validation failed", 2: "usage or configuration error",
                3: "deadlock or livelock", 4: "unsupported input", 5: "kernel fault"}
# Keys of the run's JSON that the descriptor columns already hold, or that are not a statistic.
SKIP_JSON = {"workload", "size", "config", "exit_code", "watchdog_report"}


def point_path(out, pid, ext):
    return os.path.join(out, "points", f"{pid}.{ext}")


RUNNING = ".running"  # OUT/points/.running/ID.*: a point's run in progress (sweep.finish_point)


def running_path(out, pid, ext):
    return os.path.join(out, "points", RUNNING, f"{pid}.{ext}")


def exit_reason(rc):
    if rc > 128:
        return f"killed by signal {rc - 128}"
    return EXIT_REASONS.get(rc, f"exit code {rc}")


def read_json(path):
    try:
        with open(path) as f:
            return json.load(f)
    except (OSError, ValueError):
        return None


def read_rc(out, pid):
    try:
        with open(point_path(out, pid, "rc")) as f:
            return int(f.read().strip())
    except (OSError, ValueError):
        return None


def write_atomic(path, text):
    tmp = path + ".tmp"
    with open(tmp, "w") as f:
        f.write(text)
    os.replace(tmp, path)


POINT_OUTPUTS = ("json", "config.yaml", "log")  # what a run writes (the .rc comes after)


def clear_point(out, pid, running=False):
    """Removes a point's outputs so that a partial or stale result is never read; with
    `running`, the outputs of its run in progress (points/.running/ID.*) instead."""
    for ext in ("rc",) + POINT_OUTPUTS:
        try:
            os.remove((running_path if running else point_path)(out, pid, ext))
        except FileNotFoundError:
            pass


def flatten(j, prefix="", out=None, records=None):
    """JSON to {column: scalar}, named like `simtsync run --csv` (a.b[0].c). An object's
    `records` member goes to `records` ({kind: [row, ...]}) instead, as in `simtsync run --csv`."""
    out = {} if out is None else out
    if isinstance(j, dict):
        for k, v in j.items():
            # A policy's records are an object of lists; a workload parameter may be called
            # `records` too (nn: params.records, a number), which stays a column.
            if k == "records" and isinstance(v, dict):
                for kind, rows in (v.items() if records is not None else ()):
                    records.setdefault(kind, []).extend(rows)
                continue
            flatten(v, f"{prefix}.{k}" if prefix else k, out, records)
    elif isinstance(j, list):
        for i, v in enumerate(j):
            flatten(v, f"{prefix}[{i}]", out, records)
    else:
        out[prefix] = j
    return out


def failure_reason(out, pid, rc, run_json):
    """A short text: what the exit code means and the run's own first line about it."""
    detail = ""
    if run_json:
        report = run_json.get("watchdog_report", "")
        lines = [x.strip() for x in (report or run_json.get("message", "")).splitlines()]
        lines = [x for x in lines if x]
        # The watchdog's verdict ("kernel K cannot finish: ...") says more than its first line.
        verdict = [x.split("watchdog: ", 1)[1] for x in lines if "watchdog: " in x]
        detail = verdict[0] if verdict else (lines[0] if lines else "")
    else:
        try:
            with open(point_path(out, pid, "log"), errors="replace") as f:
                lines = [x.strip() for x in f.read().splitlines() if x.strip()]
            detail = lines[-1] if lines else ""
        except OSError:
            pass
    reason = exit_reason(rc)
    return f"{reason}: {detail}" if detail else reason


def point_row(exp, point, out, status, inputs, records=None):
    """The CSV row of one point: descriptor columns, status, then every statistic. With
    `records` (a list), the point's policy records are appended to it as records.csv rows."""
    row = {"point": point.id}
    row.update(point.coords)
    rc = read_rc(out, point.id) if status in ("ok", "failed") else None
    run_json = read_json(point_path(out, point.id, "json")) if rc is not None else None
    row.update(status=status, exit_code="" if rc is None else rc,
               reason="" if not rc else failure_reason(out, point.id, rc, run_json),
               version=(inputs or {}).get("version", ""),
               inputs_key=(inputs or {}).get("key", ""))
    if run_json:
        kinds = {}
        for k, v in flatten({k: v for k, v in run_json.items() if k not in SKIP_JSON},
                            records=kinds).items():
            row[k] = v
        if records is not None:
            for kind, rows in kinds.items():
                for i, rec in enumerate(rows):
                    records.append({"point": point.id, "record": kind, "index": i, **rec})
    return row


def write_csv(path, rows, first=()):
    """Columns: `first` in order, then every other column in first-seen order."""
    columns = list(first)
    seen = set(columns)
    for r in rows:
        for k in r:
            if k not in seen:
                seen.add(k)
                columns.append(k)
    tmp = path + ".tmp"
    with open(tmp, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=columns, restval="", lineterminator="\n")
        w.writeheader()
        for r in rows:
            w.writerow({k: fmt_cell(v) for k, v in r.items()})
    os.replace(tmp, path)


def fmt_cell(v):
    if isinstance(v, bool):
        return "true" if v else "false"
    if v is None:
        return ""
    return v


def descriptor_columns(exp):
    return ["point"] + exp.axes + ["status", "exit_code", "reason"]


RECORD_COLUMNS = ("point", "record", "index", "kernel", "launch", "sm")


def write_results(exp, out, rows, records=()):
    """results.csv (every statistic), metrics.csv (the experiment's metrics) and, when any
    point has policy records, records.csv."""
    write_csv(os.path.join(out, "results.csv"), rows, descriptor_columns(exp))
    path = os.path.join(out, "records.csv")
    if records:
        write_csv(path, records, RECORD_COLUMNS)
    elif os.path.exists(path):
        os.remove(path)
    small = []
    for r in rows:
        m = {k: r.get(k, "") for k in descriptor_columns(exp)}
        for name, path in exp.metrics.items():
            m[name] = metric_value(r, path) if r.get("status") == "ok" else None
        small.append(m)
    write_csv(os.path.join(out, "metrics.csv"), small, descriptor_columns(exp))


def read_results(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def gzip_copy(src, dst):
    """A gzip copy that is the same bytes for the same input (no name or time in its header),
    so that recording the same results again changes nothing in the repository."""
    tmp = dst + ".tmp"
    with open(src, "rb") as f, open(tmp, "wb") as raw:
        with gzip.GzipFile(filename="", mode="wb", fileobj=raw, mtime=0, compresslevel=9) as z:
            for chunk in iter(lambda: f.read(1 << 20), b""):
                z.write(chunk)
    os.replace(tmp, dst)
