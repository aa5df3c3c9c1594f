/* Rigid-body constructors, mass rules and engine defaults (design spec
 * Phase 5-2, test plan of rigid_body.rs). */
#include <criterion/criterion.h>
#include <string.h>

#include "test_helpers.h"
#include "voltex/physics.h"
#include "voltex/reference.h"

Test(rigidbody, dynamic_defaults_and_inv_mass)
{
    vx_rigidbody rb = vx_rigidbody_dynamic(2.0f);
    cr_assert_eq(rb.type, VX_BODY_DYNAMIC);
    cr_assert_eq(rb.mass, 2.0f);
    cr_assert_not(vx_rigidbody_is_static(&rb));
    cr_assert_eq(vx_rigidbody_inv_mass(&rb), 0.5f); /* 1/2 is exact in binary */
    VX_ASSERT_VEC3_NEAR(rb.velocity, 0.0f, 0.0f, 0.0f, 0.0);
    VX_ASSERT_VEC3_NEAR(rb.angular_velocity, 0.0f, 0.0f, 0.0f, 0.0);
    cr_assert_eq(rb.restitution, 0.3f);
    cr_assert_eq(rb.friction, 0.5f);
    cr_assert_eq(rb.gravity_scale, 1.0f);
    cr_assert_eq(rb.linear_damping, 0.0f);
    cr_assert_eq(rb.angular_damping, 0.0f);
    cr_assert_not(rb.lock_rotation);
    cr_assert(rb.can_sleep);
    cr_assert_not(rb.bullet);
}

Test(rigidbody, inv_mass_is_reciprocal)
{
    vx_rigidbody rb = vx_rigidbody_dynamic(3.0f);
    VX_ASSERT_NEAR(vx_rigidbody_inv_mass(&rb), 1.0 / 3.0, 1e-7);
    rb = vx_rigidbody_dynamic(0.25f);
    cr_assert_eq(vx_rigidbody_inv_mass(&rb), 4.0f);
}

Test(rigidbody, static_body)
{
    vx_rigidbody rb = vx_rigidbody_static();
    cr_assert_eq(rb.type, VX_BODY_STATIC);
    cr_assert_eq(rb.mass, 0.0f);
    cr_assert_eq(vx_rigidbody_inv_mass(&rb), 0.0f);
    cr_assert(vx_rigidbody_is_static(&rb));
    cr_assert_eq(rb.gravity_scale, 0.0f);
    cr_assert_eq(rb.restitution, 0.3f);
    cr_assert_eq(rb.friction, 0.5f);
    VX_ASSERT_VEC3_NEAR(rb.velocity, 0.0f, 0.0f, 0.0f, 0.0);
}

Test(rigidbody, zero_mass_dynamic_is_static)
{
    /* The spec's rule: mass == 0 means static, infinite mass. */
    vx_rigidbody rb = vx_rigidbody_dynamic(0.0f);
    cr_assert(vx_rigidbody_is_static(&rb));
    cr_assert_eq(vx_rigidbody_inv_mass(&rb), 0.0f);
}

Test(rigidbody, kinematic_body)
{
    vx_rigidbody rb = vx_rigidbody_kinematic();
    cr_assert_eq(rb.type, VX_BODY_KINEMATIC);
    cr_assert_eq(rb.mass, 0.0f);
    cr_assert_eq(rb.gravity_scale, 0.0f);
    /* Infinite mass (pushed by nothing) but it moves, so it is not static. */
    cr_assert_eq(vx_rigidbody_inv_mass(&rb), 0.0f);
    cr_assert_not(vx_rigidbody_is_static(&rb));
    /* Even with a mass set, a kinematic body is never pushed. */
    rb.mass = 5.0f;
    cr_assert_eq(vx_rigidbody_inv_mass(&rb), 0.0f);
}

/* The spec's with_restitution: the value set is the one the solver uses. A
 * 1 kg ball at 4 m/s onto a perfectly elastic static body bounces back at
 * e * 4 m/s with e = min(0.8, 1) = 0.8. */
Test(rigidbody, restitution_set_is_used)
{
    vx_rigidbody rb = vx_rigidbody_dynamic(1.0f);
    rb.restitution = 0.8f;
    cr_assert_eq(rb.restitution, 0.8f);
    cr_assert_eq(rb.mass, 1.0f); /* nothing else changed */
    cr_assert_eq(rb.gravity_scale, 1.0f);

    vx_registry *w = vx_test_physics_world();
    rb.velocity = vx_vec3_make(0.0f, -4.0f, 0.0f);
    vx_entity ball = vx_test_spawn_body(w, vx_vec3_make(0.0f, 0.0f, 0.0f), NULL, &rb);
    vx_rigidbody wall = vx_rigidbody_static();
    wall.restitution = 1.0f;
    vx_entity floor = vx_test_spawn_body(w, vx_vec3_make(0.0f, -1.0f, 0.0f), NULL, &wall);

    vx_contact c;
    memset(&c, 0, sizeof c);
    c.entity_a = ball;
    c.entity_b = floor;
    c.normal = vx_vec3_make(0.0f, -1.0f, 0.0f);
    c.depth = 0.0f;
    vx_contact_list list;
    vx_contact_list_init(&list);
    cr_assert_eq(vx_contact_list_push(&list, &c), VX_OK);
    vx_world_def cfg = vx_world_def_default();
    vx_resolve_collisions(w, &list, &cfg);
    VX_ASSERT_NEAR(vx_test_body(w, ball)->velocity.y, 3.2f, 1e-6);
    vx_contact_list_free(&list);
    vx_registry_destroy(w);
}

Test(rigidbody, physics_config_defaults)
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
    cr_assert_eq(cfg.restitution_threshold, 1.0f);
    cr_assert_eq(cfg.baumgarte_slop, 0.01f);
    cr_assert_eq(cfg.baumgarte_percent, 0.4f);
}

Test(rigidbody, solver_order_names_round_trip)
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
