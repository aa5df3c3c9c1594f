/* The longest step a scene may take (VX_MAX_DT, docs/simulation.md, "High
 * speeds and long steps"): at it, a pile in a bin (validation/mixed_pile)
 * and a stack of ten boxes (bench/stack_10) keep every body above their
 * static floor for 10 s, and the pile inside its static walls. Past it the
 * scene is refused (tests/cli/test_limits.c). */
#include <criterion/criterion.h>

#include "test_validation.h"
#include "voltex/limits.h"

TestSuite(validation, .fini = vx_validation_fini);

/* Loads scenes/NAME.json at dt = VX_MAX_DT and runs 10 s; every dynamic
 * body's centre stays above the top of the static box `floor` and, with
 * walls, within the floor's sides. */
static void holds_at_the_longest_step(const char *name, const char *floor_name, bool walled)
{
    vx_validation *v = &vx_validation_current;
    memset(v, 0, sizeof *v);
    char path[512];
    snprintf(path, sizeof path, VX_VALIDATION_SCENES "%s.json", name);
    vx_error err;
    cr_assert_eq(vx_scene_load_file(path, &v->scene, &err), VX_OK, "%s", err.message);
    vx_world_def def = *vx_world_get_def(v->scene.world);
    def.fixed_dt = VX_MAX_DT;
    cr_assert_eq(vx_world_set_def(v->scene.world, &def, &err), VX_OK, "%s", err.message);
    size_t n = v->scene.entity_count;
    v->start = calloc(n, sizeof *v->start);
    v->now = calloc(n, sizeof *v->now);
    cr_assert(v->start && v->now);
    vx_trace_snapshot(v->scene.world, v->scene.entities, n, v->start);
    size_t floor = vx_validation_entity(v, floor_name);
    vx_vec3 half = vx_validation_collider(v, floor)->half_extents;
    vx_vec3 centre = v->start[floor].p;
    float top = centre.y + half.y;
    for (int64_t k = 0; k < (int64_t)(10.0f / VX_MAX_DT); k++) {
        vx_validation_step(v);
        for (size_t i = 0; i < n; i++) {
            if (!vx_validation_is_dynamic(v, i)) continue;
            vx_vec3 p = v->now[i].p;
            cr_assert_gt(p.y, top, "%s, step %lld: %s is at y = %g, the floor's top at %g", name,
                         (long long)v->steps_done, v->scene.names[i], (double)p.y, (double)top);
            if (walled)
                cr_assert(fabsf(p.x - centre.x) < half.x && fabsf(p.z - centre.z) < half.z,
                          "%s, step %lld: %s left the bin, at (%g, %g)", name, (long long)v->steps_done,
                          v->scene.names[i], (double)p.x, (double)p.z);
        }
    }
}

Test(validation, a_pile_in_a_bin_holds_at_the_longest_step) { holds_at_the_longest_step("validation/mixed_pile", "floor", true); }

Test(validation, a_stack_holds_at_the_longest_step) { holds_at_the_longest_step("bench/stack_10", "ground", false); }
