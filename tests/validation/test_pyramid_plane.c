/* Validation over a long run: a pyramid one box deep stays in its plane.
 * The out-of-plane tilt of such walls used to grow from rounding-size seeds
 * until they fell (docs/benchmarks.md, "After patch friction"); these are
 * the settings at which it holds today, run for 2000 steps (33 s) so that
 * growth would show: pyramid_20 at its own settings (1 substep, 10
 * iterations), pyramid_40 with 4 substeps of one iteration and no position
 * passes. Under the address sanitizer the runs are shorter. */
#include <criterion/criterion.h>

#include "test_helpers.h"
#include "test_validation.h"

TestSuite(validation, .fini = vx_validation_fini);

#if defined(VX_TEST_ASAN)
#define PLANE_STEPS 300
#else
#define PLANE_STEPS 2000
#endif

/* The largest |z| move of a dynamic body now (every box starts at z = 0). */
static double out_of_plane(const vx_validation *v)
{
    double worst = 0.0;
    for (size_t i = 0; i < v->scene.entity_count; i++)
        if (vx_validation_is_dynamic(v, i))
            worst = fmax(worst, fabs((double)v->now[i].p.z - (double)v->start[i].p.z));
    return worst;
}

/* Runs PLANE_STEPS steps; every box within 1 cm of its plane all along, and
 * the second half of the run no further out than the first half's worst
 * plus 5 mm (no growth). */
static void assert_stays_in_plane(vx_validation *v, const char *name)
{
    double first_half = 0.0, second_half = 0.0;
    int64_t worst_step = 0;
    for (int k = 0; k < PLANE_STEPS; k++) {
        vx_validation_step(v);
        double z = out_of_plane(v);
        if (k < PLANE_STEPS / 2) {
            if (z > first_half) worst_step = v->steps_done;
            first_half = fmax(first_half, z);
        } else {
            if (z > second_half && z > first_half) worst_step = v->steps_done;
            second_half = fmax(second_half, z);
        }
    }
    cr_log_info("%s: out of plane at most %.4f m in the first %d steps, %.4f m in the next", name, first_half,
                PLANE_STEPS / 2, second_half);
    cr_assert_lt(fmax(first_half, second_half), 0.01, "%s: %.4f m out of its plane at step %lld, limit 0.01 m", name,
                 fmax(first_half, second_half), (long long)worst_step);
    cr_assert_leq(second_half, first_half + 0.005, "%s: the tilt grows: %.4f m, then %.4f m", name, first_half,
                  second_half);
}

Test(validation, pyramid_20_stays_in_its_plane_at_its_settings, .timeout = 240)
{
    vx_validation *v = vx_validation_open("bench/pyramid_20");
    assert_stays_in_plane(v, "pyramid_20");
}

Test(validation, pyramid_40_stays_in_its_plane_with_4_substeps, .timeout = 240)
{
    vx_validation *v = vx_validation_open("bench/pyramid_40");
    vx_world_def def = *vx_world_get_def(v->scene.world);
    def.substeps = 4;
    def.iterations = 1;
    def.position_iterations = 0;
    vx_error err;
    cr_assert_eq(vx_world_set_def(v->scene.world, &def, &err), VX_OK, "%s", err.message);
    assert_stays_in_plane(v, "pyramid_40");
}
