#!/usr/bin/env python3
"""Writes scenes/bench/mixed_pile_bench.json: a few hundred boxes, spheres and
capsules, in random sizes and orientations, dropped into a walled area on a
floor. Deterministic: a fixed seed and Python's own generator (Mersenne
Twister, stable across Python versions), numbers rounded to 3 decimals.

    scripts/make_mixed_pile.py [OUTPUT]    (default: scenes/bench/mixed_pile_bench.json)
"""
import os
import random
import sys

SEED = 20240504
GRID = 6          # bodies per row and per column of a layer
LAYERS = 10       # GRID * GRID * LAYERS bodies
SPACING = 1.4     # m between body centres: no two bodies overlap at the start,
                  # whatever their orientation (largest half-diagonal 0.66 m)
JITTER = 0.03     # m, horizontal offset that breaks the grid's symmetry
FIRST_Y = 1.0     # m, centre height of the lowest layer
INNER = 5.0       # m, half width of the area inside the walls
WALL_HEIGHT = 5.0 # m, half height of the walls


def r3(x):
    return round(x, 3)


def vec(values):
    return "[" + ", ".join(repr(float(v)) for v in values) + "]"


def static_box(name, position, half_extents):
    return ('{"name": "%s", "transform": {"position": %s}, "collider": {"type": "box", "half_extents": %s}, '
            '"rigidbody": {"type": "static", "friction": 0.5, "restitution": 0.0}}'
            % (name, vec(position), vec(half_extents)))


def body(rng, index, position):
    kind = ("box", "sphere", "capsule")[index % 3]
    rotation = [r3(rng.uniform(-180.0, 180.0)) for _ in range(3)]
    mass = r3(rng.uniform(0.5, 2.0))
    if kind == "box":
        collider = '{"type": "box", "half_extents": %s}' % vec([r3(rng.uniform(0.25, 0.38)) for _ in range(3)])
    elif kind == "sphere":
        collider = '{"type": "sphere", "radius": %r}' % r3(rng.uniform(0.3, 0.45))
        rotation = None
    else:
        collider = '{"type": "capsule", "radius": %r, "half_height": %r}' % (
            r3(rng.uniform(0.2, 0.25)), r3(rng.uniform(0.2, 0.3)))
    transform = '{"position": %s' % vec(position)
    if rotation is not None:
        transform += ', "rotation_deg": %s' % vec(rotation)
    transform += "}"
    return ('{"name": "%s_%d", "transform": %s, "collider": %s, '
            '"rigidbody": {"type": "dynamic", "mass": %r, "friction": 0.5, "restitution": 0.1}}'
            % (kind, index, transform, collider, mass))


def main():
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(root, "scenes", "bench", "mixed_pile_bench.json")
    rng = random.Random(SEED)
    wall = INNER + 0.5
    entities = [
        static_box("ground", [0.0, -1.0, 0.0], [50.0, 1.0, 50.0]),
        static_box("wall_px", [wall, WALL_HEIGHT, 0.0], [0.5, WALL_HEIGHT, wall + 0.5]),
        static_box("wall_nx", [-wall, WALL_HEIGHT, 0.0], [0.5, WALL_HEIGHT, wall + 0.5]),
        static_box("wall_pz", [0.0, WALL_HEIGHT, wall], [INNER, WALL_HEIGHT, 0.5]),
        static_box("wall_nz", [0.0, WALL_HEIGHT, -wall], [INNER, WALL_HEIGHT, 0.5]),
    ]
    start = -(GRID - 1) * SPACING / 2.0
    index = 0
    for layer in range(LAYERS):
        for row in range(GRID):
            for col in range(GRID):
                x = r3(start + col * SPACING + rng.uniform(-JITTER, JITTER))
                z = r3(start + row * SPACING + rng.uniform(-JITTER, JITTER))
                y = r3(FIRST_Y + layer * SPACING)
                entities.append(body(rng, index, [x, y, z]))
                index += 1
    with open(out, "w", encoding="ascii") as f:
        f.write("{\n")
        f.write('  "name": "mixed_pile_bench",\n')
        f.write('  "gravity": [0.0, -9.81, 0.0],\n')
        f.write('  "dt": 0.016666666666666666,\n')
        f.write('  "steps": 600,\n')
        f.write('  "solver": {"iterations": 10, "substeps": 1},\n')
        f.write('  "entities": [\n')
        f.write(",\n".join("    " + e for e in entities))
        f.write("\n  ]\n}\n")


if __name__ == "__main__":
    main()
