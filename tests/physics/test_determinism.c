/* Determinism of vx_step: a mixed pile of boxes, spheres
 * and capsules, with a ramp, a kinematic paddle and a sensor, stepped in two
 * worlds that hold the same entities but whose components were added in
 * opposite orders (so every ECS query walks them differently): the bodies
 * and the contact reports agree byte for byte after every step. */
#include <criterion/criterion.h>
#include <math.h>
#include <string.h>

#include "test_helpers.h"
#include "voltex/physics.h"

enum { BODIES = 18 };

typedef struct {
    vx_transform transform;
    bool has_collider;
    vx_collider collider;
    bool has_body;
    vx_rigidbody body;
} entity_def;

static void define_scene(entity_def defs[BODIES])
{
    memset(defs, 0, BODIES * sizeof defs[0]);
    vx_test_rng rng = {12345u};
    for (int i = 0; i < BODIES; i++) {
        entity_def *d = &defs[i];
        d->transform = vx_transform_identity();
        d->has_collider = true;
        d->has_body = true;
        if (i == 0) { /* floor: a collider without a rigid body */
            d->transform.position = vx_vec3_make(0.0f, -1.0f, 0.0f);
            d->collider = vx_collider_box(vx_vec3_make(6.0f, 1.0f, 6.0f));
            d->has_body = false;
            continue;
        }
        if (i == 1) { /* ramp */
            d->transform.position = vx_vec3_make(-2.0f, 0.5f, 0.0f);
            d->transform.rotation = vx_quat_from_axis_angle(vx_vec3_make(0.0f, 0.0f, 1.0f), 0.35f);
            d->collider = vx_collider_box(vx_vec3_make(2.0f, 0.2f, 1.5f));
            d->body = vx_rigidbody_static();
            continue;
        }
        if (i == 2) { /* kinematic paddle sweeping through the pile */
            d->transform.position = vx_vec3_make(3.0f, 0.4f, -2.0f);
            d->collider = vx_collider_box(vx_vec3_make(0.2f, 0.4f, 1.0f));
            d->body = vx_rigidbody_kinematic();
            d->body.velocity = vx_vec3_make(-1.0f, 0.0f, 0.5f);
            d->body.angular_velocity = vx_vec3_make(0.0f, 0.8f, 0.0f);
            continue;
        }
        if (i == 3) { /* a sensor zone on the floor */
            d->transform.position = vx_vec3_make(1.0f, 0.5f, 1.0f);
            d->collider = vx_collider_box(vx_vec3_make(1.0f, 0.5f, 1.0f));
            d->collider.sensor = true;
            d->has_body = false;
            continue;
        }
        d->transform.position = vx_vec3_make(vx_test_rng_range(&rng, -2.5f, 2.5f), 1.0f + 0.9f * (float)i,
                                             vx_test_rng_range(&rng, -2.5f, 2.5f));
        vx_vec3 axis = vx_vec3_normalize(vx_vec3_make(vx_test_rng_range(&rng, -1.0f, 1.0f),
                                                      vx_test_rng_range(&rng, -1.0f, 1.0f), 0.5f));
        d->transform.rotation = vx_quat_from_axis_angle(axis, vx_test_rng_range(&rng, 0.0f, 3.0f));
        switch (i % 3) {
        case 0: d->collider = vx_collider_box(vx_vec3_make(0.3f, 0.2f, 0.25f)); break;
        case 1: d->collider = vx_collider_sphere(vx_test_rng_range(&rng, 0.15f, 0.35f)); break;
        default: d->collider = vx_collider_capsule(0.15f, vx_test_rng_range(&rng, 0.1f, 0.4f)); break;
        }
        d->body = vx_rigidbody_dynamic(vx_test_rng_range(&rng, 0.5f, 2.0f));
        d->body.friction = vx_test_rng_range(&rng, 0.2f, 0.8f);
        d->body.restitution = vx_test_rng_range(&rng, 0.0f, 0.6f);
        d->body.velocity = vx_vec3_make(vx_test_rng_range(&rng, -1.0f, 1.0f), 0.0f, vx_test_rng_range(&rng, -1.0f, 1.0f));
        d->body.angular_velocity = vx_vec3_make(vx_test_rng_range(&rng, -2.0f, 2.0f), 0.0f, 0.0f);
        d->body.lock_rotation = i == 7;
        d->body.linear_damping = i == 8 ? 0.2f : 0.0f;
    }
}

/* All entities are spawned first (the same indices in both worlds), then
 * the components are added, first entity first or last entity first. */
static vx_registry *build(const entity_def defs[BODIES], bool reverse, vx_entity out[BODIES])
{
    vx_registry *w = vx_test_physics_world();
    for (int i = 0; i < BODIES; i++) cr_assert_eq(vx_registry_spawn(w, &out[i]), VX_OK);
    for (int n = 0; n < BODIES; n++) {
        int i = reverse ? BODIES - 1 - n : n;
        const entity_def *d = &defs[i];
        cr_assert_eq(vx_registry_add(w, out[i], VX_COMPONENT_TRANSFORM, &d->transform), VX_OK);
    }
    for (int n = 0; n < BODIES; n++) {
        int i = reverse ? BODIES - 1 - n : n;
        const entity_def *d = &defs[i];
        if (d->has_body) cr_assert_eq(vx_registry_add(w, out[i], VX_COMPONENT_RIGIDBODY, &d->body), VX_OK);
        if (d->has_collider) cr_assert_eq(vx_registry_add(w, out[i], VX_COMPONENT_COLLIDER, &d->collider), VX_OK);
    }
    return w;
}

Test(physics_determinism, component_order_does_not_change_a_single_bit)
{
    entity_def defs[BODIES];
    define_scene(defs);
    vx_entity ea[BODIES], eb[BODIES];
    vx_registry *wa = build(defs, false, ea);
    vx_registry *wb = build(defs, true, eb);
    vx_test_stepper sa, sb;
    vx_test_stepper_init(&sa);
    vx_test_stepper_init(&sb);
    size_t contacts = 0, sensor_contacts = 0;
    for (int k = 1; k <= 240; k++) {
        vx_test_step(wa, &sa);
        vx_test_step(wb, &sb);
        for (int i = 0; i < BODIES; i++) {
            cr_assert(vx_entity_equal(ea[i], eb[i]));
            const vx_transform *ta = vx_test_transform(wa, ea[i]), *tb = vx_test_transform(wb, eb[i]);
            cr_assert(memcmp(ta, tb, sizeof *ta) == 0, "step %d: entity %d pose differs", k, i);
            cr_assert(vx_vec3_is_finite(ta->position) && vx_quat_is_finite(ta->rotation));
            if (!defs[i].has_body) continue;
            const vx_rigidbody *ra = vx_test_body(wa, ea[i]), *rb = vx_test_body(wb, eb[i]);
            cr_assert(memcmp(ra, rb, sizeof *ra) == 0, "step %d: entity %d body differs", k, i);
        }
        cr_assert_eq(sa.report.count, sb.report.count, "step %d", k);
        for (size_t c = 0; c < sa.report.count; c++) {
            cr_assert(memcmp(&sa.report.items[c], &sb.report.items[c], sizeof(vx_contact)) == 0,
                      "step %d: contact %zu differs", k, c);
            sensor_contacts += sa.report.items[c].sensor;
        }
        contacts += sa.report.count;
    }
    /* the scene did what it is for: plenty of contacts, the sensor saw some */
    cr_assert_gt(contacts, 1000);
    cr_assert_gt(sensor_contacts, 0);
    vx_test_stepper_free(&sa);
    vx_test_stepper_free(&sb);
    vx_registry_destroy(wa);
    vx_registry_destroy(wb);
}

/* The same world stepped with a fresh scratch after a first run gives the
 * same run again: no state hides outside the world and the scratch. */
Test(physics_determinism, a_second_run_repeats_the_first)
{
    entity_def defs[BODIES];
    define_scene(defs);
    vx_entity e1[BODIES], e2[BODIES];
    vx_transform first[BODIES];
    for (int run = 0; run < 2; run++) {
        vx_registry *w = build(defs, false, run == 0 ? e1 : e2);
        vx_test_stepper s;
        vx_test_stepper_init(&s);
        for (int k = 0; k < 150; k++) vx_test_step(w, &s);
        for (int i = 0; i < BODIES; i++) {
            const vx_transform *t = vx_test_transform(w, run == 0 ? e1[i] : e2[i]);
            if (run == 0)
                first[i] = *t;
            else
                cr_assert(memcmp(&first[i], t, sizeof *t) == 0, "entity %d differs between runs", i);
        }
        vx_test_stepper_free(&s);
        vx_registry_destroy(w);
    }
}
