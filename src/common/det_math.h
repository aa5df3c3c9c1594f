/* Sine, cosine and arc tangent written once, in plain IEEE double
 * operations (+, -, *, /, sqrt, fmod: all exactly rounded), so that every
 * platform gets the same bits: a libm's sin or atan2 may round its last
 * bit differently (glibc, musl, macOS), and a trace would then differ
 * (docs/determinism.md). Accurate to a few units in the last place of a
 * double; not meant to be fast. */
#ifndef VOLTEX_COMMON_DET_MATH_H
#define VOLTEX_COMMON_DET_MATH_H

double vx_det_sin(double x);
double vx_det_cos(double x);
/* The angle of (x, y) in [-pi, pi], as atan2(y, x); 0 for (0, 0). */
double vx_det_atan2(double y, double x);
static inline float vx_det_atan2f(float y, float x) { return (float)vx_det_atan2((double)y, (double)x); }

#endif
