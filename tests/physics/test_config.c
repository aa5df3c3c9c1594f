/* The engine's settings (config.c): the defaults the docs promise, and the
 * names of the solve orders. */
#include <criterion/criterion.h>

#include "test_helpers.h"
#include "voltex/physics.h"

Test(config, world_def_defaults)
{
    vx_world_def cfg = vx_world_def_default();
    VX_ASSERT_VEC3_NEAR(cfg.gravity, 0.0f, -9.81f, 0.0f, 0.0);
    cr_assert_eq(cfg.fixed_dt, 1.0f / 60.0f);
    VX_ASSERT_NEAR(cfg.fixed_dt, 1.0 / 60.0, 1e-8);
    cr_assert_eq(cfg.iterations, 10);
    cr_assert_eq(cfg.substeps, 1);
    cr_assert(cfg.warm_starting);
    cr_assert_not(cfg.sleeping);
    cr_assert(cfg.reuse_contacts);
    cr_assert_eq(cfg.threads, 1);
    cr_assert_eq(cfg.order, VX_SOLVER_ORDER_SEQUENTIAL);
    cr_assert_eq(cfg.restitution, VX_RESTITUTION_SEQUENTIAL);
    cr_assert_eq(cfg.restitution_threshold, 1.0f);
    cr_assert_eq(cfg.baumgarte_slop, 0.01f);
    cr_assert_eq(cfg.baumgarte_percent, 0.4f);
}

Test(config, solver_order_names_round_trip)
{
    const vx_solver_order orders[] = {VX_SOLVER_ORDER_SEQUENTIAL, VX_SOLVER_ORDER_COLORED};
    for (int i = 0; i < 2; i++) {
        vx_solver_order back = (vx_solver_order)99;
        cr_assert(vx_solver_order_from_name(vx_solver_order_name(orders[i]), &back));
        cr_assert_eq(back, orders[i]);
    }
    cr_assert_str_eq(vx_solver_order_name(VX_SOLVER_ORDER_COLORED), "colored");
    vx_solver_order untouched = VX_SOLVER_ORDER_COLORED;
    cr_assert_not(vx_solver_order_from_name("Colored", &untouched));
    cr_assert_not(vx_solver_order_from_name("", &untouched));
    cr_assert_eq(untouched, VX_SOLVER_ORDER_COLORED);
}

Test(config, restitution_model_names_round_trip)
{
    const vx_restitution_model models[] = {VX_RESTITUTION_SEQUENTIAL, VX_RESTITUTION_SIMULTANEOUS};
    for (int i = 0; i < 2; i++) {
        vx_restitution_model back = (vx_restitution_model)99;
        cr_assert(vx_restitution_model_from_name(vx_restitution_model_name(models[i]), &back));
        cr_assert_eq(back, models[i]);
    }
    cr_assert_str_eq(vx_restitution_model_name(VX_RESTITUTION_SIMULTANEOUS), "simultaneous");
    vx_restitution_model untouched = VX_RESTITUTION_SIMULTANEOUS;
    cr_assert_not(vx_restitution_model_from_name("Sequential", &untouched));
    cr_assert_eq(untouched, VX_RESTITUTION_SIMULTANEOUS);
}
