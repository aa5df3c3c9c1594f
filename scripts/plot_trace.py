#!/usr/bin/python3
"""Plot columns of a voltex-sim body trace or joint trace (CSV) against time, into a PNG.

    scripts/run.sh scenes/ball_drop.json | scripts/plot_trace.py --entity ball --y py -o ball.png
    scripts/plot_trace.py trace.csv --entity 1 --entity 2 --y px --y vx -o x.png
    scripts/plot_trace.py joints.csv --entity j0 --y fy -o force.png
    scripts/plot_trace.py trace.csv -e bob -y px --analytic "sin(0.1745*cos(2*pi*t/2.0099))" -o x.png

Columns are selected by name (the header), so traces with extra columns work.
Rows are picked by name or index: the entity's in a body trace, the joint's
in a joint trace. --analytic draws an expression of t (the x column) beside
the data, dashed, with math's functions (sin, cos, sqrt, pi, ...).
"""
import argparse
import csv
import math
import sys


def parse_args(argv):
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("trace", nargs="?", default="-", help="body trace CSV file, or - for stdin (default)")
    p.add_argument("--entity", "-e", action="append", required=True,
                   help="entity name or index to plot (repeat for several)")
    p.add_argument("--y", "-y", action="append", required=True, help="column to plot (repeat for several)")
    p.add_argument("--x", default="time", help="column for the horizontal axis (default: time)")
    p.add_argument("--output", "-o", required=True, help="PNG file to write")
    p.add_argument("--title", help="plot title (default: the columns and entities)")
    p.add_argument("--analytic", action="append", default=[],
                   help="an expression of t to draw beside the data, dashed (repeat for several)")
    return p.parse_args(argv)


def analytic_curve(expression, xs):
    """The expression at each x (as t), with math's names; a clear error for a bad one."""
    names = {k: getattr(math, k) for k in dir(math) if not k.startswith("_")}
    try:
        code = compile(expression, "--analytic", "eval")
        return [float(eval(code, {"__builtins__": {}}, dict(names, t=x))) for x in xs]
    except Exception as e:  # any error in the user's expression
        raise SystemExit(f"plot_trace.py: --analytic {expression!r}: {e}")


def read_series(stream, entities, xcol, ycols):
    reader = csv.reader(stream)
    try:
        header = next(reader)
    except StopIteration:
        raise SystemExit("plot_trace.py: the trace is empty")
    index = {name: i for i, name in enumerate(header)}
    key = "joint" if "joint" in index and "entity" not in index else "entity"
    for col in [xcol, key, "name"] + ycols:
        if col not in index:
            raise SystemExit(f"plot_trace.py: no column {col!r} in the trace (columns: {', '.join(header)})")
    series = {(e, c): ([], []) for e in entities for c in ycols}
    found = set()
    for line, row in enumerate(reader, start=2):
        if len(row) != len(header):
            raise SystemExit(f"plot_trace.py: line {line}: expected {len(header)} cells, got {len(row)}")
        for e in entities:
            if row[index["name"]] == e or row[index[key]] == e:
                found.add(e)
                x = float(row[index[xcol]])
                for c in ycols:
                    xs, ys = series[(e, c)]
                    xs.append(x)
                    ys.append(float(row[index[c]]))
    missing = [e for e in entities if e not in found]
    if missing:
        raise SystemExit(f"plot_trace.py: no rows for entity {', '.join(missing)}")
    return series


def main(argv):
    args = parse_args(argv)
    if args.trace == "-":
        series = read_series(sys.stdin, args.entity, args.x, args.y)
    else:
        try:
            with open(args.trace, newline="") as f:
                series = read_series(f, args.entity, args.x, args.y)
        except OSError as e:
            raise SystemExit(f"plot_trace.py: {args.trace}: {e.strerror}")

    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(8, 4.5), dpi=100)
    for (entity, col), (xs, ys) in series.items():
        ax.plot(xs, ys, label=f"{entity} {col}")
    if args.analytic:
        xs = next(iter(series.values()))[0]
        for expression in args.analytic:
            ax.plot(xs, analytic_curve(expression, xs), "--", label=expression)
    ax.set_xlabel(args.x + (" (s)" if args.x == "time" else ""))
    ax.set_ylabel(", ".join(args.y))
    ax.set_title(args.title or f"{', '.join(args.y)} of {', '.join(args.entity)}")
    ax.grid(True, alpha=0.3)
    ax.legend()
    fig.tight_layout()
    fig.savefig(args.output)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
