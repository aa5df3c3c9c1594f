/* The deterministic sine, cosine and arc tangent (src/common/det_math.c)
 * against the C library's on many arguments (a few units in the last place
 * of a double), their special values, and the rule they exist for: the
 * simulation and the loader call no transcendental function of the C
 * library (docs/determinism.md). */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "common/det_math.h"
#include "test_helpers.h"

#define PI 3.14159265358979323846

/* units in the last place of b between a and b */
static double ulps(double a, double b)
{
    if (a == b) return 0.0;
    double spacing = nextafter(fabs(b), INFINITY) - fabs(b);
    return fabs(a - b) / spacing;
}

Test(det_math, sine_and_cosine_are_within_a_few_ulps_of_the_c_library)
{
    vx_test_rng r = {0x5151u};
    double worst_sin = 0.0, worst_cos = 0.0;
    for (int i = 0; i < 200000; i++) {
        /* mostly the angles a step meets, some far out */
        double x = i % 10 == 0 ? (double)vx_test_rng_range(&r, -4.0e5f, 4.0e5f) : (double)vx_test_rng_range(&r, -20.0f, 20.0f);
        double s = vx_det_sin(x), c = vx_det_cos(x);
        /* near a zero of the function ulps blow up: compare absolutely there */
        worst_sin = fmax(worst_sin, fabs(sin(x)) > 1e-3 ? ulps(s, sin(x)) : fabs(s - sin(x)) / 1e-19);
        worst_cos = fmax(worst_cos, fabs(cos(x)) > 1e-3 ? ulps(c, cos(x)) : fabs(c - cos(x)) / 1e-19);
    }
    cr_log_info("worst: sin %.2f ulp, cos %.2f ulp", worst_sin, worst_cos);
    cr_assert_leq(worst_sin, 4.0, "sin off by %.2f ulp", worst_sin);
    cr_assert_leq(worst_cos, 4.0, "cos off by %.2f ulp", worst_cos);
    /* small arguments: sin x = x to the last bit, cos x = 1 */
    cr_assert_eq(vx_det_sin(1e-9), 1e-9);
    cr_assert_eq(vx_det_cos(1e-9), 1.0);
    cr_assert_eq(vx_det_sin(0.0), 0.0);
    cr_assert(isnan(vx_det_sin(INFINITY)) && isnan(vx_det_cos(NAN)));
}

Test(det_math, arc_tangent_is_within_a_few_ulps_in_every_quadrant)
{
    vx_test_rng r = {0xa7a2u};
    double worst = 0.0;
    for (int i = 0; i < 200000; i++) {
        double y = (double)vx_test_rng_range(&r, -10.0f, 10.0f), x = (double)vx_test_rng_range(&r, -10.0f, 10.0f);
        if (i % 7 == 0) y *= 1e-6;
        if (i % 11 == 0) x *= 1e-6;
        double want = atan2(y, x);
        worst = fmax(worst, fabs(want) > 1e-3 ? ulps(vx_det_atan2(y, x), want)
                                              : fabs(vx_det_atan2(y, x) - want) / 1e-19);
    }
    cr_log_info("worst: atan2 %.2f ulp", worst);
    cr_assert_leq(worst, 4.0, "atan2 off by %.2f ulp", worst);
    /* the special values atan2 defines */
    const double zeros[4][3] = {{0.0, 0.0, 0.0}, {-0.0, 0.0, -0.0}, {0.0, -0.0, PI}, {-0.0, -0.0, -PI}};
    for (int i = 0; i < 4; i++) {
        double got = vx_det_atan2(zeros[i][0], zeros[i][1]);
        cr_assert(got == zeros[i][2] && signbit(got) == signbit(zeros[i][2]), "atan2(%g, %g) = %g", zeros[i][0],
                  zeros[i][1], got);
    }
    cr_assert_float_eq(vx_det_atan2(1.0, 0.0), PI / 2.0, 1e-16);
    cr_assert_float_eq(vx_det_atan2(-1.0, 0.0), -PI / 2.0, 1e-16);
    cr_assert_float_eq(vx_det_atan2(INFINITY, INFINITY), PI / 4.0, 1e-16);
    cr_assert_float_eq(vx_det_atan2(1.0, -INFINITY), PI, 1e-16);
    cr_assert(isnan(vx_det_atan2(NAN, 1.0)));
    cr_assert_eq(vx_det_atan2f(1.0f, 1.0f), (float)(PI / 4.0));
}

/* No source file of the engine, the loader or the program calls sin, cos,
 * tan, exp, log, pow, the arc functions, the hyperbolic ones or their float
 * forms (sqrt, floor and fmod are exactly rounded and stay). */
Test(det_math, the_sources_call_no_transcendental_function_of_the_c_library)
{
#define CALL "'(^|[^a-z_.>])(a?(sin|cos|tan)h?|atan2|exp|exp2|expm1|log|log2|log10|log1p|pow|cbrt|hypot)f? *\\('"
    /* comments taken out first: lines of block comments, then comments after code */
    FILE *p = popen("grep -rnE " CALL " '" VOLTEX_SOURCE_DIR "/src' --include='*.c' --include='*.h'"
                    " | grep -v 'src/common/det_math' | grep -vE ':[0-9]+: *(/?\\*|//)'"
                    " | sed -E 's#/\\*.*\\*/##; s#//.*##' | grep -E " CALL,
                    "r");
    cr_assert_not_null(p);
    char found[4096] = "";
    size_t n = fread(found, 1, sizeof found - 1, p);
    found[n] = '\0';
    pclose(p);
    cr_assert_eq(n, 0u, "calls into the C library's transcendental functions:\n%s", found);
}
