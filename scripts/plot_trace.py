#!/usr/bin/python3
"""Plot columns of a voltex-sim trace (CSV: body, contact, joint or query) against time, into a PNG.

    scripts/run.sh scenes/ball_drop.json | scripts/plot_trace.py --entity ball --y py --y vy -o ball.png
    scripts/plot_trace.py trace.csv --entity 1 --entity 2 --y px --y vx -o x.png
    scripts/plot_trace.py joints.csv --entity j0 --y fy -o force.png
    scripts/plot_trace.py contacts.csv --entity ball --y impulse --y depth -o contact.png
    scripts/plot_trace.py queries.csv --entity ahead --y distance -o ray.png
    scripts/plot_trace.py trace.csv -e bob -y px --analytic "sin(0.1745*cos(2*pi*t/2.0099))" -o x.png

Reads the long layout (a row per entity and frame), the wide one (--layout
wide: columns NAME.px ...), joint and query traces (rows picked by the
joint's or query's name or index; a query's nearest hit, and gaps for its
frames without one)
and contact traces (--entity picks the pairs with that body, or one pair as
A/B; a curve per pair: several points of a pair in one step give their
impulses summed and the other columns of the deepest point). Columns are
selected by name, so traces with extra columns work.
Each kind of quantity gets its own axes with its unit (position m, velocity
m/s, angular velocity rad/s, orientation, force N, torque N m); the legend
names the entities. --analytic draws an expression of t (the x column)
dashed on the first column's axes, with math's functions (sin, cos, sqrt,
pi, ...).
"""
import argparse
import csv
import math
import sys

# The unit of each column of a body trace, and the axes it is drawn on.
QUANTITIES = [
    ("position", "m", ("px", "py", "pz")),
    ("orientation", "quaternion", ("qx", "qy", "qz", "qw")),
    ("velocity", "m/s", ("vx", "vy", "vz")),
    ("angular velocity", "rad/s", ("wx", "wy", "wz")),
    ("force", "N", ("fx", "fy", "fz")),  # the joint trace's
    ("torque", "N m", ("tx", "ty", "tz")),
    ("joint position", "rad or m", ("position",)),
    ("joint speed", "rad/s or m/s", ("speed",)),
    ("depth", "m", ("depth",)),  # the contact trace's
    ("impulse", "N s", ("impulse",)),
    ("normal", None, ("nx", "ny", "nz")),
    ("contact point", "m", ("ax", "ay", "az", "bx", "by", "bz")),
    ("distance", "m", ("distance",)),  # the query trace's
]
X_UNITS = {"time": "s", "frame": None}


def fail(message):
    sys.exit(f"plot_trace.py: {message}")


def quantity_of(column):
    """(name, unit) of a column: a body trace's, else the column itself."""
    for name, unit, columns in QUANTITIES:
        if column in columns:
            return name, unit
    return column, None


def parse_args(argv):
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("trace", nargs="?", default="-", help="trace CSV file, or - for stdin (default)")
    p.add_argument("--entity", "-e", action="append", required=True,
                   help="entity (joint, query) name or index to plot, or a contact pair A/B (repeat for several)")
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
        fail(f"--analytic {expression!r}: {e}")


def check_columns(index, header, columns):
    for col in columns:
        if col not in index:
            fail(f"no column {col!r} in the trace (columns: {', '.join(header)})")


def read_long(reader, header, entities, xcol, ycols):
    """{(entity name, column): (xs, ys)} from rows of entity (or joint, or
    query), name, ...; a query's row without a hit gives NaN."""
    index = {name: i for i, name in enumerate(header)}
    key = next(k for k in ("query", "joint", "entity") if k in index or k == "entity")
    check_columns(index, header, [xcol, key, "name"] + ycols)
    miss = index["hit"] if key == "query" and "hit" in index else None
    seen = set()  # (query, frame): a query's first row of a frame is its nearest hit
    names = {}  # what the user wrote -> the entity's name
    series = {}
    for line, row in enumerate(reader, start=2):
        if len(row) != len(header):
            fail(f"line {line}: expected {len(header)} cells, got {len(row)}")
        name = row[index["name"]]
        if key == "query" and "frame" in index:
            if (name, row[index["frame"]]) in seen:
                continue
            seen.add((name, row[index["frame"]]))
        for e in entities:
            if e == name or e == row[index[key]]:
                names[e] = name
                no_hit = miss is not None and row[miss] == "0"
                for c in ycols:
                    xs, ys = series.setdefault((name, c), ([], []))
                    xs.append(float(row[index[xcol]]))
                    ys.append(math.nan if no_hit and c != "hit" else float(row[index[c]]))
    missing = [e for e in entities if e not in names]
    if missing:
        fail(f"no rows for entity {', '.join(missing)}")
    return series


def read_contacts(reader, header, entities, xcol, ycols):
    """{("A/B", column): (xs, ys)} from a contact trace: the pairs of the
    bodies asked for (a name or index, or a pair A/B), one value per pair
    and step: the impulses summed, the rest from the deepest point."""
    index = {name: i for i, name in enumerate(header)}
    check_columns(index, header, [xcol, "frame", "entity_a", "entity_b", "name_a", "name_b", "depth"] + ycols)
    found = set()
    frames = {}  # (pair, frame) -> [x, impulse sum, deepest row]
    for line, row in enumerate(reader, start=2):
        if len(row) != len(header):
            fail(f"line {line}: expected {len(header)} cells, got {len(row)}")
        sides = [(row[index["name_a"]], row[index["entity_a"]]), (row[index["name_b"]], row[index["entity_b"]])]
        pair = f"{sides[0][0]}/{sides[1][0]}"
        wanted = [e for e in entities
                  if any(e in side for side in sides) or e in (pair, f"{sides[1][0]}/{sides[0][0]}")]
        if not wanted:
            continue
        found.update(wanted)
        key = (pair, row[index["frame"]])
        entry = frames.get(key)
        impulse = float(row[index["impulse"]]) if "impulse" in index else 0.0
        if entry is None:
            frames[key] = [float(row[index[xcol]]), impulse, row]
        else:
            entry[1] += impulse
            if float(row[index["depth"]]) > float(entry[2][index["depth"]]):
                entry[2] = row
    missing = [e for e in entities if e not in found]
    if missing:
        fail(f"no contacts of {', '.join(missing)}")
    series = {}
    for (pair, _), (x, impulse, row) in frames.items():
        for c in ycols:
            xs, ys = series.setdefault((pair, c), ([], []))
            xs.append(x)
            ys.append(impulse if c == "impulse" else float(row[index[c]]))
    return series


def read_wide(reader, header, entities, xcol, ycols):
    """The same from a wide trace: columns NAME.COLUMN, entities numbered in
    the order they first appear."""
    index = {name: i for i, name in enumerate(header)}
    if xcol not in index:
        fail(f"no column {xcol!r} in the trace (columns: {', '.join(header[:8])}, ...)")
    order = []
    for cell in header:
        name, dot, _ = cell.rpartition(".")
        if dot and name not in order:
            order.append(name)
    wanted = []
    for e in entities:
        name = order[int(e)] if e.isdigit() and int(e) < len(order) and e not in order else e
        if name not in order:
            fail(f"no columns for entity {e} (entities: {', '.join(order)})")
        for c in ycols:
            if f"{name}.{c}" not in index:
                fail(f"no column {name + '.' + c!r} in the trace")
        wanted.append(name)
    series = {(name, c): ([], []) for name in wanted for c in ycols}
    for line, row in enumerate(reader, start=2):
        if len(row) != len(header):
            fail(f"line {line}: expected {len(header)} cells, got {len(row)}")
        x = float(row[index[xcol]])
        for (name, c), (xs, ys) in series.items():
            xs.append(x)
            ys.append(float(row[index[f"{name}.{c}"]]))
    return series


def read_series(stream, entities, xcol, ycols):
    reader = csv.reader(stream)
    try:
        header = next(reader)
    except StopIteration:
        fail("the trace is empty")
    if "entity_a" in header and "name_a" in header and "joint" not in header:
        return read_contacts(reader, header, entities, xcol, ycols)
    if "name" in header or not any("." in cell for cell in header):
        return read_long(reader, header, entities, xcol, ycols)
    return read_wide(reader, header, entities, xcol, ycols)


def load_pyplot():
    """matplotlib's pyplot drawing into files, or a one-line error."""
    try:
        import matplotlib
    except ImportError:
        fail("needs the Python package matplotlib (Debian: apt-get install python3-matplotlib)")
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    return plt


def make_figure(plt, series, xcol, ycols, title, analytic=()):
    """One axes per kind of quantity, stacked, sharing the horizontal axis;
    the analytic curves on the first."""
    groups = []  # (quantity, unit, [columns]) in the order the columns were asked
    for c in ycols:
        quantity, unit = quantity_of(c)
        group = next((g for g in groups if g[0] == quantity), None)
        if group is None:
            groups.append((quantity, unit, [c]))
        else:
            group[2].append(c)
    fig, axes = plt.subplots(len(groups), 1, sharex=True, squeeze=False,
                             figsize=(8, 2.2 + 2.3 * len(groups)), dpi=100)
    for ax, (quantity, unit, columns) in zip(axes[:, 0], groups):
        for (name, c), (xs, ys) in series.items():
            if c in columns:
                # contacts come and go: dots show the steps that have one
                ax.plot(xs, ys, marker="." if len(xs) < 200 else None, label=f"{name} {c}")
        if columns is groups[0][2]:
            xs = next(iter(series.values()))[0]
            for expression in analytic:
                ax.plot(xs, analytic_curve(expression, xs), "--", label=expression)
        ax.set_ylabel(f"{quantity} ({unit})" if unit else quantity)
        ax.grid(True, alpha=0.3)
        ax.legend(loc="best")
    x_unit = X_UNITS.get(xcol, quantity_of(xcol)[1])
    axes[-1, 0].set_xlabel(f"{xcol} ({x_unit})" if x_unit else xcol)
    axes[0, 0].set_title(title)
    fig.tight_layout()
    return fig


def main(argv):
    args = parse_args(argv)
    plt = load_pyplot()
    if args.trace == "-":
        series = read_series(sys.stdin, args.entity, args.x, args.y)
    else:
        try:
            with open(args.trace, newline="") as f:
                series = read_series(f, args.entity, args.x, args.y)
        except OSError as e:
            fail(f"{args.trace}: {e.strerror}")
    names = list(dict.fromkeys(name for name, _ in series))
    title = args.title or f"{', '.join(args.y)} of {', '.join(names)}"
    fig = make_figure(plt, series, args.x, args.y, title, args.analytic)
    try:
        fig.savefig(args.output)
    except OSError as e:
        fail(f"{args.output}: {e.strerror}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
