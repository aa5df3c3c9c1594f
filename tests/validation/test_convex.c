/* Validation of convex hull bodies against geometry and mechanics:
 * - convex_rest: a tetrahedron, a wedge, a hexagonal prism, a second prism
 *   across the first and an irregular rock fall onto a floor and come to
 *   rest on a face (the lowest corner on the floor, the top prism on the
 *   bottom one's top face), never gaining energy, never sinking in;
 * - convex_ramp: a convex block on a 20 degree ramp slides at
 *   g (sin t - mu cos t) with mu 0.1 and sticks with mu 0.6, without
 *   turning;
 * - convex_vs_box: the hull of a box's corners, dropped tumbling, follows
 *   the box beside it step by step. */
#include <criterion/criterion.h>

#include "test_validation.h"

TestSuite(validation, .fini = vx_validation_fini);

#define VX_PI 3.14159265358979323846

/* The lowest y of entity i's hull corners in its current state. */
static double lowest_corner(const vx_validation *v, size_t i)
{
    const vx_hull *h = vx_validation_collider(v, i)->hull;
    const vx_body_state *s = &v->now[i];
    double lowest = INFINITY;
    for (size_t k = 0; k < vx_hull_get_info(h).vertex_count; k++) {
        vx_vec3 p = vx_vec3_add(s->p, vx_quat_rotate(s->q, vx_hull_vertex(h, k)));
        if (p.y < lowest) lowest = p.y;
    }
    return lowest;
}

static double highest_corner(const vx_validation *v, size_t i)
{
    const vx_hull *h = vx_validation_collider(v, i)->hull;
    const vx_body_state *s = &v->now[i];
    double highest = -INFINITY;
    for (size_t k = 0; k < vx_hull_get_info(h).vertex_count; k++) {
        vx_vec3 p = vx_vec3_add(s->p, vx_quat_rotate(s->q, vx_hull_vertex(h, k)));
        if (p.y > highest) highest = p.y;
    }
    return highest;
}

Test(validation, convex_bodies_come_to_rest_on_a_face)
{
    vx_validation *v = vx_validation_open("validation/convex_rest");
    double e0 = vx_validation_total_energy(v, v->start), deepest = 0.0;
    size_t floor = vx_validation_entity(v, "floor");
    for (int n = 0; n < 300; n++) {
        vx_validation_step(v);
        cr_assert_leq(vx_validation_total_energy(v, v->now), e0 + 1e-3 * fabs(e0), "step %d: energy grew", n);
        if (n >= 120)
            for (size_t k = 0; k < v->report->count; k++)
                if (v->report->items[k].depth > deepest) deepest = v->report->items[k].depth;
    }
    cr_assert_lt(deepest, 0.01, "a settled contact %g m deep", deepest);
    const char *on_floor[] = {"tetra", "wedge", "prism", "rock"};
    for (size_t k = 0; k < 4; k++) {
        size_t i = vx_validation_entity(v, on_floor[k]);
        cr_assert_lt(fabs(lowest_corner(v, i)), 0.01, "%s: lowest corner at %g", on_floor[k], lowest_corner(v, i));
        cr_assert_lt(vx_vec3_length(v->now[i].v), 0.005f, "%s still moves", on_floor[k]);
        cr_assert_lt(vx_vec3_length(v->now[i].w), 0.05f, "%s still turns", on_floor[k]);
    }
    (void)floor;
    /* dropped flat, the tetrahedron and the wedge land on their bottom face and do not turn */
    for (size_t k = 0; k < 2; k++) {
        size_t i = vx_validation_entity(v, on_floor[k]);
        float dq = fabsf(vx_quat_mul(vx_quat_conjugate(v->start[i].q), v->now[i].q).w);
        cr_assert_gt(dq, cosf(0.5f * 1.0f * (float)VX_PI / 180.0f), "%s turned", on_floor[k]);
    }
    /* the prism lies on a side face: its axis' height is half its flat-to-flat width */
    size_t prism = vx_validation_entity(v, "prism"), top = vx_validation_entity(v, "prism_on_prism");
    double flat = 0.5 * sqrt(3.0); /* flat-to-flat width of a hexagon of circumradius 0.5 */
    cr_assert_lt(fabs(v->now[prism].p.y - 0.5 * flat), 0.01, "prism axis at %g", (double)v->now[prism].p.y);
    cr_assert_lt(fabs(lowest_corner(v, top) - highest_corner(v, prism)), 0.01, "the top prism rests on the bottom one");
    cr_assert_lt(fabs(v->now[top].p.y - 1.5 * flat), 0.01);
}

/* Speed along the slope after SETTLE steps, fitted over FIT more. */
static double slope_acceleration(vx_validation *v, size_t body, vx_vec3 downhill)
{
    enum { SETTLE = 30, FIT = 90 };
    for (int n = 0; n < SETTLE; n++) vx_validation_step(v);
    double t[FIT], s[FIT], mt = 0.0, ms = 0.0;
    for (int n = 0; n < FIT; n++) {
        vx_validation_step(v);
        t[n] = vx_validation_time(v);
        s[n] = (double)vx_vec3_dot(v->now[body].v, downhill);
        mt += t[n] / FIT;
        ms += s[n] / FIT;
    }
    double stt = 0.0, sts = 0.0;
    for (int n = 0; n < FIT; n++) {
        stt += (t[n] - mt) * (t[n] - mt);
        sts += (t[n] - mt) * (s[n] - ms);
    }
    return sts / stt;
}

Test(validation, convex_block_slides_and_sticks_on_a_ramp)
{
    vx_validation *v = vx_validation_open("validation/convex_ramp");
    size_t slider = vx_validation_entity(v, "slider"), sticker = vx_validation_entity(v, "sticker");
    size_t ramp = vx_validation_entity(v, "ramp_slide");
    double t = 20.0 * VX_PI / 180.0, g = 9.81;
    vx_vec3 downhill = vx_quat_rotate(v->start[ramp].q, vx_vec3_make(-1.0f, 0.0f, 0.0f));
    double mu = sqrt((double)vx_validation_body(v, slider)->friction * vx_validation_body(v, ramp)->friction);
    double expect = g * (sin(t) - mu * cos(t));
    double a = slope_acceleration(v, slider, downhill);
    cr_assert_lt(fabs(a - expect), 0.02 * expect, "slides at %g m/s^2, expected %g", a, expect);
    cr_assert_lt(vx_validation_distance(v->now[sticker].p, v->start[sticker].p), 0.001, "the mu 0.6 block slid");
    for (size_t i = 0; i < 2; i++) {
        size_t b = i ? sticker : slider;
        float dq = fabsf(vx_quat_mul(vx_quat_conjugate(v->start[b].q), v->now[b].q).w);
        cr_assert_gt(dq, cosf(0.5f * 0.5f * (float)VX_PI / 180.0f), "%s turned", v->scene.names[b]);
    }
}

Test(validation, hull_of_a_box_follows_the_box)
{
    vx_validation *v = vx_validation_open("validation/convex_vs_box");
    size_t box = vx_validation_entity(v, "box"), hull = vx_validation_entity(v, "hull");
    vx_vec3 offset = vx_vec3_sub(v->start[hull].p, v->start[box].p);
    double worst = 0.0, worst_turn = 0.0;
    for (int n = 0; n < 240; n++) {
        vx_validation_step(v);
        double d = vx_validation_distance(v->now[hull].p, vx_vec3_add(v->now[box].p, offset));
        float w = fabsf(vx_quat_mul(vx_quat_conjugate(v->now[box].q), v->now[hull].q).w);
        double turn = 2.0 * acos(fmin(1.0, (double)w));
        if (d > worst) worst = d;
        if (turn > worst_turn) worst_turn = turn;
    }
    cr_assert_lt(worst, 0.005, "the hull parted from the box by %g m", worst);
    cr_assert_lt(worst_turn, 0.01, "and by %g rad", worst_turn);
    cr_assert_lt(vx_vec3_length(v->now[hull].v), 0.005f, "both come to rest");
}
