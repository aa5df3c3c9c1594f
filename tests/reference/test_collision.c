/* The reference pipeline's collision detection over a registry, end to end
 * (reference/collision.c): gathering, static pairs skipped, shape
 * dispatch with the box-sphere flip, sensors, and the contact order. */
#include <criterion/criterion.h>
#include <string.h>

#include "test_helpers.h"
#include "voltex/physics.h"
#include "voltex/reference.h"

#define EPS 1e-5f

static vx_vec3 v3(float x, float y, float z) { return vx_vec3_make(x, y, z); }

static void assert_contact(const vx_contact *c, uint32_t a, uint32_t b, vx_vec3 n, float depth, vx_vec3 pa,
                           vx_vec3 pb, uint32_t feature, bool sensor)
{
    cr_assert_eq(c->entity_a.index, a, "entity_a %u, expected %u", c->entity_a.index, a);
    cr_assert_eq(c->entity_b.index, b, "entity_b %u, expected %u", c->entity_b.index, b);
    VX_ASSERT_VEC3_NEAR(c->normal, n.x, n.y, n.z, EPS);
    VX_ASSERT_NEAR(c->depth, depth, EPS);
    VX_ASSERT_VEC3_NEAR(c->point_on_a, pa.x, pa.y, pa.z, EPS);
    VX_ASSERT_VEC3_NEAR(c->point_on_b, pb.x, pb.y, pb.z, EPS);
    cr_assert_eq(c->feature, feature, "feature %u, expected %u", c->feature, feature);
    cr_assert_eq(c->sensor, sensor);
    cr_assert_eq(c->impulse, 0.0f);
}

Test(detect_collisions, register_components_sizes)
{
    vx_registry *w = vx_test_physics_world();
    cr_assert(vx_registry_has_component_type(w, VX_COMPONENT_TRANSFORM));
    cr_assert(vx_registry_has_component_type(w, VX_COMPONENT_COLLIDER));
    cr_assert(vx_registry_has_component_type(w, VX_COMPONENT_RIGIDBODY));
    /* A value round-trips through the world byte for byte. */
    vx_entity e;
    cr_assert_eq(vx_registry_spawn(w, &e), VX_OK);
    vx_collider c = vx_collider_box(v3(1, 2, 3));
    c.sensor = true;
    cr_assert_eq(vx_registry_add(w, e, VX_COMPONENT_COLLIDER, &c), VX_OK);
    cr_assert(memcmp(vx_registry_get(w, e, VX_COMPONENT_COLLIDER), &c, sizeof c) == 0);
    vx_rigidbody rb = vx_rigidbody_kinematic();
    cr_assert_eq(vx_registry_add(w, e, VX_COMPONENT_RIGIDBODY, &rb), VX_OK);
    cr_assert(memcmp(vx_registry_get(w, e, VX_COMPONENT_RIGIDBODY), &rb, sizeof rb) == 0);
    vx_registry_destroy(w);
}

Test(detect_collisions, mixed_scene_end_to_end)
{
    vx_registry *w = vx_test_physics_world();
    vx_rigidbody dyn = vx_rigidbody_dynamic(1.0f), stat = vx_rigidbody_static(), kin = vx_rigidbody_kinematic();
    vx_collider ball = vx_collider_sphere(0.5f);
    vx_collider floor_box = vx_collider_box(v3(10, 1, 10));
    vx_collider unit_box = vx_collider_box(v3(1, 1, 1));
    vx_collider small_box = vx_collider_box(v3(0.5f, 0.5f, 0.5f));
    vx_collider slab = vx_collider_box(v3(1, 0.25f, 1));
    vx_collider sensor = vx_collider_sphere(0.5f);
    sensor.sensor = true;
    vx_collider capsule = vx_collider_capsule(0.5f, 0.5f);

    /* 0: the floor, a static collider without a rigid body; top at y = 0. */
    vx_test_spawn_body(w, v3(0, -1, 0), &floor_box, NULL);
    /* 1: a ball sunk 0.1 into the floor. The floor (box) is entity A, the
     * ball (sphere) entity B: the sphere-box result is flipped. */
    vx_test_spawn_body(w, v3(0, 0.4f, 0), &ball, &dyn);
    /* 2, 3: a ball (A) sunk 0.15 into a static slab (B) off the floor. */
    vx_test_spawn_body(w, v3(20, 0.6f, 0), &ball, &dyn);
    vx_test_spawn_body(w, v3(20, 0, 0), &slab, &stat);
    /* 4: a static box (rigid body type static) overlapping the floor, and
     * 5: a static box without a rigid body overlapping the floor: both
     * static-static pairs, never reported. */
    vx_test_spawn_body(w, v3(5, 0.5f, 0), &unit_box, &stat);
    vx_test_spawn_body(w, v3(-5, 0, 0), &unit_box, NULL);
    /* 6: a dynamic box sunk 0.1 into box 4's top (y = 1.5). */
    vx_test_spawn_body(w, v3(5, 1.9f, 0), &small_box, &dyn);
    /* 7: a kinematic ball sunk 0.3 into box 5's top (y = 1): kinematic is
     * movable, so the pair counts. */
    vx_test_spawn_body(w, v3(-5, 1.2f, 0), &ball, &kin);
    /* 8: a dynamic sensor ball sunk 0.2 into the floor. */
    vx_test_spawn_body(w, v3(0, 0.3f, 3), &sensor, &dyn);
    /* 9: a ball resting 0.2 deep on ball 1. */
    vx_test_spawn_body(w, v3(0, 1.2f, 0), &ball, &dyn);
    /* 10: a capsule through the floor: no narrow phase yet, skipped. */
    vx_test_spawn_body(w, v3(3, 0, 3), &capsule, &dyn);
    /* 11: a collider without a transform, and 12: a body without a
     * collider, both at the floor: not collision objects. */
    vx_entity e11;
    cr_assert_eq(vx_registry_spawn(w, &e11), VX_OK);
    cr_assert_eq(vx_registry_add(w, e11, VX_COMPONENT_COLLIDER, &unit_box), VX_OK);
    cr_assert_eq(vx_registry_add(w, e11, VX_COMPONENT_RIGIDBODY, &dyn), VX_OK);
    vx_test_spawn_body(w, v3(0, -0.5f, -3), NULL, &dyn);

    vx_contact_list out;
    vx_contact_list_init(&out);
    cr_assert_eq(vx_detect_collisions(w, &out), VX_OK);
    cr_assert_eq(out.count, 6u, "%zu contacts", out.count);

    /* Floor (A) -> ball (B) is +y; point_on_a on the floor's top, point_on_b
     * the ball's lowest point. Feature: the floor's +y face region. */
    assert_contact(&out.items[0], 0, 1, v3(0, 1, 0), 0.1f, v3(0, 0, 0), v3(0, -0.1f, 0), 16u, false);
    assert_contact(&out.items[1], 0, 8, v3(0, 1, 0), 0.2f, v3(0, 0, 3), v3(0, -0.2f, 3), 16u, true);
    assert_contact(&out.items[2], 1, 9, v3(0, 1, 0), 0.2f, v3(0, 0.9f, 0), v3(0, 0.7f, 0), 0u, false);
    /* Ball (A) above the slab (B): A -> B is -y, not flipped. */
    assert_contact(&out.items[3], 2, 3, v3(0, -1, 0), 0.15f, v3(20, 0.1f, 0), v3(20, 0.25f, 0), 16u, false);
    /* Box on box: +y axis, feature 2 (axis 1, + sign). */
    assert_contact(&out.items[4], 4, 6, v3(0, 1, 0), 0.1f, v3(5, 1.5f, 0), v3(5, 1.4f, 0), 2u, false);
    assert_contact(&out.items[5], 5, 7, v3(0, 1, 0), 0.3f, v3(-5, 1, 0), v3(-5, 0.7f, 0), 16u, false);

    /* Same world, same answer, byte for byte; the list is cleared first. */
    vx_contact_list again;
    vx_contact_list_init(&again);
    vx_contact c0 = out.items[0];
    cr_assert_eq(vx_contact_list_push(&again, &c0), VX_OK);
    cr_assert_eq(vx_detect_collisions(w, &again), VX_OK);
    cr_assert_eq(again.count, out.count);
    cr_assert(memcmp(again.items, out.items, out.count * sizeof *out.items) == 0);

    vx_contact_list_free(&again);
    vx_contact_list_free(&out);
    vx_registry_destroy(w);
}

Test(detect_collisions, box_sphere_flip_keeps_the_geometry)
{
    /* The same box and sphere, once with the sphere spawned first (sphere is
     * A) and once with the box first (sphere is B): the second contact is the
     * first seen from the other side. */
    vx_collider ball = vx_collider_sphere(1.0f);
    vx_collider box = vx_collider_box(v3(1, 2, 1));
    vx_rigidbody dyn = vx_rigidbody_dynamic(1.0f);
    vx_vec3 ps = v3(1.5f, 2.5f, 0.25f), pb = v3(0, 0, 0); /* edge region (+x, +y) */

    vx_registry *w1 = vx_test_physics_world();
    vx_test_spawn_body(w1, ps, &ball, &dyn);
    vx_test_spawn_body(w1, pb, &box, &dyn);
    vx_registry *w2 = vx_test_physics_world();
    vx_test_spawn_body(w2, pb, &box, &dyn);
    vx_test_spawn_body(w2, ps, &ball, &dyn);

    vx_contact_list c1, c2;
    vx_contact_list_init(&c1);
    vx_contact_list_init(&c2);
    cr_assert_eq(vx_detect_collisions(w1, &c1), VX_OK);
    cr_assert_eq(vx_detect_collisions(w2, &c2), VX_OK);
    cr_assert_eq(c1.count, 1u);
    cr_assert_eq(c2.count, 1u);
    const vx_contact *s = &c1.items[0], *b = &c2.items[0];

    float k = 1.0f / sqrtf(2.0f);
    VX_ASSERT_VEC3_NEAR(s->normal, -k, -k, 0, EPS); /* sphere -> box */
    VX_ASSERT_VEC3_NEAR(b->normal, k, k, 0, EPS);   /* box -> sphere */
    VX_ASSERT_NEAR(b->depth, s->depth, 0);
    VX_ASSERT_NEAR(s->depth, 1.0f - 0.5f * sqrtf(2.0f), EPS);
    VX_ASSERT_VEC3_NEAR(b->point_on_a, 1, 2, 0.25f, 0); /* on the box edge */
    VX_ASSERT_VEC3_NEAR(b->point_on_b, s->point_on_a.x, s->point_on_a.y, s->point_on_a.z, 0);
    VX_ASSERT_VEC3_NEAR(b->point_on_a, s->point_on_b.x, s->point_on_b.y, s->point_on_b.z, 0);
    /* Still A minus B along the normal. */
    vx_vec3 d = vx_vec3_sub(b->point_on_a, b->point_on_b);
    VX_ASSERT_VEC3_NEAR(d, b->normal.x * b->depth, b->normal.y * b->depth, 0, EPS);
    cr_assert_eq(b->feature, s->feature);

    vx_contact_list_free(&c1);
    vx_contact_list_free(&c2);
    vx_registry_destroy(w1);
    vx_registry_destroy(w2);
}

Test(detect_collisions, contacts_are_sorted_whatever_the_storage_order)
{
    /* A row of 8 overlapping balls, their colliders added in a scrambled
     * order (the query walks storage order): the contacts still come out by
     * (entity_a, entity_b). */
    vx_registry *w = vx_test_physics_world();
    vx_entity e[8];
    for (int i = 0; i < 8; i++) cr_assert_eq(vx_registry_spawn(w, &e[i]), VX_OK);
    static const int order[8] = {5, 2, 7, 0, 3, 6, 1, 4};
    vx_collider ball = vx_collider_sphere(0.5f);
    vx_rigidbody dyn = vx_rigidbody_dynamic(1.0f);
    for (int k = 0; k < 8; k++) {
        int i = order[k];
        vx_transform t = vx_transform_from_position(v3(0.9f * (float)i, 0, 0));
        cr_assert_eq(vx_registry_add(w, e[i], VX_COMPONENT_COLLIDER, &ball), VX_OK);
        cr_assert_eq(vx_registry_add(w, e[7 - i], VX_COMPONENT_RIGIDBODY, &dyn), VX_OK);
        cr_assert_eq(vx_registry_add(w, e[i], VX_COMPONENT_TRANSFORM, &t), VX_OK);
    }
    vx_contact_list out;
    vx_contact_list_init(&out);
    cr_assert_eq(vx_detect_collisions(w, &out), VX_OK);
    cr_assert_eq(out.count, 7u);
    for (uint32_t i = 0; i < 7; i++) {
        assert_contact(&out.items[i], i, i + 1, v3(1, 0, 0), 0.1f, v3(0.9f * (float)i + 0.5f, 0, 0),
                       v3(0.9f * (float)(i + 1) - 0.5f, 0, 0), 0u, false);
    }
    vx_contact_list_free(&out);
    vx_registry_destroy(w);
}

Test(detect_collisions, reused_slot_carries_its_generation)
{
    vx_registry *w = vx_test_physics_world();
    vx_collider ball = vx_collider_sphere(1.0f);
    vx_rigidbody dyn = vx_rigidbody_dynamic(1.0f);
    vx_entity old = vx_test_spawn_body(w, v3(0, 0, 0), &ball, &dyn);
    vx_entity other = vx_test_spawn_body(w, v3(1, 0, 0), &ball, &dyn);
    cr_assert(vx_registry_despawn(w, old));
    vx_entity fresh = vx_test_spawn_body(w, v3(0, 1, 0), &ball, &dyn);
    cr_assert_eq(fresh.index, old.index);
    cr_assert_neq(fresh.generation, old.generation);

    vx_contact_list out;
    vx_contact_list_init(&out);
    cr_assert_eq(vx_detect_collisions(w, &out), VX_OK);
    cr_assert_eq(out.count, 1u);
    cr_assert(vx_entity_equal(out.items[0].entity_a, fresh));
    cr_assert(vx_entity_equal(out.items[0].entity_b, other));
    float k = 1.0f / sqrtf(2.0f);
    VX_ASSERT_VEC3_NEAR(out.items[0].normal, k, -k, 0, EPS);
    VX_ASSERT_NEAR(out.items[0].depth, 2.0f - sqrtf(2.0f), EPS);
    vx_contact_list_free(&out);
    vx_registry_destroy(w);
}

Test(detect_collisions, only_static_bodies_give_no_contacts)
{
    vx_registry *w = vx_test_physics_world();
    vx_collider box = vx_collider_box(v3(1, 1, 1));
    vx_rigidbody stat = vx_rigidbody_static();
    vx_test_spawn_body(w, v3(0, 0, 0), &box, NULL);
    vx_test_spawn_body(w, v3(0.5f, 0, 0), &box, &stat);
    vx_test_spawn_body(w, v3(0, 0.5f, 0), &box, NULL);
    vx_contact_list out;
    vx_contact_list_init(&out);
    cr_assert_eq(vx_detect_collisions(w, &out), VX_OK);
    cr_assert_eq(out.count, 0u);
    vx_contact_list_free(&out);
    vx_registry_destroy(w);
}

Test(detect_collisions, touching_bodies_are_not_in_contact)
{
    vx_registry *w = vx_test_physics_world();
    vx_collider box = vx_collider_box(v3(1, 1, 1));
    vx_collider ball = vx_collider_sphere(1.0f);
    vx_rigidbody dyn = vx_rigidbody_dynamic(1.0f);
    vx_test_spawn_body(w, v3(0, 0, 0), &box, &dyn);
    vx_test_spawn_body(w, v3(2, 0, 0), &box, &dyn);  /* face to face with 0 */
    vx_test_spawn_body(w, v3(0, 2, 0), &ball, &dyn); /* resting exactly on 0 */
    vx_test_spawn_body(w, v3(0, 4, 0), &ball, &dyn); /* resting exactly on 2 */
    vx_contact_list out;
    vx_contact_list_init(&out);
    cr_assert_eq(vx_detect_collisions(w, &out), VX_OK);
    cr_assert_eq(out.count, 0u);
    vx_contact_list_free(&out);
    vx_registry_destroy(w);
}

Test(detect_collisions, empty_and_unregistered_worlds)
{
    vx_contact_list out;
    vx_contact_list_init(&out);
    vx_registry *bare = vx_registry_create();
    cr_assert_not_null(bare);
    cr_assert_eq(vx_detect_collisions(bare, &out), VX_OK);
    cr_assert_eq(out.count, 0u);
    vx_registry_destroy(bare);

    vx_registry *w = vx_test_physics_world();
    cr_assert_eq(vx_detect_collisions(w, &out), VX_OK);
    cr_assert_eq(out.count, 0u);
    vx_collider ball = vx_collider_sphere(1.0f);
    vx_rigidbody dyn = vx_rigidbody_dynamic(1.0f);
    vx_test_spawn_body(w, v3(0, 0, 0), &ball, &dyn); /* a lone body */
    cr_assert_eq(vx_detect_collisions(w, &out), VX_OK);
    cr_assert_eq(out.count, 0u);
    vx_contact_list_free(&out);
    vx_registry_destroy(w);
}

Test(contact_list, sort_orders_by_entities_then_feature)
{
    vx_contact_list list;
    vx_contact_list_init(&list);
    /* (a, b, feature) triples in a scrambled order, enough to grow the list. */
    uint32_t n = 0;
    for (uint32_t i = 0; i < 60; i++) {
        vx_contact c;
        memset(&c, 0, sizeof c);
        uint32_t k = (i * 37u) % 60u;
        c.entity_a = (vx_entity){k / 12u, 1u};
        c.entity_b = (vx_entity){10u + (k / 3u) % 4u, 1u};
        c.feature = k % 3u;
        c.depth = (float)k;
        cr_assert_eq(vx_contact_list_push(&list, &c), VX_OK);
        n++;
    }
    cr_assert_eq(list.count, n);
    cr_assert_geq(list.capacity, list.count);
    vx_contact_list_sort(&list);
    for (uint32_t k = 0; k < 60; k++) {
        const vx_contact *c = &list.items[k];
        cr_assert_eq(c->entity_a.index, k / 12u);
        cr_assert_eq(c->entity_b.index, 10u + (k / 3u) % 4u);
        cr_assert_eq(c->feature, k % 3u);
        cr_assert_eq(c->depth, (float)k);
    }
    vx_contact_list_clear(&list);
    cr_assert_eq(list.count, 0u);
    vx_contact_list_free(&list);
    cr_assert_null(list.items);
    cr_assert_eq(list.capacity, 0u);
}

Test(contact_list, sort_breaks_ties_on_the_remaining_fields)
{
    /* Same entities and feature: the order still does not depend on the
     * input order (generation, then depth decide here). */
    vx_contact c[4];
    memset(c, 0, sizeof c);
    for (int i = 0; i < 4; i++) {
        c[i].entity_a = (vx_entity){1u, 1u};
        c[i].entity_b = (vx_entity){2u, 1u};
    }
    c[0].depth = 0.3f;
    c[1].depth = 0.1f;
    c[2].entity_a.generation = 2u;
    c[3].depth = 0.2f;
    vx_contact_list l1, l2;
    vx_contact_list_init(&l1);
    vx_contact_list_init(&l2);
    for (int i = 0; i < 4; i++) cr_assert_eq(vx_contact_list_push(&l1, &c[i]), VX_OK);
    for (int i = 3; i >= 0; i--) cr_assert_eq(vx_contact_list_push(&l2, &c[i]), VX_OK);
    vx_contact_list_sort(&l1);
    vx_contact_list_sort(&l2);
    cr_assert(memcmp(l1.items, l2.items, 4 * sizeof *l1.items) == 0);
    cr_assert_eq(l1.items[0].depth, 0.1f);
    cr_assert_eq(l1.items[1].depth, 0.2f);
    cr_assert_eq(l1.items[2].depth, 0.3f);
    cr_assert_eq(l1.items[3].entity_a.generation, 2u);
    vx_contact_list_free(&l1);
    vx_contact_list_free(&l2);
}
