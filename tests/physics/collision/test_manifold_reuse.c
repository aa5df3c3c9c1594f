/* Box-box manifolds kept from step to step (manifold_reuse.h): a kept
 * manifold carried to slightly moved poses is the narrow phase's manifold
 * there; it is refused once the boxes moved a millimetre from where it was
 * made (the drift does not add up over steps), for other shapes, speculative
 * points, changed boxes or entities; and the step with reuse gives the
 * same physics as without: piles rest where they rest without it, and a
 * slab tipping onto its face meets the floor the same way. The turn that
 * counts is measured at the smaller box's reach: a box turning about its
 * centre by 1.3 mrad moves its corners more than a millimetre. */
#include <criterion/criterion.h>
#include <math.h>
#include <string.h>

#include "physics/collision/narrow_phase.h"
#include "physics/collision/manifold_reuse.h"
#include "physics/body/body_set.h"
#include "physics/body/hull.h"
#include "physics/step_counts.h"
#include "test_helpers.h"

#define FLOOR_TOP 0.0f

typedef struct {
    vx_registry *w;
    vx_body_set bodies;
} two_bodies;

/* A static floor (body slot 0, top face at y = 0) and shape at position with
 * rotation (slot 1), gathered for the step. */
static void two_bodies_make(two_bodies *t, const vx_collider *shape, vx_vec3 position, vx_quat rotation)
{
    t->w = vx_test_physics_world();
    vx_collider floor_shape = vx_collider_box(vx_vec3_make(5.0f, 0.5f, 5.0f));
    vx_test_spawn_body(t->w, vx_vec3_make(0.0f, FLOOR_TOP - 0.5f, 0.0f), &floor_shape, NULL);
    vx_rigidbody rb = vx_rigidbody_dynamic(1.0f);
    vx_test_spawn_rotated(t->w, position, rotation, shape, &rb);
    vx_body_set_init(&t->bodies);
    cr_assert_eq(vx_body_set_gather(&t->bodies, t->w, vx_vec3_make(0.0f, -9.81f, 0.0f), NULL), VX_OK);
    cr_assert_eq(t->bodies.count, 2u);
}

static void two_bodies_free(two_bodies *t)
{
    vx_body_set_free(&t->bodies);
    vx_registry_destroy(t->w);
}

/* A unit box 0.5 mm into the floor, turned about the vertical and tilted
 * 0.2 mrad: four touching points. */
static void resting_box(two_bodies *t)
{
    vx_collider box = vx_collider_box(vx_vec3_make(0.5f, 0.5f, 0.5f));
    vx_quat q = vx_quat_mul(vx_quat_from_axis_angle(vx_vec3_make(1, 0, 0), 0.2e-3f),
                            vx_quat_from_axis_angle(vx_vec3_make(0, 1, 0), 0.4f));
    two_bodies_make(t, &box, vx_vec3_make(0.2f, 0.4995f, -0.1f), q);
}

static bool fresh(const two_bodies *t, vx_manifold *m)
{
    vx_pair_manifold pm;
    bool hit = vx_narrow_phase_pair(&t->bodies, 0, 1, 0.02f, 1.0f / 60.0f, &pm);
    *m = pm.manifold;
    return hit;
}

/* B's pose moved by d and turned by angle about axis (about its centre). */
static void move_b(two_bodies *t, vx_vec3 d, vx_vec3 axis, float angle)
{
    vx_body_pose *p = &t->bodies.pose[1];
    p->x = vx_vec3_add(p->x, d);
    p->q = vx_quat_normalize(vx_quat_mul(vx_quat_from_axis_angle(vx_vec3_normalize(axis), angle), p->q));
}

static const vx_manifold_point *with_feature(const vx_manifold *m, uint32_t feature)
{
    for (int k = 0; k < m->count; k++)
        if (m->points[k].feature == feature) return &m->points[k];
    return NULL;
}

Test(physics_reuse, kept_manifold_is_the_narrow_phase_one_after_small_moves)
{
    vx_test_rng rng = {12345u};
    for (int trial = 0; trial < 200; trial++) {
        two_bodies t;
        resting_box(&t);
        vx_manifold m0;
        cr_assert(fresh(&t, &m0));
        cr_assert_eq(m0.count, 4);
        vx_manifold_memo memo;
        cr_assert(vx_manifold_memo_make(&t.bodies, 0, 1, &m0, &memo));
        /* up to 0.3 mm and 0.3 mrad (0.26 mm at the box's corners): 0.56 mm of drift at most */
        vx_vec3 d = vx_vec3_scale(vx_test_rng_vec3(&rng, -1.0f, 1.0f), 0.3e-3f / sqrtf(3.0f));
        move_b(&t, d, vx_test_rng_vec3(&rng, -1.0f, 1.0f), vx_test_rng_range(&rng, -0.3e-3f, 0.3e-3f));
        vx_manifold now, kept;
        cr_assert(fresh(&t, &now));
        cr_assert(vx_manifold_memo_reuse(&memo, &t.bodies, 0, 1, &kept), "trial %d: refused a small move", trial);
        cr_assert_eq(kept.count, now.count, "trial %d", trial);
        cr_assert_gt(vx_vec3_dot(kept.normal, now.normal), cosf(1e-3f), "trial %d: the normal turned", trial);
        for (int k = 0; k < kept.count; k++) {
            const vx_manifold_point *p = with_feature(&now, kept.points[k].feature);
            cr_assert_not_null(p, "trial %d: feature %u is not the narrow phase's", trial, kept.points[k].feature);
            /* the floor's point stays where it was made, the box's moves with the box */
            VX_ASSERT_NEAR(kept.points[k].depth, p->depth, 2e-5);
            cr_assert_lt(vx_vec3_length(vx_vec3_sub(kept.points[k].point_b, p->point_b)), 1e-5f, "trial %d", trial);
            cr_assert_lt(vx_vec3_length(vx_vec3_sub(kept.points[k].point_a, p->point_a)), 0.6e-3f, "trial %d", trial);
        }
        two_bodies_free(&t);
    }
}

Test(physics_reuse, refused_past_a_millimetre_or_when_the_pair_changed)
{
    two_bodies t;
    resting_box(&t);
    vx_manifold m0, out;
    cr_assert(fresh(&t, &m0));
    vx_manifold_memo memo;
    cr_assert(vx_manifold_memo_make(&t.bodies, 0, 1, &m0, &memo));
    vx_body_pose start = t.bodies.pose[1];

    move_b(&t, vx_vec3_make(0.0f, 0.0f, 0.9e-3f), vx_vec3_make(0, 1, 0), 0.0f);
    cr_assert(vx_manifold_memo_reuse(&memo, &t.bodies, 0, 1, &out), "0.9 mm sideways");
    move_b(&t, vx_vec3_make(0.0f, 0.0f, 0.2e-3f), vx_vec3_make(0, 1, 0), 0.0f);
    cr_assert_not(vx_manifold_memo_reuse(&memo, &t.bodies, 0, 1, &out), "1.1 mm sideways");
    /* a turn of 1.3 mrad about the vertical moves the corners 1.1 mm (reach 0.87 m) */
    t.bodies.pose[1] = start;
    move_b(&t, vx_vec3_zero(), vx_vec3_make(0, 1, 0), 1.0e-3f);
    cr_assert(vx_manifold_memo_reuse(&memo, &t.bodies, 0, 1, &out), "1.0 mrad: 0.87 mm");
    t.bodies.pose[1] = start;
    move_b(&t, vx_vec3_zero(), vx_vec3_make(0, 1, 0), 1.3e-3f);
    cr_assert_not(vx_manifold_memo_reuse(&memo, &t.bodies, 0, 1, &out), "1.3 mrad: 1.1 mm");
    /* the floor moving is the same as the box moving the other way */
    t.bodies.pose[1] = start;
    t.bodies.pose[0].x.x += 1.1e-3f;
    cr_assert_not(vx_manifold_memo_reuse(&memo, &t.bodies, 0, 1, &out), "the floor moved 1.1 mm");
    t.bodies.pose[0].x.x -= 1.1e-3f;
    cr_assert(vx_manifold_memo_reuse(&memo, &t.bodies, 0, 1, &out));
    /* another box, another entity, a sensor */
    t.bodies.info[1].collider.half_extents.x = 0.6f;
    cr_assert_not(vx_manifold_memo_reuse(&memo, &t.bodies, 0, 1, &out), "the box grew");
    t.bodies.info[1].collider.half_extents.x = 0.5f;
    t.bodies.info[1].entity.generation++;
    cr_assert_not(vx_manifold_memo_reuse(&memo, &t.bodies, 0, 1, &out), "another entity in the slot");
    t.bodies.info[1].entity.generation--;
    t.bodies.info[1].collider.sensor = true;
    cr_assert_not(vx_manifold_memo_reuse(&memo, &t.bodies, 0, 1, &out), "a sensor");
    t.bodies.info[1].collider.sensor = false;
    cr_assert(vx_manifold_memo_reuse(&memo, &t.bodies, 0, 1, &out), "all back as it was");
    two_bodies_free(&t);
}

Test(physics_reuse, only_touching_box_pairs_are_kept)
{
    vx_manifold m;
    vx_manifold_memo memo;
    /* 5 mm above the floor: speculative points, found again every step */
    two_bodies t;
    vx_collider box = vx_collider_box(vx_vec3_make(0.5f, 0.5f, 0.5f));
    two_bodies_make(&t, &box, vx_vec3_make(0.0f, 0.505f, 0.0f), vx_quat_identity());
    cr_assert(fresh(&t, &m));
    cr_assert_not(vx_manifold_memo_make(&t.bodies, 0, 1, &m, &memo));
    two_bodies_free(&t);
    /* tilted on an edge with the far edge 2 cm up: two touching points and two
     * speculative ones, none kept */
    two_bodies_make(&t, &box, vx_vec3_make(0.0f, 0.5f, 0.0f), vx_quat_identity());
    float angle = asinf(0.02f);
    t.bodies.pose[1].q = vx_quat_from_axis_angle(vx_vec3_make(0, 0, 1), angle);
    t.bodies.pose[1].x.y = 0.5f * cosf(angle) + 0.5f * sinf(angle) - 1e-4f;
    cr_assert(fresh(&t, &m));
    cr_assert_eq(m.count, 4);
    cr_assert_not(vx_manifold_memo_make(&t.bodies, 0, 1, &m, &memo));
    two_bodies_free(&t);
    /* a sphere resting on the floor: it rolls, its point is no point of it */
    vx_collider ball = vx_collider_sphere(0.5f);
    two_bodies_make(&t, &ball, vx_vec3_make(0.0f, 0.4995f, 0.0f), vx_quat_identity());
    cr_assert(fresh(&t, &m));
    cr_assert_not(vx_manifold_memo_make(&t.bodies, 0, 1, &m, &memo));
    two_bodies_free(&t);
}

/* The narrow phase keeps a memo where it was made: a box creeping 0.3 mm per
 * detection reuses it three times, then is tested again at 1.2 mm, and so on;
 * without reuse nothing is kept. */
Test(physics_reuse, drift_does_not_add_up)
{
    for (int on = 0; on < 2; on++) {
        two_bodies t;
        resting_box(&t);
        vx_narrow_phase d;
        vx_narrow_phase_init(&d);
        vx_broadphase_pair pair = {0u, 1u};
        vx_broadphase_pair_list pairs = {&pair, 1u, 1u};
        for (int k = 0; k < 12; k++) {
            cr_assert_eq(vx_narrow_phase_detect(&d, &t.bodies, &pairs, 0.02f, 1.0f / 60.0f, on == 1, NULL), VX_OK);
            cr_assert_eq(d.count, 1u);
            size_t expect = on && k % 4 != 0 ? 1u : 0u;
            cr_assert_eq(d.reused, expect, "reuse %d, detection %d: %zu reused", on, k, d.reused);
            cr_assert_eq(d.memos.count, on ? 1u : 0u);
            move_b(&t, vx_vec3_make(0.3e-3f, 0.0f, 0.0f), vx_vec3_make(0, 1, 0), 0.0f);
        }
        vx_narrow_phase_free(&d);
        two_bodies_free(&t);
    }
}

/* A stack of boxes and a row of them touching side by side, settled for
 * 3 s: with reuse the boxes rest within 0.2 mm of where they rest without,
 * and nearly every pair keeps its manifold. */
Test(physics_reuse, a_resting_pile_is_the_same_with_and_without_reuse)
{
    vx_vec3 rest[2][8];
    for (int on = 0; on < 2; on++) {
        vx_registry *w = vx_test_physics_world();
        vx_collider floor_shape = vx_collider_box(vx_vec3_make(20.0f, 0.5f, 20.0f));
        vx_test_spawn_body(w, vx_vec3_make(0.0f, -0.5f, 0.0f), &floor_shape, NULL);
        vx_collider box = vx_collider_box(vx_vec3_make(0.5f, 0.5f, 0.5f));
        vx_rigidbody rb = vx_rigidbody_dynamic(1.0f);
        vx_entity e[8];
        for (int i = 0; i < 5; i++) e[i] = vx_test_spawn_body(w, vx_vec3_make(0.0f, 0.5f + (float)i, 0.0f), &box, &rb);
        for (int i = 5; i < 8; i++)
            e[i] = vx_test_spawn_body(w, vx_vec3_make(2.0f + (float)(i - 5), 0.5f, 0.0f), &box, &rb);
        vx_test_stepper s;
        vx_test_stepper_init(&s);
        s.cfg.reuse_contacts = on == 1;
        size_t manifolds = 0, reused = 0;
        for (int k = 0; k < 180; k++) {
            vx_test_step(w, &s);
            if (k < 60) continue;
            vx_step_counts c = vx_step_counts_last(&s.state);
            manifolds += c.manifolds;
            reused += c.reused;
        }
        for (int i = 0; i < 8; i++) rest[on][i] = vx_test_transform(w, e[i])->position;
        if (on)
            cr_assert_gt((double)reused, 0.95 * (double)manifolds, "%zu of %zu manifolds reused", reused, manifolds);
        else
            cr_assert_eq(reused, 0u);
        vx_test_stepper_free(&s);
        vx_registry_destroy(w);
    }
    for (int i = 0; i < 8; i++)
        cr_assert_lt(vx_vec3_length(vx_vec3_sub(rest[0][i], rest[1][i])), 0.2e-3f, "box %d rests elsewhere", i);
}

/* A 10 m slab leaning on one long edge, 1.5 degrees up, tips onto its face
 * (turning about the edge, its centre moves: the pair is tested again every
 * step) and comes to rest, keeping its manifold from then on. With reuse it
 * sinks no deeper into the floor and rests as high as without. */
Test(physics_reuse, a_slab_tipping_onto_its_face_lands_as_without_reuse)
{
    float deepest[2], rest_y[2];
    for (int on = 0; on < 2; on++) {
        vx_registry *w = vx_test_physics_world();
        vx_collider floor_shape = vx_collider_box(vx_vec3_make(20.0f, 0.5f, 20.0f));
        vx_entity floor = vx_test_spawn_body(w, vx_vec3_make(0.0f, -0.5f, 0.0f), &floor_shape, NULL);
        vx_collider slab = vx_collider_box(vx_vec3_make(5.0f, 0.1f, 1.0f));
        vx_rigidbody rb = vx_rigidbody_dynamic(20.0f);
        float angle = 1.5f * 3.14159265f / 180.0f;
        /* the edge at x = -5, y = 0 on the floor, the slab rising towards +x */
        vx_vec3 centre = vx_vec3_make(-5.0f + 5.0f * cosf(angle) - 0.1f * sinf(angle),
                                      5.0f * sinf(angle) + 0.1f * cosf(angle), 0.0f);
        vx_entity e = vx_test_spawn_rotated(w, centre, vx_quat_from_axis_angle(vx_vec3_make(0, 0, 1), angle), &slab,
                                            &rb);
        vx_test_stepper s;
        vx_test_stepper_init(&s);
        s.cfg.reuse_contacts = on == 1;
        deepest[on] = 0.0f;
        for (int k = 0; k < 240; k++) {
            vx_test_step(w, &s);
            for (size_t i = 0; i < s.report.count; i++) {
                const vx_contact *c = &s.report.items[i];
                if (vx_entity_equal(c->entity_a, floor) && c->depth > deepest[on]) deepest[on] = c->depth;
            }
        }
        rest_y[on] = vx_test_transform(w, e)->position.y;
        cr_assert_eq(vx_step_counts_last(&s.state).reused, on ? 1u : 0u, "the slab at rest keeps its manifold");
        vx_test_stepper_free(&s);
        vx_registry_destroy(w);
    }
    VX_ASSERT_NEAR(rest_y[1], 0.1, 0.011);
    VX_ASSERT_NEAR(rest_y[1], rest_y[0], 0.5e-3);
    cr_assert_lt(deepest[1], deepest[0] + 1e-3f, "with reuse %g m deep, without %g m", (double)deepest[1],
                 (double)deepest[0]);
}

/* Hull manifolds are kept like box ones: a hexagonal prism resting on the
 * floor keeps its manifold under small moves (the same features and depths
 * as the narrow phase there), and a memo made with one hull does not serve
 * another hull of the same points. */
Test(physics_reuse, hull_manifolds_are_kept_for_the_same_hull)
{
    vx_vec3 pts[12];
    for (int k = 0; k < 6; k++)
        for (int s = 0; s < 2; s++)
            pts[2 * k + s] = vx_vec3_make(0.5f * cosf((float)k * 1.0471976f), s ? 0.2f : -0.2f,
                                          0.5f * sinf((float)k * 1.0471976f));
    vx_hull *hull = NULL, *twin = NULL;
    cr_assert_eq(vx_hull_build(pts, 12, &hull, NULL), VX_OK);
    cr_assert_eq(vx_hull_build(pts, 12, &twin, NULL), VX_OK);
    vx_hull_to_principal(hull);
    vx_hull_to_principal(twin);
    vx_collider shape = vx_collider_hull(hull);
    two_bodies t;
    two_bodies_make(&t, &shape, vx_vec3_make(0.1f, 0.1995f, 0.3f), vx_quat_from_axis_angle(vx_vec3_make(0, 1, 0), 0.3f));
    vx_manifold m0, now, kept;
    cr_assert(fresh(&t, &m0));
    cr_assert_eq(m0.count, 4);
    vx_manifold_memo memo;
    cr_assert(vx_manifold_memo_make(&t.bodies, 0, 1, &m0, &memo));
    move_b(&t, vx_vec3_make(0.2e-3f, 0.0f, -0.1e-3f), vx_vec3_make(0, 1, 0), 0.2e-3f);
    cr_assert(fresh(&t, &now));
    cr_assert(vx_manifold_memo_reuse(&memo, &t.bodies, 0, 1, &kept));
    cr_assert_eq(kept.count, now.count);
    for (int k = 0; k < kept.count; k++) {
        const vx_manifold_point *p = with_feature(&now, kept.points[k].feature);
        cr_assert_not_null(p, "feature %u is not the narrow phase's", kept.points[k].feature);
        VX_ASSERT_NEAR(kept.points[k].depth, p->depth, 2e-5);
    }
    t.bodies.info[1].collider.hull = twin;
    cr_assert_not(vx_manifold_memo_reuse(&memo, &t.bodies, 0, 1, &kept), "another hull");
    t.bodies.info[1].collider = vx_collider_sphere(0.5f);
    cr_assert_not(vx_manifold_memo_reuse(&memo, &t.bodies, 0, 1, &kept), "a sphere");
    two_bodies_free(&t);
    vx_hull_destroy(hull);
    vx_hull_destroy(twin);
}
