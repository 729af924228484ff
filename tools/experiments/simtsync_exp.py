"""`simtsync sweep` and `simtsync report` (the simtsync binary runs this script with python3).

Usage: simtsync sweep EXPERIMENT [--jobs N] [--out DIR] [--size S] [--force] [--rerun-failed]
                                 [--dry-run] [--emit-slurm DIR | --collect]
       simtsync report EXPERIMENT [--out DIR] [--size S] [--to DIR]
See docs/experiments.md.
"""
import argparse
import os
import signal
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

EXIT_USAGE = 2


def missing_module(e):
    print(f"simtsync: error: {e} (scripts/setup.sh installs python3-yaml and "
          f"python3-matplotlib)", file=sys.stderr)
    return EXIT_USAGE


def default_out(exp, size):
    """results/NAME, or results/NAME.SIZE when --size replaces the experiment's sizes."""
    return os.path.join("results", exp.name + (f".{size}" if size else ""))


def parse(argv):
    ap = argparse.ArgumentParser(prog="simtsync", description="experiments: sweeps and reports")
    sub = ap.add_subparsers(dest="command", required=True)
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("experiment", help="experiments/NAME.yaml, or a YAML file")
    common.add_argument("--out", help="results folder (default: results/NAME[.SIZE])")
    common.add_argument("--size", choices=["test", "default", "paper"],
                        help="run every point at this size instead of the experiment's sizes")
    sw = sub.add_parser("sweep", parents=[common], help="run the points not yet up to date")
    sw.add_argument("--jobs", "-j", type=int, default=os.cpu_count() or 1,
                    help="points run at once (default: the number of CPUs)")
    sw.add_argument("--force", action="store_true", help="run every point again")
    sw.add_argument("--rerun-failed", action="store_true",
                    help="also run points again whose last run failed")
    sw.add_argument("--dry-run", action="store_true", help="list the points that would run")
    mode = sw.add_mutually_exclusive_group()
    mode.add_argument("--emit-slurm", metavar="DIR",
                      help="write a Slurm job-array script and the per-point commands to DIR")
    mode.add_argument("--collect", action="store_true",
                      help="merge results produced elsewhere (e.g. by Slurm) into the CSV files")
    rp = sub.add_parser("report", parents=[common], help="tables and plots of the results")
    rp.add_argument("--to", help="folder for report.md and figures (default: OUT/report)")
    return ap.parse_args(argv)


def main(argv):
    args = parse(argv)
    sys.stdout.reconfigure(line_buffering=True)  # keeps stdout in order with stderr's progress
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)  # `simtsync sweep ... | head` ends quietly
    try:
        from experiment import Experiment, ExperimentError, find_experiment
    except ModuleNotFoundError as e:
        return missing_module(e)
    try:
        exp = Experiment(find_experiment(args.experiment), args.size)
        out = args.out or default_out(exp, args.size)
        if args.command == "report":
            import report
            return report.report(exp, out, args.to or os.path.join(out, "report"))
        import sweep
        if args.jobs < 1:
            raise ExperimentError("--jobs must be at least 1")
        if args.emit_slurm:
            return sweep.emit_slurm(exp, out, args.emit_slurm, args.jobs, args.force)
        if args.collect:
            return sweep.collect(exp, out, args.jobs)
        return sweep.sweep(exp, out, args.jobs, args.force, args.rerun_failed, args.dry_run)
    except ExperimentError as e:
        print(f"simtsync: error: {short(str(e))}", file=sys.stderr)
        return EXIT_USAGE
    except ModuleNotFoundError as e:
        return missing_module(e)
    except OSError as e:  # an unwritable --out or --to, a full disk: the user's to fix
        where = f"'{e.filename}': " if e.filename else ""
        print(f"simtsync: error: {where}{e.strerror or e}", file=sys.stderr)
        return EXIT_USAGE
    except KeyboardInterrupt:  # SIGINT before the points run (or after they stopped)
        print("simtsync: interrupted", file=sys.stderr)
        return 130


def short(text, limit=300):
    """A message with a long value (a 10 MB override) cut to its first characters."""
    return text if len(text) <= limit else text[:limit] + f"... ({len(text) - limit} more characters)"


def run(argv):
    """main, plus what ends it: argparse's exit (--help, a usage error) and a failed write of
    standard output (--help > /dev/full) are exit codes, not tracebacks."""
    def stdout_failed(e):
        print(f"simtsync: error: cannot write standard output: {e.strerror or e}",
              file=sys.stderr)
        # Nothing more to flush at exit (it would fail again and print a traceback).
        sys.stdout = open(os.devnull, "w")
        return EXIT_USAGE

    try:
        rc = main(argv)
    except SystemExit as e:
        rc = e.code if isinstance(e.code, int) else (0 if e.code is None else EXIT_USAGE)
    except KeyboardInterrupt:
        print("simtsync: interrupted", file=sys.stderr)
        rc = 130
    except OSError as e:  # argparse writing --help to a full or closed standard output
        return stdout_failed(e)
    try:
        sys.stdout.flush()
    except OSError as e:
        rc = stdout_failed(e)
    return rc


if __name__ == "__main__":
    sys.exit(run(sys.argv[1:]))
