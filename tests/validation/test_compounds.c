/* Validation of compound bodies (scenes/shapes/) against mechanics and
 * geometry; the expected values are worked out here from the parts' sizes
 * and places with the textbook formulas, not taken from the engine:
 * - dumbbell_pendulum: two spheres on a bar, hinged off its centre of mass
 *   and released from 60 degrees, swing at the physical pendulum's period
 *   (the exact elliptic one, the inertia about the pivot by the
 *   parallel-axis theorem) within 1 %, keeping their swing energy within 1 %;
 * - dumbbell_spin: an uneven dumbbell tumbling in zero gravity keeps its
 *   centre of mass on a straight line, |L| and its energy within 0.1 % over
 *   10 s;
 * - l_shapes: an L lying on its long leg stays on it; of two Gammas
 *   standing on their post, the one whose centre of mass is over the post's
 *   foot stands and the one whose centre of mass is past its edge tips
 *   towards its arm;
 * - compound_vs_box: a box made of four quarter boxes and a box of the same
 *   size, dropped the same way, come to rest at the same height within 1 mm;
 * - compound_tunnel: compounds at 120 and 150 m/s, turning, stop at a 10 cm
 *   wall and bounce back. */
#include <criterion/criterion.h>

#include "test_validation.h"

TestSuite(validation, .fini = vx_validation_fini);

#define VX_PI 3.14159265358979323846
#define G 9.81

static void run(vx_validation *v, int steps)
{
    for (int n = 0; n < steps; n++) vx_validation_step(v);
}

/* A part's volume and its moment of inertia about the z axis through its
 * centre for density 1 (spheres and boxes, placed without rotation). */
static double part_volume(const vx_collider *c)
{
    if (c->type == VX_SHAPE_SPHERE) return 4.0 / 3.0 * VX_PI * pow((double)c->radius, 3.0);
    cr_assert_eq(c->type, VX_SHAPE_BOX);
    return 8.0 * (double)c->half_extents.x * (double)c->half_extents.y * (double)c->half_extents.z;
}

static double part_inertia_z(const vx_collider *c)
{
    double v = part_volume(c);
    if (c->type == VX_SHAPE_SPHERE) return 0.4 * v * (double)c->radius * (double)c->radius;
    double a = (double)c->half_extents.x, b = (double)c->half_extents.y;
    return v * (a * a + b * b) / 3.0;
}

Test(validation, dumbbell_swings_at_the_parallel_axis_pendulums_period)
{
    vx_validation *v = vx_validation_open("shapes/dumbbell_pendulum");
    size_t body = vx_validation_entity(v, "dumbbell");
    const vx_compound *c = vx_validation_collider(v, body)->compound;
    double mass = (double)vx_validation_body(v, body)->mass;
    /* the pivot is the entity's origin: mass by volume, inertia about the
     * pivot = sum of each part's own plus its mass times its distance^2 */
    size_t n = vx_compound_get_info(c).part_count;
    double volume = 0.0, moment = 0.0, cx = 0.0, cy = 0.0;
    for (size_t i = 0; i < n; i++) {
        vx_compound_part p = vx_compound_get_part(c, i);
        volume += part_volume(&p.shape);
    }
    for (size_t i = 0; i < n; i++) {
        vx_compound_part p = vx_compound_get_part(c, i);
        double m = mass * part_volume(&p.shape) / volume, x = (double)p.pose.position.x, y = (double)p.pose.position.y;
        moment += mass / volume * part_inertia_z(&p.shape) + m * (x * x + y * y);
        cx += m * x / mass;
        cy += m * y / mass;
    }
    double d = sqrt(cx * cx + cy * cy), theta0 = 60.0 * VX_PI / 180.0;
    double expected = 4.0 * sqrt(moment / (mass * G * d)) * vx_validation_elliptic_k(sin(0.5 * theta0));
    double swing_energy0 = mass * G * d * (1.0 - cos(theta0));
    double first = -1.0, last = -1.0, previous = theta0, amplitude = 0.0, worst = 0.0, last_speed = 0.0;
    int crossings = 0;
    for (int k = 1; k <= 1200; k++) {
        vx_validation_step(v);
        vx_joint_state s;
        vx_error err;
        cr_assert_eq(vx_joint_get_state(v->scene.world, v->scene.joints[0].id, &s, &err), VX_OK, "%s", err.message);
        double angle = (double)s.position + theta0, t = vx_validation_time(v);
        if (previous < 0.0 && angle >= 0.0) { /* an upward crossing, interpolated */
            double at = t - 1.0 / 60.0 + (1.0 / 60.0) * (0.0 - previous) / (angle - previous);
            if (first < 0.0) first = at;
            else crossings++;
            last = at;
        }
        previous = angle;
        amplitude = fabs(angle) > amplitude ? fabs(angle) : amplitude;
        if ((last_speed > 0.0) != ((double)s.speed > 0.0) && k > 1) { /* a turning point */
            double err_e = fabs(mass * G * d * (1.0 - cos(amplitude)) / swing_energy0 - 1.0);
            worst = err_e > worst ? err_e : worst;
            amplitude = 0.0;
        }
        last_speed = (double)s.speed;
    }
    cr_assert_geq(crossings, 5, "%d periods seen", crossings);
    double period = (last - first) / (double)crossings;
    cr_log_info("period %.5f s, expected %.5f s; swing energy within %.2g", period, expected, worst);
    cr_assert_lt(fabs(period / expected - 1.0), 0.01, "period %g s, expected %g s", period, expected);
    cr_assert_lt(worst, 0.01, "the swing energy moved %g of itself", worst);
    /* the trace reports the entity's origin: the pivot, which stays put */
    cr_assert_lt(vx_validation_distance(v->now[body].p, v->start[body].p), 1e-3);
}

Test(validation, tumbling_dumbbell_keeps_L_and_energy)
{
    vx_validation *v = vx_validation_open("shapes/dumbbell_spin");
    size_t t = vx_validation_entity(v, "dumbbell");
    vx_vec3 c0, vc0;
    vx_quat q0;
    vx_validation_body_frame(v, t, &v->start[t], &c0, &vc0, &q0);
    cr_assert_gt(vx_validation_distance(c0, v->start[t].p), 0.05, "the centre of mass should be off the origin");
    vx_validation_drift d = vx_validation_free_spin(v, t, 600);
    cr_log_info("|L| drift %.2g, energy drift %.2g, centre of mass off its line %.2g m", d.momentum, d.energy, d.line);
}

/* The angle in degrees entity i turned since load. */
static double turned_deg(const vx_validation *v, size_t i)
{
    float w = fabsf(vx_quat_mul(vx_quat_conjugate(v->start[i].q), v->now[i].q).w);
    return 2.0 * acos(fmin(1.0, (double)w)) * 180.0 / VX_PI;
}

/* The centre of mass's x in the entity's frame, from the parts' volumes. */
static double centre_x(const vx_compound *c)
{
    double volume = 0.0, x = 0.0;
    for (size_t i = 0; i < vx_compound_get_info(c).part_count; i++) {
        vx_compound_part p = vx_compound_get_part(c, i);
        volume += part_volume(&p.shape);
        x += part_volume(&p.shape) * (double)p.pose.position.x;
    }
    return x / volume;
}

Test(validation, l_shapes_rest_or_tip_as_their_centre_of_mass_says)
{
    vx_validation *v = vx_validation_open("shapes/l_shapes");
    size_t lying = vx_validation_entity(v, "lying"), stands = vx_validation_entity(v, "stands");
    size_t tips = vx_validation_entity(v, "tips");
    /* the post's foot spans x in [-0.1, 0.1] */
    double post = 0.1;
    cr_assert_lt(centre_x(vx_validation_collider(v, stands)->compound), post);
    cr_assert_gt(centre_x(vx_validation_collider(v, tips)->compound), post);
    run(v, 300);
    /* the long leg's bottom face (0.1 under the origin) on the floor */
    cr_assert_lt(fabs((double)v->now[lying].p.y - 0.1), 0.01, "lying at %g", (double)v->now[lying].p.y);
    cr_log_info("turned: lying %.3f, stands %.3f, tips %.1f degrees", turned_deg(v, lying), turned_deg(v, stands),
                turned_deg(v, tips));
    cr_assert_lt(turned_deg(v, lying), 1.0, "the lying L turned %g degrees", turned_deg(v, lying));
    cr_assert_lt(turned_deg(v, stands), 1.0, "the standing Gamma turned %g degrees", turned_deg(v, stands));
    cr_assert_gt(turned_deg(v, tips), 30.0, "the Gamma past its edge turned only %g degrees", turned_deg(v, tips));
    /* towards its arm (+x): clockwise about z, seen from +z */
    cr_assert_lt(v->now[tips].q.z * v->now[tips].q.w, 0.0f);
    for (size_t i = 1; i < v->scene.entity_count; i++) {
        cr_assert_lt(vx_vec3_length(v->now[i].v), 0.01f, "%s still moves", v->scene.names[i]);
        cr_assert_lt(vx_vec3_length(v->now[i].w), 0.05f, "%s still turns", v->scene.names[i]);
    }
}

Test(validation, compound_of_quarters_rests_where_the_box_does)
{
    vx_validation *v = vx_validation_open("shapes/compound_vs_box");
    size_t box = vx_validation_entity(v, "box"), quarters = vx_validation_entity(v, "quarters");
    run(v, 300);
    double hb = (double)v->now[box].p.y, hq = (double)v->now[quarters].p.y;
    cr_log_info("box at %.6f m, compound at %.6f m", hb, hq);
    cr_assert_lt(fabs(hb - hq), 1e-3, "box at %g, compound at %g", hb, hq);
    cr_assert_lt(fabs(hq - 0.25), 0.01, "the compound rests at %g, not on its 0.5 m face", hq);
    /* both on their large face: their local y stays up */
    for (size_t i = 1; i < 3; i++) {
        vx_vec3 up = vx_quat_rotate(v->now[i].q, vx_vec3_make(0.0f, 1.0f, 0.0f));
        cr_assert_gt(up.y, 0.999f, "%s is not on its large face", v->scene.names[i]);
    }
}

Test(validation, fast_compounds_stop_at_a_thin_wall)
{
    vx_validation *v = vx_validation_open("shapes/compound_tunnel");
    size_t fast = vx_validation_entity(v, "fast"), spinner = vx_validation_entity(v, "spinner");
    double farthest[2] = {-INFINITY, -INFINITY};
    for (int n = 0; n < 60; n++) {
        vx_validation_step(v);
        size_t ids[2] = {fast, spinner};
        for (int k = 0; k < 2; k++) {
            vx_aabb b = vx_collider_aabb(vx_validation_collider(v, ids[k]), v->now[ids[k]].p, v->now[ids[k]].q);
            farthest[k] = fmax(farthest[k], (double)b.max.x);
        }
    }
    /* the wall's far face is at 5.05; the bounds may reach into the wall
     * by the parts' rounding but not past it */
    cr_log_info("farthest reach %.4f and %.4f (the wall from 4.95 to 5.05)", farthest[0], farthest[1]);
    cr_assert_lt(farthest[0], 5.05, "the dumbbell reached %g", farthest[0]);
    cr_assert_lt(farthest[1], 5.05, "the cross reached %g", farthest[1]);
    cr_assert_lt(v->now[fast].v.x, 0.0f);
    cr_assert_lt(v->now[spinner].v.x, 0.0f);
}
