/* Continuous collision (docs/simulation.md), through vx_step at
 * default settings (60 Hz, 1 substep, 10 iterations):
 *   - fast bodies stop at static geometry instead of passing through it:
 *     a 0.1 m sphere at 200 m/s against a 5 cm wall, a 0.2 m box at 50 m/s
 *     against a 1 cm plate (also rotated and tumbling), corner-on hits;
 *   - nothing is slowed down that did not hit anything: bodies flying fast
 *     past corners, edges, faces and plate rims with near misses of a few
 *     cm move exactly as they would without the obstacle ("ghost"
 *     collisions of speculative contacts);
 *   - `bullet`: two fast dynamic spheres collide when one is a bullet;
 *     without it only what the interface promises holds;
 *   - determinism;
 * and the time-of-impact sweep itself against closed-form times. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "physics/body/mesh.h"
#include "physics/collision/time_of_impact.h"
#include "test_helpers.h"
#include "voltex/physics.h"

#define DT (1.0 / 60.0)

static vx_rigidbody free_body(float mass, float restitution)
{
    vx_rigidbody rb = vx_rigidbody_dynamic(mass);
    rb.gravity_scale = 0.0f;
    rb.restitution = restitution;
    rb.friction = 0.5f;
    return rb;
}

static vx_rigidbody static_body(void)
{
    vx_rigidbody rb = vx_rigidbody_static();
    rb.restitution = 0.0f;
    return rb;
}

/* The 8 corners of a box collider at a pose. */
static void box_corners(vx_vec3 half, const vx_transform *t, vx_vec3 out[8])
{
    for (int i = 0; i < 8; i++) {
        vx_vec3 local = vx_vec3_make((i & 1) ? half.x : -half.x, (i & 2) ? half.y : -half.y,
                                     (i & 4) ? half.z : -half.z);
        out[i] = vx_vec3_add(t->position, vx_quat_rotate(t->rotation, local));
    }
}

/* ---- fast bodies against static geometry ---- */

/* The first test: a 0.1 m sphere at 200 m/s (3.3 m per step, 17
 * times its diameter) against a 5 cm thick static wall. Start offsets put the
 * impact at different fractions of a step; the sphere never gets beyond the
 * near face and ends resting on it, its momentum taken by the wall. */
Test(ccd, sphere_at_200_mps_stops_at_a_5_cm_wall)
{
    const float r = 0.1f, half_thickness = 0.025f;
    for (int phase = 0; phase < 8; phase++) {
        vx_registry *w = vx_test_physics_world();
        vx_collider wall_shape = vx_collider_box(vx_vec3_make(half_thickness, 2.0f, 2.0f));
        vx_rigidbody wall_rb = static_body();
        vx_test_spawn_body(w, vx_vec3_make(0.0f, 0.0f, 0.0f), &wall_shape, &wall_rb);
        vx_collider ball = vx_collider_sphere(r);
        vx_rigidbody rb = free_body(1.0f, 0.0f);
        rb.velocity = vx_vec3_make(200.0f, 0.0f, 0.0f);
        float x0 = -5.0f - 0.4f * (float)phase;
        vx_entity e = vx_test_spawn_body(w, vx_vec3_make(x0, 0.3f, 0.0f), &ball, &rb);
        vx_test_stepper s;
        vx_test_stepper_init(&s);
        const float near_face = -half_thickness - r; /* the centre when touching */
        for (int k = 1; k <= 20; k++) {
            vx_test_step(w, &s);
            float x = vx_test_transform(w, e)->position.x;
            cr_assert_leq(x, near_face + 1e-4f, "phase %d, step %d: centre at x = %g, the near face at %g", phase,
                          k, (double)x, (double)near_face);
        }
        VX_ASSERT_NEAR(vx_test_transform(w, e)->position.x, near_face, 1e-3);
        VX_ASSERT_VEC3_NEAR(vx_test_body(w, e)->velocity, 0.0f, 0.0f, 0.0f, 1e-3);
        vx_test_stepper_free(&s);
        vx_registry_destroy(w);
    }
}

/* The same sphere hitting the wall obliquely (its path crosses the wall's
 * plane well inside the face) stays on the near side, and keeps moving
 * along the wall: the wall stopped the normal part of its velocity only,
 * friction took some of the rest. */
Test(ccd, sphere_at_200_mps_hitting_a_wall_obliquely_stays_on_the_near_side)
{
    const float r = 0.1f, half_thickness = 0.025f;
    const float angles_deg[] = {15.0f, 30.0f, 45.0f, 60.0f, 75.0f};
    for (size_t i = 0; i < sizeof angles_deg / sizeof angles_deg[0]; i++) {
        float a = angles_deg[i] * 3.14159265f / 180.0f; /* from the wall's normal */
        vx_registry *w = vx_test_physics_world();
        vx_collider wall_shape = vx_collider_box(vx_vec3_make(half_thickness, 20.0f, 20.0f));
        vx_rigidbody wall_rb = static_body();
        vx_test_spawn_body(w, vx_vec3_zero(), &wall_shape, &wall_rb);
        vx_collider ball = vx_collider_sphere(r);
        vx_rigidbody rb = free_body(1.0f, 0.0f);
        rb.friction = 0.0f;
        rb.velocity = vx_vec3_make(200.0f * cosf(a), 200.0f * sinf(a), 0.0f);
        vx_entity e = vx_test_spawn_body(w, vx_vec3_make(-3.0f, -3.0f * tanf(a), 0.0f), &ball, &rb);
        vx_test_stepper s;
        vx_test_stepper_init(&s);
        for (int k = 1; k <= 6; k++) {
            vx_test_step(w, &s);
            float x = vx_test_transform(w, e)->position.x;
            cr_assert_leq(x, -half_thickness - r + 1e-4f, "%g deg, step %d: x = %g", (double)angles_deg[i], k,
                          (double)x);
        }
        /* frictionless, restitution 0: the tangential velocity survives */
        VX_ASSERT_NEAR(vx_test_body(w, e)->velocity.x, 0.0, 1e-3);
        VX_ASSERT_NEAR(vx_test_body(w, e)->velocity.y, 200.0 * sin((double)a), 1e-3 * 200.0);
        vx_test_stepper_free(&s);
        vx_registry_destroy(w);
    }
}

/* The second test: a 0.2 m box thrown at 50 m/s (0.83 m per step)
 * at a 1 cm thick static plate, axis-aligned, rotated, and tumbling at up
 * to 100 rad/s, and faster still. No corner ever gets beyond the plate's
 * far face, no corner sinks more than the position slop into the near face,
 * and the box ends in front of the plate. (The contact at impact sets the
 * box spinning at up to ~150 rad/s: its corners swing along arcs that the
 * linear contacts do not see, so this needs the sweep after the solve.) */
static void box_against_plate(vx_quat rotation, vx_vec3 spin, float y_offset, float speed, const char *what)
{
    const vx_vec3 half = vx_vec3_make(0.1f, 0.1f, 0.1f);
    const float plate_half = 0.005f;
    vx_registry *w = vx_test_physics_world();
    vx_collider plate_shape = vx_collider_box(vx_vec3_make(plate_half, 1.5f, 1.5f));
    vx_rigidbody plate_rb = static_body();
    vx_test_spawn_body(w, vx_vec3_zero(), &plate_shape, &plate_rb);
    vx_collider shape = vx_collider_box(half);
    vx_rigidbody rb = free_body(2.0f, 0.0f);
    rb.velocity = vx_vec3_make(speed, 0.0f, 0.0f);
    rb.angular_velocity = spin;
    vx_entity e = vx_test_spawn_rotated(w, vx_vec3_make(-4.0f, y_offset, 0.1f), rotation, &shape, &rb);
    vx_test_stepper s;
    vx_test_stepper_init(&s);
    vx_world_def defaults = vx_world_def_default();
    float deepest = 0.0f;
    for (int k = 1; k <= 40; k++) {
        vx_test_step(w, &s);
        const vx_transform *t = vx_test_transform(w, e);
        vx_vec3 corners[8];
        box_corners(half, t, corners);
        for (int i = 0; i < 8; i++) {
            cr_assert_lt(corners[i].x, plate_half, "%s, step %d: corner %d at x = %g is beyond the plate", what, k,
                         i, (double)corners[i].x);
            deepest = fmaxf(deepest, corners[i].x + plate_half);
        }
        cr_assert_lt(t->position.x, -plate_half, "%s, step %d: centre at x = %g", what, k, (double)t->position.x);
    }
    cr_assert_leq(deepest, defaults.baumgarte_slop, "%s: a corner sank %g m into the plate", what, (double)deepest);
    cr_assert_leq(vx_test_body(w, e)->velocity.x, 1e-3f, "%s: still moving towards the plate at %g m/s", what,
                  (double)vx_test_body(w, e)->velocity.x);
    vx_test_stepper_free(&s);
    vx_registry_destroy(w);
}

Test(ccd, box_at_50_mps_stays_in_front_of_a_thin_plate)
{
    box_against_plate(vx_quat_identity(), vx_vec3_zero(), 0.0f, 50.0f, "axis-aligned");
    box_against_plate(vx_quat_identity(), vx_vec3_zero(), 0.37f, 50.0f, "axis-aligned, off centre");
    vx_quat edge_on = vx_quat_from_axis_angle(vx_vec3_make(0.0f, 1.0f, 0.0f), 0.785398f);
    box_against_plate(edge_on, vx_vec3_zero(), 0.0f, 50.0f, "edge first");
    vx_quat corner_on = vx_quat_mul(vx_quat_from_axis_angle(vx_vec3_make(0.0f, 0.0f, 1.0f), 0.615480f), edge_on);
    box_against_plate(corner_on, vx_vec3_zero(), 0.0f, 50.0f, "corner first");
}

/* count random throws: orientation, spin up to max_spin about a random axis,
 * height within the plate, speed in [speed, speed + spread). */
static void random_throws(uint32_t seed, int count, float speed, float spread, float max_spin)
{
    vx_test_rng rng = {seed};
    for (int i = 0; i < count; i++) {
        vx_vec3 axis = vx_vec3_normalize(vx_vec3_make(vx_test_rng_range(&rng, -1.0f, 1.0f),
                                                      vx_test_rng_range(&rng, -1.0f, 1.0f),
                                                      vx_test_rng_range(&rng, -1.0f, 1.0f)));
        vx_quat q = vx_quat_from_axis_angle(axis, vx_test_rng_range(&rng, 0.0f, 6.28f));
        vx_vec3 spin_axis = vx_vec3_normalize(vx_vec3_make(vx_test_rng_range(&rng, -1.0f, 1.0f),
                                                           vx_test_rng_range(&rng, -1.0f, 1.0f),
                                                           vx_test_rng_range(&rng, -1.0f, 1.0f)));
        vx_vec3 spin = vx_vec3_scale(spin_axis, vx_test_rng_range(&rng, 0.0f, max_spin));
        float y = vx_test_rng_range(&rng, -0.5f, 0.5f);
        float v = speed + vx_test_rng_range(&rng, 0.0f, spread);
        char what[64];
        snprintf(what, sizeof what, "throw #%d at %.1f m/s", i, (double)v);
        box_against_plate(q, spin, y, v, what);
    }
}

Test(ccd, tumbling_box_at_50_mps_stays_in_front_of_a_thin_plate)
{
    random_throws(0x2545f491u, 40, 50.0f, 1.0f, 100.0f);
}

Test(ccd, tumbling_box_at_100_to_200_mps_stays_in_front_of_a_thin_plate)
{
    random_throws(0x6a09e667u, 40, 100.0f, 100.0f, 100.0f);
}

/* ---- nothing is slowed down that did not hit anything ---- */

/* A flight past an obstacle, run beside the same flight without it: every
 * step the two bodies must agree bit for bit (position, orientation,
 * velocities). The path is built to miss: the body's centre moves along d
 * in the plane at (support + miss) from a plane through the obstacle's
 * surface point P with outward normal u, where u is in P's normal cone and
 * d is perpendicular to u, so the body stays on the far side of that plane
 * (a separating plane) by at least `miss` all the way. */
typedef struct {
    vx_collider obstacle;
    vx_transform obstacle_pose;
    vx_collider body;
    vx_quat body_rotation;
    vx_vec3 spin;    /* rad/s */
    vx_vec3 p_local; /* P in the obstacle's frame */
    vx_vec3 u_local; /* unit, in the obstacle's frame */
    vx_vec3 d_local; /* unit, perpendicular to u */
    float speed;
    float miss;
    float phase; /* the start's offset along d, in steps of travel */
} flyby;

/* How far the body reaches from its centre towards -u (world). A tumbling
 * body counts with its bounding sphere. */
static float body_support(const flyby *f, vx_vec3 u)
{
    const vx_collider *c = &f->body;
    if (c->type == VX_SHAPE_SPHERE) return c->radius;
    if (c->type == VX_SHAPE_CAPSULE) {
        if (vx_vec3_length_sq(f->spin) > 0.0f) return c->radius + c->half_height;
        vx_vec3 axis = vx_quat_rotate(f->body_rotation, vx_vec3_make(0.0f, 1.0f, 0.0f));
        return c->radius + c->half_height * fabsf(vx_vec3_dot(axis, u));
    }
    if (vx_vec3_length_sq(f->spin) > 0.0f) return vx_vec3_length(c->half_extents);
    float s = 0.0f;
    for (int i = 0; i < 3; i++) {
        vx_vec3 local = vx_vec3_zero();
        vx_vec3_set(&local, i, 1.0f);
        s += fabsf(vx_vec3_dot(vx_quat_rotate(f->body_rotation, local), u)) * vx_vec3_get(c->half_extents, i);
    }
    return s;
}

#define FLYBY_STEPS 8

/* Steps the flight with and without the obstacle; returns the largest
 * difference of velocity (m/s) seen, *dw_out that of angular velocity
 * (rad/s), and fails the test at once if poses differ while velocities
 * agree. */
static double flyby_deviation(const flyby *f, int *first_step, double *dw_out)
{
    vx_vec3 u = vx_quat_rotate(f->obstacle_pose.rotation, f->u_local);
    vx_vec3 d = vx_quat_rotate(f->obstacle_pose.rotation, f->d_local);
    vx_vec3 p = vx_vec3_add(f->obstacle_pose.position, vx_quat_rotate(f->obstacle_pose.rotation, f->p_local));
    vx_vec3 closest = vx_vec3_add(p, vx_vec3_scale(u, body_support(f, u) + f->miss));
    /* the closest approach comes half way through the run */
    float travel = f->speed * (float)DT;
    float back = travel * ((float)FLYBY_STEPS * 0.5f + f->phase);
    vx_vec3 start = vx_vec3_sub(closest, vx_vec3_scale(d, back));

    vx_registry *worlds[2];
    vx_entity bodies[2];
    vx_test_stepper steppers[2];
    for (int i = 0; i < 2; i++) {
        worlds[i] = vx_test_physics_world();
        if (i == 0) {
            vx_rigidbody rb = static_body();
            vx_entity o = vx_test_spawn_rotated(worlds[i], f->obstacle_pose.position, f->obstacle_pose.rotation,
                                                &f->obstacle, &rb);
            (void)o;
        }
        vx_rigidbody rb = free_body(1.0f, 0.5f);
        rb.velocity = vx_vec3_scale(d, f->speed);
        rb.angular_velocity = f->spin;
        bodies[i] = vx_test_spawn_rotated(worlds[i], start, f->body_rotation, &f->body, &rb);
        vx_test_stepper_init(&steppers[i]);
    }
    double worst = 0.0, worst_w = 0.0;
    *first_step = 0;
    for (int k = 1; k <= FLYBY_STEPS; k++) {
        for (int i = 0; i < 2; i++) vx_test_step(worlds[i], &steppers[i]);
        const vx_rigidbody *a = vx_test_body(worlds[0], bodies[0]);
        const vx_rigidbody *b = vx_test_body(worlds[1], bodies[1]);
        double dv = vx_vec3_length(vx_vec3_sub(a->velocity, b->velocity));
        double dw = vx_vec3_length(vx_vec3_sub(a->angular_velocity, b->angular_velocity));
        double dev = fmax(dv, dw);
        if (dev > 0.0 && *first_step == 0) *first_step = k;
        worst = fmax(worst, dv);
        worst_w = fmax(worst_w, dw);
        if (dev == 0.0) {
            const vx_transform *ta = vx_test_transform(worlds[0], bodies[0]);
            const vx_transform *tb = vx_test_transform(worlds[1], bodies[1]);
            cr_assert(memcmp(&ta->position, &tb->position, sizeof ta->position) == 0 &&
                          memcmp(&ta->rotation, &tb->rotation, sizeof ta->rotation) == 0,
                      "step %d: same velocities, different pose", k);
        }
    }
    for (int i = 0; i < 2; i++) {
        vx_test_stepper_free(&steppers[i]);
        vx_registry_destroy(worlds[i]);
    }
    *dw_out = worst_w;
    return worst;
}

/* Unit vector perpendicular to u at angle theta in the plane normal to u. */
static vx_vec3 perpendicular(vx_vec3 u, float theta)
{
    vx_vec3 helper = fabsf(u.x) < 0.9f ? vx_vec3_make(1.0f, 0.0f, 0.0f) : vx_vec3_make(0.0f, 1.0f, 0.0f);
    vx_vec3 e1 = vx_vec3_normalize(vx_vec3_cross(u, helper));
    vx_vec3 e2 = vx_vec3_cross(u, e1);
    return vx_vec3_normalize(vx_vec3_add(vx_vec3_scale(e1, cosf(theta)), vx_vec3_scale(e2, sinf(theta))));
}

/* The features of a unit cube (half extents 0.5) flown past: a corner, two
 * edges, a face. */
typedef struct {
    vx_vec3 p, u;
    const char *name;
} feature;

static const feature cube_features[] = {
    {{0.5f, 0.5f, 0.5f}, {0.57735027f, 0.57735027f, 0.57735027f}, "corner"},
    {{0.5f, 0.5f, 0.1f}, {0.70710678f, 0.70710678f, 0.0f}, "edge"},
    {{0.5f, -0.2f, 0.5f}, {0.9486833f, 0.0f, 0.31622777f}, "edge, lopsided"},
    {{0.5f, 0.2f, -0.1f}, {1.0f, 0.0f, 0.0f}, "face (skimming)"},
};

/* Runs every feature x 12 directions x 3 phases for one body and speed;
 * returns the number of flights that deviated, the worst change of velocity
 * (and where) and of angular velocity. */
static int fly_past_cube(const vx_collider *body, vx_vec3 spin, float speed, float miss, double *worst_out,
                         double *worst_w_out, char *worst_what, size_t worst_what_size)
{
    int bad = 0;
    *worst_out = 0.0;
    *worst_w_out = 0.0;
    vx_quat obstacle_rotation = vx_quat_from_axis_angle(vx_vec3_normalize(vx_vec3_make(0.3f, 1.0f, 0.2f)), 0.4f);
    vx_quat body_rotation = vx_quat_from_axis_angle(vx_vec3_normalize(vx_vec3_make(1.0f, 0.2f, -0.5f)), 0.7f);
    for (size_t fi = 0; fi < sizeof cube_features / sizeof cube_features[0]; fi++) {
        for (int dir = 0; dir < 12; dir++) {
            for (int phase = 0; phase < 3; phase++) {
                flyby f;
                memset(&f, 0, sizeof f);
                f.obstacle = vx_collider_box(vx_vec3_make(0.5f, 0.5f, 0.5f));
                f.obstacle_pose = vx_transform_from_position(vx_vec3_make(1.0f, 2.0f, -1.0f));
                f.obstacle_pose.rotation = obstacle_rotation;
                f.body = *body;
                f.body_rotation = body_rotation;
                f.spin = spin;
                f.p_local = cube_features[fi].p;
                f.u_local = vx_vec3_normalize(cube_features[fi].u);
                f.d_local = perpendicular(f.u_local, (float)dir * 0.5235988f);
                f.speed = speed;
                f.miss = miss;
                f.phase = (float)phase / 3.0f;
                int step = 0;
                double dw = 0.0;
                double dev = flyby_deviation(&f, &step, &dw);
                *worst_w_out = fmax(*worst_w_out, dw);
                if (dev > 0.0 || dw > 0.0) {
                    bad++;
                    if (dev > *worst_out) {
                        *worst_out = dev;
                        snprintf(worst_what, worst_what_size, "%s, direction %d, phase %d, step %d",
                                 cube_features[fi].name, dir, phase, step);
                    }
                }
            }
        }
    }
    return bad;
}

static void expect_no_ghosts(const vx_collider *body, vx_vec3 spin, float speed, float miss, const char *what)
{
    double worst = 0.0, worst_w = 0.0;
    char worst_what[128] = "";
    int bad = fly_past_cube(body, spin, speed, miss, &worst, &worst_w, worst_what, sizeof worst_what);
    cr_expect_eq(bad, 0,
                 "%s at %g m/s, missing by %g m: %d of 144 flights were disturbed, velocity by up to %g m/s (%s), "
                 "angular velocity by up to %g rad/s",
                 what, (double)speed, (double)miss, bad, worst, worst_what, worst_w);
}

Test(ccd, sphere_flying_past_corners_edges_and_faces_keeps_its_velocity)
{
    vx_collider ball = vx_collider_sphere(0.1f);
    expect_no_ghosts(&ball, vx_vec3_zero(), 200.0f, 0.03f, "sphere");
    expect_no_ghosts(&ball, vx_vec3_zero(), 60.0f, 0.03f, "sphere");
    expect_no_ghosts(&ball, vx_vec3_zero(), 20.0f, 0.05f, "sphere");
}

Test(ccd, box_flying_past_corners_edges_and_faces_keeps_its_velocity)
{
    vx_collider box = vx_collider_box(vx_vec3_make(0.1f, 0.15f, 0.2f));
    expect_no_ghosts(&box, vx_vec3_zero(), 50.0f, 0.03f, "box");
    expect_no_ghosts(&box, vx_vec3_zero(), 200.0f, 0.05f, "box");
}

Test(ccd, tumbling_box_flying_past_corners_edges_and_faces_keeps_its_velocity)
{
    vx_collider box = vx_collider_box(vx_vec3_make(0.1f, 0.1f, 0.1f));
    expect_no_ghosts(&box, vx_vec3_make(10.0f, -20.0f, 5.0f), 50.0f, 0.03f, "tumbling box");
}

Test(ccd, capsule_flying_past_corners_edges_and_faces_keeps_its_velocity)
{
    vx_collider capsule = vx_collider_capsule(0.05f, 0.2f);
    expect_no_ghosts(&capsule, vx_vec3_zero(), 100.0f, 0.03f, "capsule");
}

/* The ghost tests above with something else going on: a sphere rolling at
 * 30 m/s along the floor past a box (5 cm gap) and past the box's corner.
 * The floor contact works every step; the box must change nothing. */
Test(ccd, sphere_rolling_fast_past_a_box_on_the_floor_is_not_touched_by_it)
{
    const float r = 0.25f;
    const float gaps[] = {0.05f, 0.03f};
    const float angles[] = {0.0f, 0.05f, -0.05f}; /* along the box side, then slanting past its ends */
    for (size_t gi = 0; gi < 2; gi++) {
        for (size_t ai = 0; ai < 3; ai++) {
            vx_registry *worlds[2];
            vx_entity ball[2];
            vx_test_stepper s[2];
            for (int i = 0; i < 2; i++) {
                worlds[i] = vx_test_physics_world();
                vx_collider floor_shape = vx_collider_box(vx_vec3_make(50.0f, 1.0f, 50.0f));
                vx_test_spawn_body(worlds[i], vx_vec3_make(0.0f, -1.0f, 0.0f), &floor_shape, NULL);
                if (i == 0) {
                    /* side face at z = -gap - r from the ball's line, ends at x = +-1 */
                    vx_collider box = vx_collider_box(vx_vec3_make(1.0f, 0.5f, 0.5f));
                    vx_test_spawn_body(worlds[i], vx_vec3_make(0.0f, 0.5f, -0.5f - gaps[gi] - r), &box, NULL);
                }
                vx_collider shape = vx_collider_sphere(r);
                vx_rigidbody rb = vx_rigidbody_dynamic(1.0f);
                rb.velocity = vx_vec3_make(30.0f * cosf(angles[ai]), 0.0f, 30.0f * sinf(angles[ai]));
                rb.angular_velocity = vx_vec3_make(rb.velocity.z / r, 0.0f, -rb.velocity.x / r); /* rolling */
                /* The straight path keeps the gap along the whole side. The
                 * slanting ones cross the side's line (z = 0 for the centre)
                 * at an end of the box, x = -1 going away from it, x = +1
                 * going past its far end: the least gap, at the end's edge,
                 * is the gap times cos(angle) less r (1 - cos), 0.4 mm less. */
                const float x0 = -6.0f;
                float z0 = 0.0f;
                if (angles[ai] > 0.0f) z0 = tanf(angles[ai]) * (x0 + 1.0f);
                if (angles[ai] < 0.0f) z0 = tanf(angles[ai]) * (x0 - 1.0f);
                ball[i] = vx_test_spawn_body(worlds[i], vx_vec3_make(x0, r, z0), &shape, &rb);
                vx_test_stepper_init(&s[i]);
            }
            for (int k = 1; k <= 30; k++) {
                for (int i = 0; i < 2; i++) vx_test_step(worlds[i], &s[i]);
                const vx_rigidbody *a = vx_test_body(worlds[0], ball[0]);
                const vx_rigidbody *b = vx_test_body(worlds[1], ball[1]);
                const vx_transform *ta = vx_test_transform(worlds[0], ball[0]);
                const vx_transform *tb = vx_test_transform(worlds[1], ball[1]);
                cr_assert(memcmp(&a->velocity, &b->velocity, sizeof a->velocity) == 0 &&
                              memcmp(&a->angular_velocity, &b->angular_velocity, sizeof a->angular_velocity) == 0 &&
                              memcmp(&ta->position, &tb->position, sizeof ta->position) == 0,
                          "gap %g, angle %g, step %d: v (%g %g %g) without the box (%g %g %g)", (double)gaps[gi],
                          (double)angles[ai], k, (double)a->velocity.x, (double)a->velocity.y,
                          (double)a->velocity.z, (double)b->velocity.x, (double)b->velocity.y,
                          (double)b->velocity.z);
            }
            for (int i = 0; i < 2; i++) {
                vx_test_stepper_free(&s[i]);
                vx_registry_destroy(worlds[i]);
            }
        }
    }
}

/* ---- dynamic against dynamic: bullet ---- */

/* Distance from p to an oriented box (0 inside). */
static float distance_to_box(vx_vec3 p, const vx_transform *t, vx_vec3 half)
{
    vx_vec3 local = vx_quat_rotate(vx_quat_conjugate(t->rotation), vx_vec3_sub(p, t->position));
    vx_vec3 out = vx_vec3_make(fmaxf(fabsf(local.x) - half.x, 0.0f), fmaxf(fabsf(local.y) - half.y, 0.0f),
                               fmaxf(fabsf(local.z) - half.z, 0.0f));
    return vx_vec3_length(out);
}


typedef struct {
    vx_registry *w;
    vx_entity a, b;
    vx_test_stepper s;
} sphere_pair;

/* Two 0.1 m spheres of 1 kg on the x axis flying at each other at speed
 * each; the left one is a bullet when asked. */
static void sphere_pair_init(sphere_pair *p, float speed, float gap, bool bullet, float restitution)
{
    p->w = vx_test_physics_world();
    vx_collider ball = vx_collider_sphere(0.1f);
    vx_rigidbody rb = free_body(1.0f, restitution);
    rb.friction = 0.0f;
    rb.bullet = bullet;
    rb.velocity = vx_vec3_make(speed, 0.0f, 0.0f);
    p->a = vx_test_spawn_body(p->w, vx_vec3_make(-0.1f - 0.5f * gap, 1.0f, 0.0f), &ball, &rb);
    rb.bullet = false;
    rb.velocity = vx_vec3_make(0.0f - speed, 0.0f, 0.0f);
    p->b = vx_test_spawn_body(p->w, vx_vec3_make(0.1f + 0.5f * gap, 1.0f, 0.0f), &ball, &rb);
    vx_test_stepper_init(&p->s);
}

static void sphere_pair_free(sphere_pair *p)
{
    vx_test_stepper_free(&p->s);
    vx_registry_destroy(p->w);
}

/* 150 m/s each (5 m per step closing, 25 diameters): with one bullet they
 * meet, never overlap, and share the momentum as a collision of equal
 * masses does: restitution 0 stops both, 1 sends both back at 150 m/s. */
Test(ccd, bullet_sphere_and_fast_sphere_collide_head_on)
{
    const float restitutions[] = {0.0f, 1.0f};
    for (int ri = 0; ri < 2; ri++) {
        for (int phase = 0; phase < 5; phase++) {
            sphere_pair p;
            sphere_pair_init(&p, 150.0f, 6.0f + 1.1f * (float)phase, true, restitutions[ri]);
            for (int k = 1; k <= 8; k++) {
                vx_test_step(p.w, &p.s);
                float xa = vx_test_transform(p.w, p.a)->position.x, xb = vx_test_transform(p.w, p.b)->position.x;
                cr_assert_geq(xb - xa, 0.2f - 1e-3f, "e %g, phase %d, step %d: centres %g apart",
                              (double)restitutions[ri], phase, k, (double)(xb - xa));
                float momentum = vx_test_body(p.w, p.a)->velocity.x + vx_test_body(p.w, p.b)->velocity.x;
                VX_ASSERT_NEAR(momentum, 0.0, 1e-3);
            }
            float expected = restitutions[ri] * 150.0f;
            VX_ASSERT_NEAR(vx_test_body(p.w, p.a)->velocity.x, 0.0f - expected, 1e-2 * 150.0);
            VX_ASSERT_NEAR(vx_test_body(p.w, p.b)->velocity.x, expected, 1e-2 * 150.0);
            sphere_pair_free(&p);
        }
    }
}

/* The same spheres without a bullet. The interface promises continuous
 * collision between dynamic bodies only with `bullet`: at 150 m/s each they
 * may pass through each other. What holds anyway: linear momentum is
 * conserved, no energy appears, everything stays finite. */
Test(ccd, fast_spheres_without_bullet_keep_momentum_and_gain_no_energy)
{
    for (int phase = 0; phase < 5; phase++) {
        sphere_pair p;
        sphere_pair_init(&p, 150.0f, 6.0f + 1.1f * (float)phase, false, 1.0f);
        for (int k = 1; k <= 8; k++) {
            vx_test_step(p.w, &p.s);
            vx_vec3 va = vx_test_body(p.w, p.a)->velocity, vb = vx_test_body(p.w, p.b)->velocity;
            cr_assert(vx_vec3_is_finite(va) && vx_vec3_is_finite(vb));
            VX_ASSERT_VEC3_NEAR(vx_vec3_add(va, vb), 0.0f, 0.0f, 0.0f, 1e-3);
            double energy = 0.5 * ((double)vx_vec3_length_sq(va) + (double)vx_vec3_length_sq(vb));
            cr_assert_leq(energy, 150.0 * 150.0 * (1.0 + 1e-5), "phase %d, step %d: energy %g", phase, k, energy);
        }
        sphere_pair_free(&p);
    }
}

/* Without bullet, dynamic bodies at ordinary speeds still collide as
 * before: contacts are made ahead for what the pair closes in a step, up to
 * the sum of the two bodies' half thicknesses. 5 m/s each (17 cm per step
 * closing, under the 20 cm of two 0.1 m spheres): they meet at the surface
 * and bounce. */
Test(ccd, ordinary_speed_spheres_without_bullet_collide_at_the_surface)
{
    for (int phase = 0; phase < 5; phase++) {
        sphere_pair p;
        sphere_pair_init(&p, 5.0f, 1.0f + 0.037f * (float)phase, false, 1.0f);
        for (int k = 1; k <= 20; k++) {
            vx_test_step(p.w, &p.s);
            float xa = vx_test_transform(p.w, p.a)->position.x, xb = vx_test_transform(p.w, p.b)->position.x;
            cr_assert_geq(xb - xa, 0.2f - 1e-3f, "phase %d, step %d: centres %g apart", phase, k, (double)(xb - xa));
        }
        VX_ASSERT_NEAR(vx_test_body(p.w, p.a)->velocity.x, -5.0, 0.05);
        VX_ASSERT_NEAR(vx_test_body(p.w, p.b)->velocity.x, 5.0, 0.05);
        sphere_pair_free(&p);
    }
}

/* A bullet sphere at 200 m/s against a free dynamic plate (1 cm, 10 kg),
 * hit in the middle: it stays on its side and hands over its momentum
 * (restitution 0: they move on together at m v / (m + M)). */
Test(ccd, bullet_sphere_pushes_a_thin_dynamic_plate_instead_of_passing_it)
{
    const vx_vec3 half = vx_vec3_make(0.005f, 1.0f, 1.0f);
    vx_registry *w = vx_test_physics_world();
    vx_collider plate_shape = vx_collider_box(half);
    vx_rigidbody plate_rb = free_body(10.0f, 0.0f);
    plate_rb.friction = 0.0f;
    vx_entity plate = vx_test_spawn_body(w, vx_vec3_zero(), &plate_shape, &plate_rb);
    vx_collider ball = vx_collider_sphere(0.1f);
    vx_rigidbody rb = free_body(1.0f, 0.0f);
    rb.friction = 0.0f;
    rb.bullet = true;
    rb.velocity = vx_vec3_make(200.0f, 0.0f, 0.0f);
    vx_entity e = vx_test_spawn_body(w, vx_vec3_make(-4.3f, 0.0f, 0.0f), &ball, &rb);
    vx_test_stepper s;
    vx_test_stepper_init(&s);
    for (int k = 1; k <= 10; k++) {
        vx_test_step(w, &s);
        float x = vx_test_transform(w, e)->position.x, plate_x = vx_test_transform(w, plate)->position.x;
        cr_assert_lt(x, plate_x, "step %d: the ball is beyond the plate", k);
        float gap = distance_to_box(vx_test_transform(w, e)->position, vx_test_transform(w, plate), half) - 0.1f;
        cr_assert_geq(gap, -1e-3f, "step %d: the ball is %g m into the plate", k, (double)-gap);
    }
    VX_ASSERT_NEAR(vx_test_body(w, e)->velocity.x, 200.0 / 11.0, 0.01 * 200.0 / 11.0);
    VX_ASSERT_NEAR(vx_test_body(w, plate)->velocity.x, 200.0 / 11.0, 0.01 * 200.0 / 11.0);
    vx_test_stepper_free(&s);
    vx_registry_destroy(w);
}

/* ---- corners, kinematic bodies ---- */

/* A sphere at 200 m/s aimed straight at a static box's corner (and a little
 * beside it, so either face or edge or corner meets it first). It never gets
 * into the box and ends on the near side of the corner. */
Test(ccd, fast_sphere_hitting_a_static_box_corner_on_stays_outside)
{
    const float r = 0.1f;
    const vx_vec3 half = vx_vec3_make(0.5f, 0.5f, 0.5f);
    vx_transform box_pose = vx_transform_from_position(vx_vec3_make(0.0f, 1.0f, 0.0f));
    box_pose.rotation = vx_quat_from_axis_angle(vx_vec3_normalize(vx_vec3_make(1.0f, 2.0f, 0.5f)), 0.6f);
    vx_vec3 corner = vx_vec3_add(box_pose.position, vx_quat_rotate(box_pose.rotation, half));
    vx_vec3 diagonal = vx_vec3_normalize(vx_quat_rotate(box_pose.rotation, half));
    vx_test_rng rng = {0x9e3779b9u};
    for (int i = 0; i < 12; i++) {
        vx_registry *w = vx_test_physics_world();
        vx_collider shape = vx_collider_box(half);
        vx_rigidbody srb = static_body();
        vx_test_spawn_rotated(w, box_pose.position, box_pose.rotation, &shape, &srb);
        /* aim at the corner plus up to 5 cm, from a random direction in the corner's outside cone */
        vx_vec3 aim = vx_vec3_add(corner, vx_vec3_make(vx_test_rng_range(&rng, -0.05f, 0.05f),
                                                       vx_test_rng_range(&rng, -0.05f, 0.05f),
                                                       vx_test_rng_range(&rng, -0.05f, 0.05f)));
        vx_vec3 from = vx_vec3_normalize(vx_vec3_add(diagonal, vx_vec3_make(vx_test_rng_range(&rng, -0.3f, 0.3f),
                                                                           vx_test_rng_range(&rng, -0.3f, 0.3f),
                                                                           vx_test_rng_range(&rng, -0.3f, 0.3f))));
        vx_collider ball = vx_collider_sphere(r);
        vx_rigidbody rb = free_body(1.0f, 0.0f);
        rb.velocity = vx_vec3_scale(from, -200.0f);
        float back = 200.0f * (float)DT * (2.0f + vx_test_rng_range(&rng, 0.0f, 1.0f));
        vx_entity e = vx_test_spawn_body(w, vx_vec3_add(aim, vx_vec3_scale(from, back)), &ball, &rb);
        vx_test_stepper s;
        vx_test_stepper_init(&s);
        for (int k = 1; k <= 6; k++) {
            vx_test_step(w, &s);
            float d = distance_to_box(vx_test_transform(w, e)->position, &box_pose, half);
            cr_assert_geq(d, r - 1e-3f, "shot %d, step %d: the centre is %g from the box", i, k, (double)d);
        }
        vx_test_stepper_free(&s);
        vx_registry_destroy(w);
    }
}

/* A box tumbling at 50 m/s into a static box's corner: no corner of it gets
 * more than the position slop into the static box. */
Test(ccd, tumbling_box_hitting_a_static_box_corner_on_stays_outside)
{
    const vx_vec3 half = vx_vec3_make(0.5f, 0.5f, 0.5f), small = vx_vec3_make(0.1f, 0.1f, 0.1f);
    vx_transform box_pose = vx_transform_from_position(vx_vec3_make(0.0f, 1.0f, 0.0f));
    vx_vec3 corner = vx_vec3_add(box_pose.position, half);
    vx_vec3 diagonal = vx_vec3_normalize(half);
    vx_world_def defaults = vx_world_def_default();
    vx_test_rng rng = {0x1234567u};
    for (int i = 0; i < 12; i++) {
        vx_registry *w = vx_test_physics_world();
        vx_collider shape = vx_collider_box(half);
        vx_rigidbody srb = static_body();
        vx_test_spawn_body(w, box_pose.position, &shape, &srb);
        vx_vec3 from = vx_vec3_normalize(vx_vec3_add(diagonal, vx_vec3_make(vx_test_rng_range(&rng, -0.2f, 0.2f),
                                                                           vx_test_rng_range(&rng, -0.2f, 0.2f),
                                                                           vx_test_rng_range(&rng, -0.2f, 0.2f))));
        vx_collider cube = vx_collider_box(small);
        vx_rigidbody rb = free_body(1.0f, 0.0f);
        rb.velocity = vx_vec3_scale(from, -50.0f);
        rb.angular_velocity =
            vx_vec3_make(vx_test_rng_range(&rng, -30.0f, 30.0f), vx_test_rng_range(&rng, -30.0f, 30.0f),
                         vx_test_rng_range(&rng, -30.0f, 30.0f));
        vx_quat q = vx_quat_from_axis_angle(vx_vec3_normalize(vx_vec3_make(1.0f, -1.0f, 0.3f)),
                                            vx_test_rng_range(&rng, 0.0f, 3.0f));
        float back = 50.0f * (float)DT * (2.0f + vx_test_rng_range(&rng, 0.0f, 1.0f)) + 0.3f;
        vx_entity e = vx_test_spawn_rotated(w, vx_vec3_add(corner, vx_vec3_scale(from, back)), q, &cube, &rb);
        vx_test_stepper s;
        vx_test_stepper_init(&s);
        for (int k = 1; k <= 10; k++) {
            vx_test_step(w, &s);
            vx_vec3 corners[8];
            box_corners(small, vx_test_transform(w, e), corners);
            for (int c = 0; c < 8; c++) {
                /* depth of the corner in the static box */
                vx_vec3 local = vx_vec3_sub(corners[c], box_pose.position);
                float depth = fminf(fminf(half.x - fabsf(local.x), half.y - fabsf(local.y)), half.z - fabsf(local.z));
                cr_assert_leq(depth, defaults.baumgarte_slop, "shot %d, step %d: corner %d is %g m deep", i, k, c,
                              (double)depth);
            }
        }
        vx_test_stepper_free(&s);
        vx_registry_destroy(w);
    }
}

/* A kinematic paddle at 100 m/s (1.7 m per step) sweeping into a resting
 * ball: kinematic bodies count as moving geometry, so the ball is hit, not
 * passed through; it ends ahead of the paddle at least as fast. */
Test(ccd, fast_kinematic_paddle_hits_the_ball_in_its_way)
{
    vx_registry *w = vx_test_physics_world();
    vx_collider paddle_shape = vx_collider_box(vx_vec3_make(0.02f, 0.5f, 0.5f));
    vx_rigidbody paddle_rb = vx_rigidbody_kinematic();
    paddle_rb.velocity = vx_vec3_make(100.0f, 0.0f, 0.0f);
    vx_entity paddle = vx_test_spawn_body(w, vx_vec3_make(-5.0f, 0.0f, 0.0f), &paddle_shape, &paddle_rb);
    vx_collider ball = vx_collider_sphere(0.1f);
    vx_rigidbody rb = free_body(1.0f, 0.0f);
    vx_entity e = vx_test_spawn_body(w, vx_vec3_make(0.0f, 0.2f, 0.1f), &ball, &rb);
    vx_test_stepper s;
    vx_test_stepper_init(&s);
    for (int k = 1; k <= 8; k++) {
        vx_test_step(w, &s);
        float ahead = vx_test_transform(w, e)->position.x - vx_test_transform(w, paddle)->position.x;
        cr_assert_geq(ahead, 0.12f - 1e-3f, "step %d: the ball is %g m ahead of the paddle's centre", k, (double)ahead);
    }
    cr_assert_geq(vx_test_body(w, e)->velocity.x, 100.0f - 1e-2f);
    vx_test_stepper_free(&s);
    vx_registry_destroy(w);
}

/* ---- determinism ---- */

/* A scene of fast things (bullets, tumbling boxes at a plate, near misses,
 * a falling pile) run twice gives the same bytes. */
static void run_fast_scene(vx_transform *poses, vx_rigidbody *bodies, size_t n)
{
    vx_registry *w = vx_test_physics_world();
    vx_collider floor_shape = vx_collider_box(vx_vec3_make(20.0f, 1.0f, 20.0f));
    vx_test_spawn_body(w, vx_vec3_make(0.0f, -1.0f, 0.0f), &floor_shape, NULL);
    vx_collider plate = vx_collider_box(vx_vec3_make(0.005f, 1.0f, 1.0f));
    vx_test_spawn_body(w, vx_vec3_make(0.0f, 1.0f, 0.0f), &plate, NULL);
    vx_entity e[16];
    vx_test_rng rng = {0xdecafbadu};
    cr_assert_leq(n, 16);
    for (size_t i = 0; i < n; i++) {
        vx_collider c = (i % 3 == 0)   ? vx_collider_sphere(0.1f)
                        : (i % 3 == 1) ? vx_collider_box(vx_vec3_make(0.1f, 0.15f, 0.1f))
                                       : vx_collider_capsule(0.05f, 0.15f);
        vx_rigidbody rb = vx_rigidbody_dynamic(1.0f);
        rb.bullet = (i % 4) == 0;
        rb.velocity = vx_vec3_make(vx_test_rng_range(&rng, 20.0f, 120.0f), vx_test_rng_range(&rng, -5.0f, 5.0f),
                                   vx_test_rng_range(&rng, -3.0f, 3.0f));
        rb.angular_velocity = vx_vec3_make(vx_test_rng_range(&rng, -20.0f, 20.0f),
                                           vx_test_rng_range(&rng, -20.0f, 20.0f), 0.0f);
        vx_vec3 p = vx_vec3_make(vx_test_rng_range(&rng, -6.0f, -2.0f), vx_test_rng_range(&rng, 0.3f, 2.2f),
                                 vx_test_rng_range(&rng, -1.2f, 1.2f));
        e[i] = vx_test_spawn_body(w, p, &c, &rb);
    }
    vx_test_stepper s;
    vx_test_stepper_init(&s);
    for (int k = 0; k < 90; k++) vx_test_step(w, &s);
    for (size_t i = 0; i < n; i++) {
        poses[i] = *vx_test_transform(w, e[i]);
        bodies[i] = *vx_test_body(w, e[i]);
    }
    vx_test_stepper_free(&s);
    vx_registry_destroy(w);
}

Test(ccd, fast_scene_is_deterministic)
{
    enum { N = 16 };
    vx_transform p1[N], p2[N];
    vx_rigidbody b1[N], b2[N];
    run_fast_scene(p1, b1, N);
    run_fast_scene(p2, b2, N);
    for (int i = 0; i < N; i++) {
        cr_assert(memcmp(&p1[i].position, &p2[i].position, sizeof p1[i].position) == 0, "body %d", i);
        cr_assert(memcmp(&p1[i].rotation, &p2[i].rotation, sizeof p1[i].rotation) == 0, "body %d", i);
        cr_assert(memcmp(&b1[i].velocity, &b2[i].velocity, sizeof b1[i].velocity) == 0, "body %d", i);
        cr_assert(memcmp(&b1[i].angular_velocity, &b2[i].angular_velocity, sizeof b1[i].angular_velocity) == 0,
                  "body %d", i);
        cr_assert(vx_vec3_is_finite(p1[i].position), "body %d", i);
    }
}

/* ---- the sweep (time_of_impact.h) against closed-form times ---- */

static vx_toi_body toi_body(const vx_collider *c, vx_vec3 x, vx_vec3 v, vx_vec3 w, float sweep_radius)
{
    vx_toi_body b;
    b.shape = c;
    b.x = x;
    b.q = vx_quat_identity();
    b.v = v;
    b.w = w;
    b.sweep_radius = sweep_radius;
    b.inset = 0.0f;
    b.part = NULL;
    return b;
}

/* A 0.1 m sphere at 30 m/s towards a resting 0.2 m sphere 1 m away touches
 * after (1 - 0.3) / 30 s. The sweep stops no later than that, within the
 * tolerance's worth of travel before it, and never with the shapes closer
 * than half the tolerance. */
Test(toi, sphere_against_sphere_meets_at_the_closed_form_time)
{
    vx_collider small = vx_collider_sphere(0.1f), big = vx_collider_sphere(0.2f);
    vx_toi_body a =
        toi_body(&small, vx_vec3_make(-1.0f, 0.0f, 0.0f), vx_vec3_make(30.0f, 0.0f, 0.0f), vx_vec3_zero(), 0.0f);
    vx_toi_body b = toi_body(&big, vx_vec3_zero(), vx_vec3_zero(), vx_vec3_zero(), 0.0f);
    const float tol = 1e-3f;
    float t = -1.0f;
    cr_assert(vx_time_of_impact(&a, &b, 0.05f, tol, &t));
    double exact = 0.7 / 30.0;
    cr_assert_leq(t, exact + 1e-6, "t = %.9g after the touch at %.9g", (double)t, exact);
    cr_assert_geq(t, exact - tol / 30.0 - 1e-6, "t = %.9g, touch at %.9g", (double)t, exact);
    /* stopping short of the window: no impact */
    cr_assert_not(vx_time_of_impact(&a, &b, 0.02f, tol, &t));
}

/* A 0.1 m sphere at 30 m/s against a mesh triangle (the sweep meets a
 * sphere without the prism's hull): falling onto its face from 1 m up it
 * touches after 0.9 / 30 s; rolling in the triangle's plane towards an
 * edge from 0.5 m beside it, after 0.4 / 30 s; passing 1 cm wide of that
 * edge, never. */
Test(toi, sphere_against_a_mesh_triangle_meets_at_the_closed_form_time)
{
    vx_vec3 corners[3] = {vx_vec3_make(-5.0f, 0.0f, -5.0f), vx_vec3_make(-5.0f, 0.0f, 5.0f),
                          vx_vec3_make(5.0f, 0.0f, -5.0f)};
    uint32_t indices[3] = {0, 1, 2};
    vx_mesh *mesh = NULL;
    vx_error err;
    cr_assert_eq(vx_mesh_build(corners, 3, indices, 1, &mesh, &err), VX_OK, "%s", err.message);
    vx_collider ground = vx_collider_mesh(mesh), ball = vx_collider_sphere(0.1f);
    vx_toi_body m = toi_body(&ground, vx_vec3_zero(), vx_vec3_zero(), vx_vec3_zero(), 0.0f);
    const float tol = 1e-3f;
    struct {
        vx_vec3 x, v;
        double exact; /* < 0: no impact */
    } cases[] = {
        {{-2.0f, 1.0f, -2.0f}, {0.0f, -30.0f, 0.0f}, 0.9 / 30.0},
        {{-5.5f, 0.0f, 0.0f}, {30.0f, 0.0f, 0.0f}, 0.4 / 30.0},
        {{-5.5f, 0.11f, 6.0f}, {30.0f, 0.0f, 0.0f}, -1.0},
    };
    for (int i = 0; i < 3; i++) {
        vx_toi_body b = toi_body(&ball, cases[i].x, cases[i].v, vx_vec3_zero(), 0.0f);
        float t = -1.0f;
        bool hit = vx_time_of_impact(&m, &b, 0.05f, tol, &t);
        if (cases[i].exact < 0.0) {
            cr_assert_not(hit, "case %d: t = %g", i, (double)t);
            continue;
        }
        cr_assert(hit, "case %d", i);
        cr_assert_leq(t, cases[i].exact + 1e-6, "case %d: t = %.9g after the touch at %.9g", i, (double)t,
                      cases[i].exact);
        cr_assert_geq(t, cases[i].exact - tol / 30.0 - 1e-6, "case %d: t = %.9g, touch at %.9g", i, (double)t,
                      cases[i].exact);
        /* either way round */
        cr_assert(vx_time_of_impact(&b, &m, 0.05f, tol, &t), "case %d reversed", i);
        cr_assert_leq(t, cases[i].exact + 1e-6, "case %d reversed: t = %.9g", i, (double)t);
    }
    vx_mesh_destroy(mesh);
}

/* The same sphere passing 3 cm wide of the other at 200 m/s: no impact. */
Test(toi, near_miss_is_no_impact)
{
    vx_collider small = vx_collider_sphere(0.1f), big = vx_collider_sphere(0.2f);
    vx_toi_body a =
        toi_body(&small, vx_vec3_make(-2.0f, 0.33f, 0.0f), vx_vec3_make(200.0f, 0.0f, 0.0f), vx_vec3_zero(), 0.0f);
    vx_toi_body b = toi_body(&big, vx_vec3_zero(), vx_vec3_zero(), vx_vec3_zero(), 0.0f);
    float t = -1.0f;
    cr_assert_not(vx_time_of_impact(&a, &b, 1.0f / 60.0f, 1e-3f, &t));
    /* 1 cm closer than touching: an impact */
    a.x.y = 0.29f;
    cr_assert(vx_time_of_impact(&a, &b, 1.0f / 60.0f, 1e-3f, &t));
}

/* A unit cube turning at 10 rad/s about z above a floor whose top is 0.6 m
 * below its centre: its lowest corner is 0.5 (cos a + sin a) down after
 * turning by a, so it touches at a = asin(1.2 / sqrt 2) - 45 degrees. The
 * sweep finds that time from the side of no contact, turning only. */
Test(toi, turning_box_meets_the_floor_at_the_closed_form_angle)
{
    vx_collider cube = vx_collider_box(vx_vec3_make(0.5f, 0.5f, 0.5f));
    vx_collider floor_shape = vx_collider_box(vx_vec3_make(5.0f, 0.5f, 5.0f));
    const float w = 10.0f;
    vx_toi_body a = toi_body(&cube, vx_vec3_zero(), vx_vec3_zero(), vx_vec3_make(0.0f, 0.0f, w),
                             vx_vec3_length(cube.half_extents));
    vx_toi_body b = toi_body(&floor_shape, vx_vec3_make(0.0f, -1.1f, 0.0f), vx_vec3_zero(), vx_vec3_zero(), 0.0f);
    const float tol = 1e-3f;
    float t = -1.0f;
    cr_assert(vx_time_of_impact(&a, &b, 0.05f, tol, &t));
    double angle = asin(1.2 / sqrt(2.0)) - 3.14159265358979 / 4.0;
    double exact = angle / (double)w;
    /* the corner approaches at 0.5 w (cos a - sin a) there */
    double approach = 0.5 * (double)w * (cos(angle) - sin(angle));
    cr_assert_leq(t, exact + 1e-5, "t = %.9g after the touch at %.9g", (double)t, exact);
    cr_assert_geq(t, exact - tol / approach - 1e-5, "t = %.9g, touch at %.9g", (double)t, exact);
    /* at the time found the corner is above the floor, by at most the tolerance */
    vx_transform pose = vx_toi_body_pose(&a, t);
    vx_transform floor_pose = vx_transform_from_position(b.x);
    float gap = vx_toi_gap_along(&cube, &pose, &floor_shape, &floor_pose, vx_vec3_make(0.0f, -1.0f, 0.0f));
    cr_assert(gap >= 0.5f * tol - 1e-6f && gap <= tol + 1e-6f, "gap %g at the impact", (double)gap);
}
