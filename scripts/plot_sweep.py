#!/usr/bin/python3
"""Plot the metrics of a sweep (the CSV of scripts/sweep) against a parameter,
a panel per metric and a line per value of a second parameter, into a PNG.

    scripts/plot_sweep.py sweep.csv --x 'entities[1].rigidbody.restitution' --y bounce -o bounce.png
    scripts/plot_sweep.py sweep.csv --x solver.substeps --y max_displacement_m --by solver.iterations -o s.png

Columns are selected by name (the header). Points that failed (empty cells)
are left out of the lines.
"""
import argparse
import csv
import sys


def parse_args(argv):
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("csv", help="the sweep CSV")
    p.add_argument("--x", required=True, help="the column for the horizontal axis (a swept path)")
    p.add_argument("--y", action="append", required=True, help="a metric column (repeat for several panels)")
    p.add_argument("--by", help="a column whose values each get their own line")
    p.add_argument("--output", "-o", required=True, help="PNG file to write")
    p.add_argument("--title", help="plot title (default: the file name)")
    return p.parse_args(argv)


def number(text):
    try:
        return float(text)
    except ValueError:
        return None


def read_lines(path, xcol, ycols, bycol):
    """{(y column, by value): [(x, y), ...]} and whether x is numeric."""
    try:
        with open(path, newline="", encoding="utf-8") as f:
            rows = list(csv.DictReader(f))
            header = list(rows[0].keys()) if rows else []
    except OSError as e:
        raise SystemExit(f"plot_sweep.py: {path}: {e.strerror}")
    if not rows:
        raise SystemExit(f"plot_sweep.py: {path}: no points")
    for col in [xcol] + ycols + ([bycol] if bycol else []):
        if col not in header:
            raise SystemExit(f"plot_sweep.py: no column {col!r} in {path} (columns: {', '.join(header)})")
    numeric_x = all(number(r[xcol]) is not None for r in rows)
    lines = {}
    for ycol in ycols:
        if not any(number(r[ycol]) is not None for r in rows):
            raise SystemExit(f"plot_sweep.py: column {ycol!r} has no numbers")
        for r in rows:
            y = number(r[ycol])
            if y is not None:
                x = number(r[xcol]) if numeric_x else r[xcol]
                lines.setdefault((ycol, r[bycol] if bycol else None), []).append((x, y))
    return lines


def main(argv):
    args = parse_args(argv)
    lines = read_lines(args.csv, args.x, args.y, args.by)

    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(len(args.y), 1, sharex=True, squeeze=False,
                             figsize=(8, 2.5 + 2.2 * len(args.y)), dpi=100)
    for ax, ycol in zip(axes[:, 0], args.y):
        for (col, by), points in lines.items():
            if col == ycol:
                xs, ys = zip(*points)
                ax.plot(xs, ys, marker="o", markersize=3, label=f"{args.by} = {by}" if args.by else None)
        ax.set_ylabel(ycol)
        ax.grid(True, alpha=0.3)
        if args.by:
            ax.legend(fontsize="small")
    axes[-1, 0].set_xlabel(args.x)
    axes[0, 0].set_title(args.title or args.csv)
    fig.tight_layout()
    fig.savefig(args.output)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
