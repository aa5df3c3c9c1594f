#!/usr/bin/env python3
"""Writes the terrain_rain bench scene into a folder: terrain_rain.obj, a
terrain of QUADS x QUADS quads of 1 m (2 triangles each: 1 002 528 for the
default 708) with gentle waves (the heights of bench/bench_mesh.c), and
terrain_rain.json, that terrain as a static mesh with 4096 spheres of radius
0.5 m raining on its middle: a 64 x 64 grid 2 m apart, each dropped from its
own height between 2 and 30 m above the ground, 300 steps. The OBJ is 24 MB,
too big for the repository: scripts/bench.sh writes it at bench time.
Deterministic: a fixed seed and Python's own generator, numbers rounded.

    scripts/make_terrain_rain.py FOLDER [--quads N] [--spheres N]
"""
import argparse
import math
import os
import random

SEED = 20261202
SPACING = 2.0   # m between the spheres of the grid
RADIUS = 0.5    # m
LOWEST = 2.0    # m above the ground, the range of the drop heights
HIGHEST = 30.0
JITTER = 0.2    # m, horizontal offset that breaks the grid's symmetry
STEPS = 300


def height(x, z):
    """The terrain's height at (x, z), m, as bench/bench_mesh.c."""
    return 0.3 * math.sin(0.21 * x) * math.cos(0.17 * z) + 0.1 * math.sin(0.9 * x + 0.4 * z)


def write_obj(path, quads):
    half = 0.5 * quads
    with open(path, "w") as f:
        f.write("# terrain_rain: %d x %d quads of 1 m, made by scripts/make_terrain_rain.py\n" % (quads, quads))
        rows = []
        for j in range(quads + 1):
            for i in range(quads + 1):
                rows.append("v %d %.5f %d\n" % (i, height(i - half, j - half), j))
        f.write("".join(rows))
        rows = []
        for j in range(quads):
            for i in range(quads):
                a = j * (quads + 1) + i + 1
                b, c = a + 1, a + quads + 1
                rows.append("f %d %d %d %d\n" % (a, c, c + 1, b))
        f.write("".join(rows))


def write_scene(path, obj_name, quads, spheres):
    rng = random.Random(SEED)
    half = 0.5 * quads
    side = math.ceil(math.sqrt(spheres))
    entities = [
        '{"name": "terrain", "transform": {"position": [%r, 0.0, %r]}, '
        '"collider": {"type": "mesh", "obj": "%s"}, '
        '"rigidbody": {"type": "static", "friction": 0.5, "restitution": 0.0}}' % (-half, -half, obj_name)
    ]
    for k in range(spheres):
        x = (k % side - 0.5 * (side - 1)) * SPACING + rng.uniform(-JITTER, JITTER)
        z = (k // side - 0.5 * (side - 1)) * SPACING + rng.uniform(-JITTER, JITTER)
        y = height(x, z) + RADIUS + rng.uniform(LOWEST, HIGHEST)
        entities.append(
            '{"name": "sphere_%d", "transform": {"position": [%.3f, %.3f, %.3f]}, '
            '"collider": {"type": "sphere", "radius": %r}, '
            '"rigidbody": {"type": "dynamic", "mass": 1.0, "friction": 0.5, "restitution": 0.0}}'
            % (k, x, y, z, RADIUS))
    with open(path, "w") as f:
        f.write('{\n  "name": "terrain_rain",\n  "gravity": [0.0, -9.81, 0.0],\n'
                '  "dt": 0.016666666666666666,\n  "steps": %d,\n'
                '  "solver": {"iterations": 10, "substeps": 1},\n  "entities": [\n    ' % STEPS)
        f.write(",\n    ".join(entities))
        f.write("\n  ]\n}\n")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("folder")
    parser.add_argument("--quads", type=int, default=708, help="quads along each side (default 708)")
    parser.add_argument("--spheres", type=int, default=4096, help="spheres (default 4096)")
    args = parser.parse_args()
    if args.quads < 1 or args.spheres < 0:
        parser.error("--quads must be >= 1 and --spheres >= 0")
    if math.ceil(math.sqrt(args.spheres)) * SPACING > args.quads:
        parser.error("the spheres' grid is wider than the terrain")
    os.makedirs(args.folder, exist_ok=True)
    write_obj(os.path.join(args.folder, "terrain_rain.obj"), args.quads)
    write_scene(os.path.join(args.folder, "terrain_rain.json"), "terrain_rain.obj", args.quads, args.spheres)


if __name__ == "__main__":
    main()
