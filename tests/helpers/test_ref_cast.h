/* The reference answer of a cast for the cast tests, from a distance alone:
 * the first t in [0, t_end] where f(t) (the signed distance of the moving
 * centre to the shape, less the radius) reaches 0. f is convex along a line
 * (the shape is convex), so a golden-section search finds its minimum and
 * bisection the one root before it. Casts whose f(0) or minimum lie within
 * `unsure` of 0 (touching starts, grazing rays) are left out: their answer
 * hangs on the last bits. */
#ifndef VOLTEX_TEST_REF_CAST_H
#define VOLTEX_TEST_REF_CAST_H

#include <math.h>

enum { REF_MISS, REF_INSIDE, REF_HIT, REF_UNSURE };
typedef struct {
    int kind;
    double t;
} ref_cast;

/* f(context, t): the signed distance at time t. */
typedef double (*ref_distance_fn)(const void *context, double t);

static inline ref_cast ref_cast_search(ref_distance_fn f, const void *ctx, double t_end, double unsure)
{
    ref_cast res = {REF_MISS, 0.0};
    double f0 = f(ctx, 0.0);
    if (fabs(f0) <= unsure) {
        res.kind = REF_UNSURE;
        return res;
    }
    if (f0 < 0.0) {
        res.kind = REF_INSIDE;
        return res;
    }
    const double g = (sqrt(5.0) - 1.0) / 2.0;
    double a = 0.0, b = t_end;
    double x1 = b - g * (b - a), x2 = a + g * (b - a);
    double f1 = f(ctx, x1), f2 = f(ctx, x2);
    for (int i = 0; i < 200 && b - a > 1e-15 * t_end; i++) {
        if (f1 < f2) {
            b = x2;
            x2 = x1;
            f2 = f1;
            x1 = b - g * (b - a);
            f1 = f(ctx, x1);
        } else {
            a = x1;
            x1 = x2;
            f1 = f2;
            x2 = a + g * (b - a);
            f2 = f(ctx, x2);
        }
    }
    double t_min = f1 < f2 ? x1 : x2;
    double f_min = fmin(f1, f2);
    double f_end = f(ctx, t_end);
    if (f_end < f_min) {
        t_min = t_end;
        f_min = f_end;
    }
    if (f_min > unsure) return res;
    if (f_min > -unsure) {
        res.kind = REF_UNSURE;
        return res;
    }
    double lo = 0.0, hi = t_min;
    for (int i = 0; i < 200; i++) {
        double mid = 0.5 * (lo + hi);
        if (mid <= lo || mid >= hi) break;
        if (f(ctx, mid) > 0.0) lo = mid;
        else hi = mid;
    }
    res.kind = REF_HIT;
    res.t = 0.5 * (lo + hi);
    return res;
}

#endif
