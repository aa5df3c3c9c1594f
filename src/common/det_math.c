/* Deterministic sine, cosine and arc tangent (det_math.h): argument
 * reduction by pi/2 in three parts (Cody and Waite), then Taylor series on
 * [-pi/4, pi/4] (sine and cosine) or on [0, tan(pi/16)] after two halvings
 * of the angle (arc tangent), evaluated by Horner's rule. The series are
 * cut where the next term is below 1e-24 of the result. */
#include "common/det_math.h"

#include <math.h>

/* pi / 2 = C1 + C2 + C3: C1 and C2 carry 33 bits each, so k * C1 and
 * k * C2 are exact for |k| < 2^20. */
#define VX_PI_2_C1 1.5707963267341256
#define VX_PI_2_C2 6.077100506303966e-11
#define VX_PI_2_C3 2.0222662487959506e-21
#define VX_TWO_OVER_PI 0.6366197723675814
#define VX_PI 3.141592653589793
#define VX_PI_2 1.5707963267948966
#define VX_TWO_PI 6.283185307179586
/* beyond this |x| the quadrant count would not fit C1's spare bits: x is
 * first taken modulo the double nearest 2 pi (fmod is exact) */
#define VX_REDUCE_LIMIT 500000.0

/* sin(r) for |r| <= pi/4 (a little more is fine): r + r^3 (-1/3! + r^2 (1/5! ...)) */
static double sin_kernel(double r)
{
    static const double c[] = {-0.16666666666666666,   0.008333333333333333,   -0.0001984126984126984,
                               2.7557319223985893e-06, -2.505210838544172e-08, 1.6059043836821613e-10,
                               -7.647163731819816e-13, 2.8114572543455206e-15, -8.22063524662433e-18,
                               1.9572941063391263e-20};
    double r2 = r * r, p = 0.0;
    for (int k = (int)(sizeof c / sizeof c[0]) - 1; k >= 0; k--) p = c[k] + r2 * p;
    return r + r * r2 * p;
}

/* cos(r) for |r| <= pi/4: 1 + r^2 (-1/2! + r^2 (1/4! ...)) */
static double cos_kernel(double r)
{
    static const double c[] = {-0.5,
                               0.041666666666666664,
                               -0.001388888888888889,
                               2.48015873015873e-05,
                               -2.755731922398589e-07,
                               2.08767569878681e-09,
                               -1.1470745597729725e-11,
                               4.779477332387385e-14,
                               -1.5619206968586225e-16,
                               4.110317623312165e-19,
                               -8.896791392450574e-22};
    double r2 = r * r, p = 0.0;
    for (int k = (int)(sizeof c / sizeof c[0]) - 1; k >= 0; k--) p = c[k] + r2 * p;
    return 1.0 + r2 * p;
}

/* x = quadrant * pi/2 + *r with |*r| <= about pi/4; the quadrant modulo 4. */
static int reduce(double x, double *r)
{
    if (fabs(x) > VX_REDUCE_LIMIT) x = fmod(x, VX_TWO_PI);
    double k = floor(x * VX_TWO_OVER_PI + 0.5);
    *r = ((x - k * VX_PI_2_C1) - k * VX_PI_2_C2) - k * VX_PI_2_C3;
    return (int)(fmod(k, 4.0) + 4.0) & 3;
}

double vx_det_sin(double x)
{
    if (!isfinite(x)) return x - x; /* NaN */
    double r;
    switch (reduce(x, &r)) {
    case 0: return sin_kernel(r);
    case 1: return cos_kernel(r);
    case 2: return -sin_kernel(r);
    default: return -cos_kernel(r);
    }
}

double vx_det_cos(double x)
{
    if (!isfinite(x)) return x - x;
    double r;
    switch (reduce(x, &r)) {
    case 0: return cos_kernel(r);
    case 1: return -sin_kernel(r);
    case 2: return -cos_kernel(r);
    default: return sin_kernel(r);
    }
}

/* atan(t) for 0 <= t <= 1: twice atan(t) = 2 atan(t / (1 + sqrt(1 + t^2))),
 * which brings t under tan(pi/16) = 0.199, then the series
 * t - t^3/3 + t^5/5 ... */
static double atan_unit(double t)
{
    static const double c[] = {-0.3333333333333333,  0.2,
                               -0.14285714285714285, 0.1111111111111111,
                               -0.09090909090909091, 0.07692307692307693,
                               -0.06666666666666667, 0.058823529411764705,
                               -0.05263157894736842, 0.047619047619047616,
                               -0.043478260869565216, 0.04,
                               -0.037037037037037035, 0.034482758620689655,
                               -0.03225806451612903};
    for (int i = 0; i < 2; i++) t = t / (1.0 + sqrt(1.0 + t * t));
    double t2 = t * t, p = 0.0;
    for (int k = (int)(sizeof c / sizeof c[0]) - 1; k >= 0; k--) p = c[k] + t2 * p;
    return 4.0 * (t + t * t2 * p);
}

double vx_det_atan2(double y, double x)
{
    if (isnan(x) || isnan(y)) return x + y;
    double ay = fabs(y), ax = fabs(x), angle;
    if (ay == 0.0 && ax == 0.0) {
        angle = 0.0;
    } else if (isinf(ay) || isinf(ax)) {
        /* the limits atan2 gives: an infinite side wins */
        angle = isinf(ay) && isinf(ax) ? 0.5 * VX_PI_2 : (isinf(ay) ? VX_PI_2 : 0.0);
    } else if (ay <= ax) {
        angle = atan_unit(ay / ax);
    } else {
        angle = VX_PI_2 - atan_unit(ax / ay);
    }
    if (signbit(x)) angle = VX_PI - angle;
    return signbit(y) ? -angle : angle;
}
