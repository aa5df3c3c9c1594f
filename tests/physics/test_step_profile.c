/* The per-stage profile of vx_step (--stats, docs/cli.md): profiling
 * only reads the clock between stages, so a profiled run is the same run bit
 * for bit; its stage times are filled in, an unprofiled run's are zero. */
#include <criterion/criterion.h>
#include <string.h>

#include "test_helpers.h"
#include "voltex/physics.h"

enum { ROWS = 5, BOXES = ROWS * (ROWS + 1) / 2 };

/* A floor and a 5-row pyramid of unit boxes, slightly offset so it settles. */
static vx_registry *pyramid(vx_entity boxes[BOXES])
{
    vx_registry *w = vx_test_physics_world();
    vx_entity floor;
    cr_assert_eq(vx_registry_spawn(w, &floor), VX_OK);
    vx_transform t = vx_transform_identity();
    t.position = vx_vec3_make(0.0f, -0.5f, 0.0f);
    vx_collider ground = vx_collider_box(vx_vec3_make(20.0f, 0.5f, 20.0f));
    cr_assert_eq(vx_registry_add(w, floor, VX_COMPONENT_TRANSFORM, &t), VX_OK);
    cr_assert_eq(vx_registry_add(w, floor, VX_COMPONENT_COLLIDER, &ground), VX_OK);
    int n = 0;
    for (int row = 0; row < ROWS; row++) {
        for (int i = 0; i < ROWS - row; i++) {
            vx_transform bt = vx_transform_identity();
            bt.position = vx_vec3_make((float)i - 0.5f * (float)(ROWS - row - 1) + 0.01f * (float)row,
                                       0.5f + (float)row, 0.0f);
            vx_collider box = vx_collider_box(vx_vec3_make(0.5f, 0.5f, 0.5f));
            vx_rigidbody body = vx_rigidbody_dynamic(1.0f);
            cr_assert_eq(vx_registry_spawn(w, &boxes[n]), VX_OK);
            cr_assert_eq(vx_registry_add(w, boxes[n], VX_COMPONENT_TRANSFORM, &bt), VX_OK);
            cr_assert_eq(vx_registry_add(w, boxes[n], VX_COMPONENT_COLLIDER, &box), VX_OK);
            cr_assert_eq(vx_registry_add(w, boxes[n], VX_COMPONENT_RIGIDBODY, &body), VX_OK);
            n++;
        }
    }
    return w;
}

Test(physics_profile, profiling_changes_no_bit_and_measures_every_stage)
{
    vx_entity ea[BOXES], eb[BOXES];
    vx_registry *wa = pyramid(ea);
    vx_registry *wb = pyramid(eb);
    vx_test_stepper sa, sb;
    vx_test_stepper_init(&sa);
    vx_test_stepper_init(&sb);
    vx_step_profile(&sb.state, true);
    vx_stage_times zero, sum;
    memset(&zero, 0, sizeof zero);
    memset(&sum, 0, sizeof sum);
    for (int k = 1; k <= 60; k++) {
        vx_test_step(wa, &sa);
        vx_test_step(wb, &sb);
        for (int i = 0; i < BOXES; i++) {
            cr_assert(memcmp(vx_test_transform(wa, ea[i]), vx_test_transform(wb, eb[i]), sizeof(vx_transform)) == 0,
                      "step %d: box %d pose differs", k, i);
            cr_assert(memcmp(vx_test_body(wa, ea[i]), vx_test_body(wb, eb[i]), sizeof(vx_rigidbody)) == 0,
                      "step %d: box %d body differs", k, i);
        }
        cr_assert_eq(sa.report.count, sb.report.count, "step %d", k);
        cr_assert(memcmp(sa.report.items, sb.report.items, sa.report.count * sizeof(vx_contact)) == 0, "step %d", k);

        vx_stage_times off = vx_step_stage_times(&sa.state);
        cr_assert(memcmp(&off, &zero, sizeof off) == 0, "unprofiled step %d has stage times", k);
        vx_stage_times on = vx_step_stage_times(&sb.state);
        cr_assert(on.broad >= 0.0 && on.narrow >= 0.0 && on.solver >= 0.0 && on.integrate >= 0.0 && on.other >= 0.0);
        sum.broad += on.broad;
        sum.narrow += on.narrow;
        sum.solver += on.solver;
        sum.integrate += on.integrate;
        sum.other += on.other;
    }
    /* Every stage ran 60 times (15 boxes in contact): each took some time,
     * none an absurd amount (a minute would be a unit error). */
    cr_assert(sum.broad > 0.0 && sum.narrow > 0.0 && sum.solver > 0.0 && sum.integrate > 0.0 && sum.other > 0.0,
              "%g %g %g %g %g", sum.broad, sum.narrow, sum.solver, sum.integrate, sum.other);
    cr_assert_lt(sum.broad + sum.narrow + sum.solver + sum.integrate + sum.other, 60.0);
    cr_assert_gt(sa.report.count, (size_t)(4 * BOXES), "the pyramid rests on its contacts");

    /* Switched off again: the next step reports zeros. */
    vx_step_profile(&sb.state, false);
    vx_test_step(wb, &sb);
    vx_stage_times after = vx_step_stage_times(&sb.state);
    cr_assert(memcmp(&after, &zero, sizeof after) == 0);
    vx_test_stepper_free(&sa);
    vx_test_stepper_free(&sb);
    vx_registry_destroy(wa);
    vx_registry_destroy(wb);
}
