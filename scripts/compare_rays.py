#!/usr/bin/env python3
"""Compares two ray dumps ("ray entity distance" per line, entity -1 for a
miss) of bench/bench_rays and peer_bullet --rays on the same rays.

    scripts/compare_rays.py A.txt B.txt [--tolerance 1e-3]

Prints how many rays agree on hit or miss, how many hit the same entity,
and of those how many have distances within the tolerance (m), with the
largest distance difference. Exit 2 when the files do not hold the same rays."""
import argparse
import sys


def read(path):
    rows = []
    with open(path) as f:
        for number, line in enumerate(f, 1):
            parts = line.split()
            if len(parts) != 3 or int(parts[0]) != number - 1:
                sys.exit(f"compare_rays.py: {path}:{number}: expected 'ray entity distance' for ray {number - 1}")
            rows.append((int(parts[1]), float(parts[2])))
    return rows


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("a")
    ap.add_argument("b")
    ap.add_argument("--tolerance", type=float, default=1e-3, help="m (default 1e-3)")
    args = ap.parse_args()
    a, b = read(args.a), read(args.b)
    if len(a) != len(b):
        print(f"compare_rays.py: {len(a)} rays against {len(b)}", file=sys.stderr)
        return 2
    n = len(a)
    same_hit_miss = same_entity = close = both_hit = 0
    worst = 0.0
    for (ea, da), (eb, db) in zip(a, b):
        if (ea >= 0) == (eb >= 0):
            same_hit_miss += 1
        if ea >= 0 and eb >= 0:
            both_hit += 1
            if ea == eb:
                same_entity += 1
                diff = abs(da - db)
                worst = max(worst, diff)
                if diff <= args.tolerance:
                    close += 1

    def pct(k, of):
        return 100.0 * k / of if of else 0.0

    hits_a = sum(1 for e, _ in a if e >= 0)
    hits_b = sum(1 for e, _ in b if e >= 0)
    print(f"rays {n}: hits {hits_a} / {hits_b}")
    print(f"same hit/miss: {same_hit_miss} ({pct(same_hit_miss, n):.2f} %)")
    print(f"both hit: {both_hit}; same entity: {same_entity} ({pct(same_entity, both_hit):.2f} % of both hit)")
    print(f"same entity, distance within {args.tolerance:g} m: {close} ({pct(close, same_entity):.2f} % of same entity)"
          f"; largest difference {worst:.3g} m")
    agree = sum(1 for (ea, da), (eb, db) in zip(a, b)
                if (ea < 0 and eb < 0) or (ea >= 0 and ea == eb and abs(da - db) <= args.tolerance))
    print(f"agree (both miss, or same entity within {args.tolerance:g} m): {agree} ({pct(agree, n):.2f} %)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
