/* Shape frames (src/physics/body/shape.c, body_set.c) through the library:
 * bodies with a convex hull are simulated about the hull's centre of mass
 * while the world reports the entity's origin. Free flight against the
 * analytic motion (the centre of mass in a straight line, |L| and the energy
 * kept, the origin's velocity v + w x r), free fall, bits kept at rest, a
 * spin set between steps, a wedge that comes to rest on a floor and then
 * keeps its bits, a ray that meets the hull's face where geometry says, and
 * the errors. */
#include <criterion/criterion.h>
#include <math.h>
#include <string.h>

#include "test_helpers.h"
#include "test_world_helpers.h"
#include "voltex/voltex.h"

static vx_world *make_world(vx_vec3 gravity)
{
    vx_world_def def = vx_world_def_default();
    def.gravity = gravity;
    vx_error err;
    vx_world *w = vx_world_create(&def, &err);
    cr_assert_not_null(w, "%s", err.message);
    return w;
}

static const vx_hull *make_hull(vx_world *w, const vx_vec3 *pts, size_t n)
{
    const vx_hull *h = NULL;
    vx_error err;
    cr_assert_eq(vx_world_make_hull(w, pts, n, &h, &err), VX_OK, "%s", err.message);
    return h;
}

static void step(vx_world *w)
{
    vx_error err;
    cr_assert_eq(vx_world_step(w, &err), VX_OK, "%s", err.message);
}

/* An irregular solid placed away from its points' origin: its centre of
 * mass is not the entity's origin and its principal axes are not the
 * entity's axes. */
static const vx_vec3 lump[8] = {{1.0f, 0.2f, 0.1f},  {1.9f, 0.3f, -0.2f}, {1.2f, 1.1f, 0.3f},  {1.4f, 0.4f, 0.9f},
                                {2.1f, 1.0f, 0.8f},  {1.1f, 0.9f, 1.2f},  {2.3f, 0.1f, 0.7f},  {1.6f, 1.4f, -0.1f}};

static vx_vec3 centre_of_mass(const vx_hull *h, const vx_body_state *s)
{
    return vx_vec3_add(s->p, vx_quat_rotate(s->q, vx_hull_get_info(h).frame.position));
}

/* The world inertia tensor times w, from the hull's principal moments. */
static vx_vec3 angular_momentum(const vx_hull *h, float mass, const vx_body_state *s)
{
    vx_hull_info info = vx_hull_get_info(h);
    vx_quat q = vx_quat_mul(s->q, info.frame.rotation);
    vx_vec3 local = vx_quat_rotate(vx_quat_conjugate(q), s->w);
    float k = mass / info.volume;
    vx_vec3 l = vx_vec3_make(k * info.inertia.x * local.x, k * info.inertia.y * local.y, k * info.inertia.z * local.z);
    return vx_quat_rotate(q, l);
}

Test(hull_body, free_flight_moves_the_centre_of_mass_straight_and_keeps_L_and_energy)
{
    vx_world *w = make_world(vx_vec3_zero());
    const vx_hull *h = make_hull(w, lump, 8);
    vx_body_def d = vx_body_def_default();
    d.mass = 3.0f;
    d.velocity = vx_vec3_make(0.5f, -0.2f, 0.1f); /* the origin's */
    d.angular_velocity = vx_vec3_make(1.0f, 2.0f, -1.5f);
    vx_entity e = vx_test_add_body(w, &d, vx_collider_hull(h));
    vx_body_state s0 = vx_test_state_of(w, e);
    vx_vec3 c0 = centre_of_mass(h, &s0);
    /* the centre of mass moves at v + w x (c - origin) */
    vx_vec3 vc = vx_vec3_add(d.velocity, vx_vec3_cross(d.angular_velocity, vx_vec3_sub(c0, s0.p)));
    vx_vec3 l0 = angular_momentum(h, d.mass, &s0);
    float e0 = 0.5f * vx_vec3_dot(s0.w, l0);
    float dt = vx_world_get_def(w)->fixed_dt;
    for (int n = 1; n <= 300; n++) {
        step(w);
        vx_body_state s = vx_test_state_of(w, e);
        vx_vec3 c = centre_of_mass(h, &s);
        vx_vec3 expect = vx_vec3_add(c0, vx_vec3_scale(vc, dt * (float)n));
        cr_assert_lt(vx_vec3_length(vx_vec3_sub(c, expect)), 1e-4f, "step %d: centre of mass off its line", n);
        /* the origin's velocity is the centre's plus w x (origin - c) */
        vx_vec3 vo = vx_vec3_add(vc, vx_vec3_cross(s.w, vx_vec3_sub(s.p, c)));
        cr_assert_lt(vx_vec3_length(vx_vec3_sub(s.v, vo)), 1e-4f, "step %d: origin velocity", n);
        vx_vec3 l = angular_momentum(h, d.mass, &s);
        cr_assert_lt(vx_vec3_length(vx_vec3_sub(l, l0)), 1e-3f * vx_vec3_length(l0), "step %d: L", n);
        cr_assert_float_eq(0.5f * vx_vec3_dot(s.w, l), e0, 1e-3f * e0, "step %d: energy", n);
    }
    vx_world_destroy(w);
}

Test(hull_body, free_fall_follows_semi_implicit_euler)
{
    vx_world *w = make_world(vx_vec3_make(0.0f, -9.81f, 0.0f));
    const vx_hull *h = make_hull(w, lump, 8);
    vx_body_def d = vx_body_def_default();
    d.position = vx_vec3_make(0.0f, 100.0f, 0.0f);
    vx_entity e = vx_test_add_body(w, &d, vx_collider_hull(h));
    float dt = vx_world_get_def(w)->fixed_dt;
    for (int n = 1; n <= 120; n++) {
        step(w);
        vx_body_state s = vx_test_state_of(w, e);
        /* y_n = y_0 - g dt^2 n (n + 1) / 2, v_n = -g dt n */
        double y = 100.0 - 9.81 * (double)dt * dt * n * (n + 1) / 2.0;
        cr_assert_lt(fabs(s.p.y - y), 2e-4, "step %d: y %g, expected %g", n, (double)s.p.y, y);
        cr_assert_lt(fabs(s.v.y + 9.81 * dt * n), 1e-4, "step %d", n);
        cr_assert_eq(s.q.w, 1.0f);
    }
    vx_world_destroy(w);
}

/* A hull left alone keeps the bits of its pose: the conversions to its
 * principal frame and back add no rounding step after step. */
Test(hull_body, hull_at_rest_in_space_keeps_its_bits)
{
    vx_world *w = make_world(vx_vec3_zero());
    const vx_hull *h = make_hull(w, lump, 8);
    vx_body_def d = vx_body_def_default();
    d.position = vx_vec3_make(0.3f, 1.7f, -2.9f);
    d.rotation = vx_quat_normalize(vx_quat_make(0.1f, 0.7f, -0.2f, 0.6f));
    vx_entity e = vx_test_add_body(w, &d, vx_collider_hull(h));
    for (int n = 0; n < 200; n++) step(w);
    vx_body_state s = vx_test_state_of(w, e);
    cr_assert_eq(memcmp(&s.p, &d.position, sizeof s.p), 0, "moved to (%.9g %.9g %.9g)", (double)s.p.x,
                 (double)s.p.y, (double)s.p.z);
    cr_assert_eq(memcmp(&s.q, &d.rotation, sizeof s.q), 0);
    vx_world_destroy(w);
}

/* A new spin given between steps to a hull at rest (its origin kept
 * still) sets its centre of mass moving at w x (c - origin). */
Test(hull_body, spin_set_between_steps_moves_the_centre_of_mass)
{
    vx_world *w = make_world(vx_vec3_zero());
    const vx_hull *h = make_hull(w, lump, 8);
    vx_body_def d = vx_body_def_default();
    vx_entity e = vx_test_add_body(w, &d, vx_collider_hull(h));
    for (int n = 0; n < 5; n++) step(w);
    vx_vec3 spin = vx_vec3_make(0.0f, 0.0f, 2.0f);
    cr_assert_eq(vx_body_set_velocity(w, e, vx_vec3_zero(), spin, NULL), VX_OK);
    vx_body_state s0 = vx_test_state_of(w, e);
    vx_vec3 c0 = centre_of_mass(h, &s0);
    vx_vec3 vc = vx_vec3_cross(spin, vx_vec3_sub(c0, s0.p));
    step(w);
    vx_body_state s1 = vx_test_state_of(w, e);
    vx_vec3 moved = vx_vec3_sub(centre_of_mass(h, &s1), c0);
    vx_vec3 expect = vx_vec3_scale(vc, vx_world_get_def(w)->fixed_dt);
    cr_assert_lt(vx_vec3_length(vx_vec3_sub(moved, expect)), 1e-6f, "moved (%g %g %g), expected (%g %g %g)",
                 (double)moved.x, (double)moved.y, (double)moved.z, (double)expect.x, (double)expect.y,
                 (double)expect.z);
    vx_world_destroy(w);
}

/* A wedge (a triangular prism lying on a rectangular face) on a floor box:
 * it settles with its bottom face on the floor, then stays put: with
 * sleeping on, its pose keeps the same bits once asleep. */
Test(hull_body, wedge_rests_on_a_floor_and_keeps_its_bits)
{
    vx_world_def def = vx_world_def_default();
    def.sleeping = true;
    vx_world *w = vx_world_create(&def, NULL);
    const vx_vec3 wedge[6] = {{0, 0, 0}, {1, 0, 0}, {0, 0.6f, 0}, {0, 0, 0.8f}, {1, 0, 0.8f}, {0, 0.6f, 0.8f}};
    const vx_hull *h = make_hull(w, wedge, 6);
    vx_body_def floor_def = vx_body_def_default();
    floor_def.type = VX_BODY_STATIC;
    floor_def.position = vx_vec3_make(0.0f, -0.5f, 0.0f);
    vx_test_add_body(w, &floor_def, vx_collider_box(vx_vec3_make(5.0f, 0.5f, 5.0f)));
    vx_body_def d = vx_body_def_default();
    d.position = vx_vec3_make(0.2f, 0.05f, -0.3f);
    vx_entity e = vx_test_add_body(w, &d, vx_collider_hull(h));
    for (int n = 0; n < 240; n++) step(w);
    vx_body_state s = vx_test_state_of(w, e);
    cr_assert_lt(fabsf(s.p.y), 2e-3f, "the wedge's bottom face rests on the floor: origin y %g", (double)s.p.y);
    cr_assert_lt(fabsf(s.p.x - 0.2f) + fabsf(s.p.z + 0.3f), 1e-3f, "no slide");
    cr_assert_gt(s.q.w, 0.99999f, "no turn");
    cr_assert_eq(vx_world_awake_count(w), 0u, "asleep");
    for (int n = 0; n < 120; n++) step(w);
    vx_body_state later = vx_test_state_of(w, e);
    cr_assert_eq(memcmp(&later.p, &s.p, sizeof s.p), 0);
    cr_assert_eq(memcmp(&later.q, &s.q, sizeof s.q), 0);
    vx_world_destroy(w);
}

/* The same without sleeping: a hull at rest stays within a tenth of a
 * millimetre for ten seconds (the conversions to its principal frame and
 * back add no drift). */
Test(hull_body, resting_hull_does_not_drift)
{
    vx_world *w = make_world(vx_vec3_make(0.0f, -9.81f, 0.0f));
    const vx_hull *h = make_hull(w, lump, 8);
    vx_body_def floor_def = vx_body_def_default();
    floor_def.type = VX_BODY_STATIC;
    floor_def.position = vx_vec3_make(0.0f, -0.5f, 0.0f);
    vx_test_add_body(w, &floor_def, vx_collider_box(vx_vec3_make(10.0f, 0.5f, 10.0f)));
    vx_body_def d = vx_body_def_default();
    d.position = vx_vec3_make(0.0f, 0.3f, 0.0f);
    vx_entity e = vx_test_add_body(w, &d, vx_collider_hull(h));
    for (int n = 0; n < 300; n++) step(w);
    vx_body_state settled = vx_test_state_of(w, e);
    for (int n = 0; n < 600; n++) step(w);
    vx_body_state s = vx_test_state_of(w, e);
    cr_assert_lt(vx_vec3_length(vx_vec3_sub(s.p, settled.p)), 1e-4f, "drifted %g m",
                 (double)vx_vec3_length(vx_vec3_sub(s.p, settled.p)));
    cr_assert_lt(vx_vec3_length(s.v), 1e-3f);
    vx_world_destroy(w);
}

/* A ray down onto a hull placed by a turned entity meets its top face where
 * the face is in the world; overlaps find it. */
Test(hull_body, ray_and_overlap_find_the_hull_where_it_is)
{
    vx_world *w = make_world(vx_vec3_zero());
    const vx_vec3 slab[8] = {{1, 0, 1}, {3, 0, 1}, {1, 0.5f, 1}, {3, 0.5f, 1}, {1, 0, 2}, {3, 0, 2}, {1, 0.5f, 2}, {3, 0.5f, 2}};
    const vx_hull *h = make_hull(w, slab, 8);
    vx_body_def d = vx_body_def_default();
    d.type = VX_BODY_STATIC;
    d.position = vx_vec3_make(10.0f, 0.0f, 0.0f);
    d.rotation = vx_quat_from_axis_angle(vx_vec3_make(0.0f, 1.0f, 0.0f), 1.5707963f); /* x -> -z */
    vx_entity e = vx_test_add_body(w, &d, vx_collider_hull(h));
    /* local (2, 0.5, 1.5) is at world (10 + 1.5, 0.5, -2) */
    vx_query_hit hit;
    vx_error err;
    cr_assert_eq(vx_world_cast_ray_closest(w, vx_vec3_make(11.5f, 5.0f, -2.0f), vx_vec3_make(0.0f, -1.0f, 0.0f),
                                           100.0f, NULL, &hit, &err),
                 VX_OK, "%s", err.message);
    cr_assert(vx_entity_equal(hit.entity, e));
    cr_assert_float_eq(hit.distance, 4.5f, 1e-5f);
    VX_ASSERT_VEC3_NEAR(hit.normal, 0.0f, 1.0f, 0.0f, 1e-5f);
    /* beside the slab (world x 10.9 is local z 0.9: outside) nothing */
    cr_assert_eq(vx_world_cast_ray_closest(w, vx_vec3_make(10.9f, 5.0f, -2.0f), vx_vec3_make(0.0f, -1.0f, 0.0f),
                                           100.0f, NULL, &hit, &err),
                 VX_OK);
    cr_assert(vx_entity_equal(hit.entity, VX_ENTITY_NULL));
    vx_world_destroy(w);
}

Test(hull_body, errors_say_what_is_wrong)
{
    vx_world *w = make_world(vx_vec3_zero()), *other = make_world(vx_vec3_zero());
    const vx_hull *h = NULL;
    vx_error err;
    const vx_vec3 flat[4] = {{0, 0, 0}, {1, 0, 0}, {0, 0, 1}, {1, 0, 1}};
    cr_assert_eq(vx_world_make_hull(w, flat, 4, &h, &err), VX_ERR_INVALID);
    cr_assert_not_null(strstr(err.message, "plane"), "%s", err.message);
    cr_assert_eq(vx_world_make_hull(w, lump, 3, &h, &err), VX_ERR_INVALID);
    cr_assert_not_null(strstr(err.message, "fewer than 4"), "%s", err.message);
    const vx_hull *theirs = make_hull(other, lump, 8);
    vx_body_def d = vx_body_def_default();
    vx_entity e;
    cr_assert_eq(vx_world_create_body(w, &d, &e, NULL), VX_OK);
    vx_collider c = vx_collider_hull(theirs);
    cr_assert_eq(vx_body_set_shape(w, e, &c, &err), VX_ERR_INVALID);
    cr_assert_not_null(strstr(err.message, "not made by this world"), "%s", err.message);
    c = vx_collider_hull(NULL);
    cr_assert_eq(vx_body_set_shape(w, e, &c, &err), VX_ERR_INVALID);
    cr_assert_not_null(strstr(err.message, "hull"), "%s", err.message);
    vx_world_destroy(other);
    vx_world_destroy(w);
}
