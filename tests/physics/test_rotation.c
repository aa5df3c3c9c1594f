/* Rotational dynamics: inertia of the solid shapes, world inverse inertia,
 * and the torque-free rotation step against analytic rigid-body motion. */
#include <criterion/criterion.h>
#include <math.h>
#include <string.h>

#include "test_helpers.h"
#include "voltex/rotation.h"

#define PI_F 3.14159265358979f
#define PI_D 3.14159265358979323846
#define DT (1.0f / 60.0f)

/* ---- small tools ---- */

/* Relative difference |a - b| / |b|. */
static double rel_diff(double a, double b) { return fabs(a - b) / fabs(b); }

/* w expressed in the body frame of q. */
static vx_vec3 body_frame(vx_quat q, vx_vec3 w) { return vx_quat_rotate(vx_quat_conjugate(q), w); }

/* Angle between two orientations (radians), in double. */
static double orientation_angle(vx_quat a, vx_quat b)
{
    double d = fabs((double)a.x * b.x + (double)a.y * b.y + (double)a.z * b.z + (double)a.w * b.w);
    vx_quat rel = vx_quat_mul(vx_quat_conjugate(a), b);
    double s = sqrt((double)rel.x * rel.x + (double)rel.y * rel.y + (double)rel.z * rel.z);
    return 2.0 * atan2(s, d);
}

/* ---- inertia ---- */

Test(inertia, sphere_is_two_fifths_m_r_squared)
{
    vx_vec3 i = vx_inertia_sphere(2.0f, 0.5f);
    VX_ASSERT_VEC3_NEAR(i, 0.2f, 0.2f, 0.2f, 1e-7);
}

Test(inertia, box_uses_half_extents)
{
    /* Full sides 2, 4, 6 and mass 3: I_x = 3 (4^2 + 6^2) / 12 = 13. */
    vx_vec3 i = vx_inertia_box(3.0f, vx_vec3_make(1.0f, 2.0f, 3.0f));
    VX_ASSERT_VEC3_NEAR(i, 13.0f, 10.0f, 5.0f, 1e-5);
}

Test(inertia, capsule_closed_form_value)
{
    /* r = 1, hh = 1, m = 1: cylinder volume 2 pi, caps 4/3 pi, so m_c = 0.6,
     * m_s = 0.4. I_y = 0.6/2 + 0.4*0.4 = 0.46.
     * I_x = 0.6 (3 + 4)/12 + 0.16 + 0.4 (1 + 0.75) = 0.35 + 0.16 + 0.7 = 1.21. */
    vx_vec3 i = vx_inertia_capsule(1.0f, 1.0f, 1.0f);
    VX_ASSERT_VEC3_NEAR(i, 1.21f, 0.46f, 1.21f, 1e-6);
}

/* Moments of a solid capsule by Monte Carlo integration over its bounding
 * box (fixed seed, so the same numbers on every run). */
static vx_vec3 capsule_inertia_monte_carlo(float mass, float r, float hh, uint32_t seed)
{
    vx_test_rng rng = {seed};
    double sx = 0.0, sy = 0.0, sz = 0.0;
    long inside = 0;
    for (int n = 0; n < 400000; n++) {
        double x = vx_test_rng_range(&rng, -r, r);
        double y = vx_test_rng_range(&rng, -(hh + r), hh + r);
        double z = vx_test_rng_range(&rng, -r, r);
        double yc = y > hh ? y - hh : (y < -hh ? y + hh : 0.0); /* offset from the axis segment */
        if (x * x + yc * yc + z * z > (double)r * r) continue;
        inside++;
        sx += y * y + z * z;
        sy += x * x + z * z;
        sz += x * x + y * y;
    }
    return vx_vec3_make((float)(mass * sx / (double)inside), (float)(mass * sy / (double)inside),
                        (float)(mass * sz / (double)inside));
}

Test(inertia, capsule_matches_monte_carlo_integration)
{
    const float shapes[3][2] = {{0.5f, 1.0f}, {1.0f, 0.25f}, {0.3f, 0.05f}}; /* radius, half height */
    for (int s = 0; s < 3; s++) {
        float r = shapes[s][0], hh = shapes[s][1];
        vx_vec3 exact = vx_inertia_capsule(2.5f, r, hh);
        vx_vec3 mc = capsule_inertia_monte_carlo(2.5f, r, hh, 12345u + (uint32_t)s);
        cr_assert(rel_diff(exact.x, mc.x) < 0.01, "shape %d: I_x %g vs numeric %g", s, exact.x, mc.x);
        cr_assert(rel_diff(exact.y, mc.y) < 0.01, "shape %d: I_y %g vs numeric %g", s, exact.y, mc.y);
        cr_assert(rel_diff(exact.z, mc.z) < 0.01, "shape %d: I_z %g vs numeric %g", s, exact.z, mc.z);
    }
}

Test(inertia, capsule_limits_are_sphere_and_rod)
{
    /* No cylinder: a sphere. */
    vx_vec3 sphere = vx_inertia_capsule(3.0f, 0.7f, 0.0f);
    vx_vec3 expected = vx_inertia_sphere(3.0f, 0.7f);
    VX_ASSERT_VEC3_NEAR(sphere, expected.x, expected.y, expected.z, 1e-6);
    /* Almost no cylinder: continuous towards the sphere. */
    vx_vec3 near_sphere = vx_inertia_capsule(3.0f, 0.7f, 1e-4f);
    cr_assert(rel_diff(near_sphere.x, expected.x) < 1e-3);
    cr_assert(rel_diff(near_sphere.y, expected.y) < 1e-3);
    /* Vanishing radius: a thin rod of length 2, I = m L^2 / 12, no axial moment. */
    vx_vec3 rod = vx_inertia_capsule(3.0f, 1e-4f, 1.0f);
    cr_assert(rel_diff(rod.x, 3.0 * 4.0 / 12.0) < 1e-3, "rod I_x = %g", rod.x);
    cr_assert(rod.y < 1e-6f);
}

/* ---- world inverse inertia, momentum, energy ---- */

Test(world_inverse_inertia, box_turned_about_z_swaps_x_and_y)
{
    vx_vec3 i = vx_inertia_box(1.0f, vx_vec3_make(0.5f, 0.25f, 0.1f));
    vx_vec3 inv = vx_vec3_make(1.0f / i.x, 1.0f / i.y, 1.0f / i.z);
    vx_mat3 m = vx_inertia_world_inverse(vx_quat_from_axis_angle(vx_vec3_make(0, 0, 1), 0.5f * PI_F), inv);
    VX_ASSERT_NEAR(m.m[0][0], inv.y, 1e-4 * inv.y);
    VX_ASSERT_NEAR(m.m[1][1], inv.x, 1e-4 * inv.x);
    VX_ASSERT_NEAR(m.m[2][2], inv.z, 1e-4 * inv.z);
    for (int r = 0; r < 3; r++)
        for (int c = 0; c < 3; c++)
            if (r != c) VX_ASSERT_NEAR(m.m[r][c], 0.0, 1e-4 * inv.x);
}

Test(world_inverse_inertia, symmetric_and_inverse_of_world_inertia)
{
    vx_vec3 inertia = vx_vec3_make(0.5f, 2.0f, 3.5f);
    vx_vec3 inv = vx_vec3_make(1.0f / inertia.x, 1.0f / inertia.y, 1.0f / inertia.z);
    vx_quat q = vx_quat_from_axis_angle(vx_vec3_normalize(vx_vec3_make(1.0f, -2.0f, 0.5f)), 1.1f);
    vx_mat3 m = vx_inertia_world_inverse(q, inv);
    for (int r = 0; r < 3; r++)
        for (int c = 0; c < 3; c++) cr_assert(m.m[r][c] == m.m[c][r], "not symmetric at %d,%d", r, c);
    /* M applied to world L gives back world w, for any w. */
    vx_vec3 w = vx_vec3_make(0.3f, -1.2f, 2.0f);
    vx_vec3 l = vx_angular_momentum(q, w, inertia);
    vx_vec3 back = vx_mat3_mul_vec3(&m, l);
    VX_ASSERT_VEC3_NEAR(back, w.x, w.y, w.z, 1e-5);
}

Test(angular_momentum, momentum_and_energy_of_a_turned_body)
{
    /* Body turned 90 degrees about z: world x is body -y. */
    vx_vec3 inertia = vx_vec3_make(1.0f, 2.0f, 3.0f);
    vx_quat q = vx_quat_from_axis_angle(vx_vec3_make(0, 0, 1), 0.5f * PI_F);
    vx_vec3 w = vx_vec3_make(1.5f, 0.0f, 0.0f);
    VX_ASSERT_VEC3_NEAR(vx_angular_momentum(q, w, inertia), 3.0f, 0.0f, 0.0f, 1e-6);
    VX_ASSERT_NEAR(vx_rotational_energy(q, w, inertia), 0.5 * 2.0 * 1.5 * 1.5, 1e-6);
    /* Identity orientation: L = I w componentwise, E = w.I.w / 2. */
    vx_vec3 w2 = vx_vec3_make(1.0f, -1.0f, 2.0f);
    VX_ASSERT_VEC3_NEAR(vx_angular_momentum(vx_quat_identity(), w2, inertia), 1.0f, -2.0f, 6.0f, 1e-6);
    VX_ASSERT_NEAR(vx_rotational_energy(vx_quat_identity(), w2, inertia), 0.5 * (1.0 + 2.0 + 12.0), 1e-6);
}

/* ---- torque-free rotation ---- */

Test(rotation, sphere_turns_by_axis_angle_and_keeps_w)
{
    vx_vec3 inertia = vx_inertia_sphere(1.0f, 0.5f);
    vx_quat start = vx_quat_from_axis_angle(vx_vec3_normalize(vx_vec3_make(0.2f, 1.0f, -0.4f)), 0.8f);
    vx_vec3 w0 = vx_vec3_make(4.0f, -8.0f, 1.0f); /* |w| = 9 rad/s */
    vx_quat q = start;
    vx_vec3 w = w0;
    const int steps = 120;
    for (int i = 0; i < steps; i++) vx_rotation_integrate(&q, &w, inertia, DT);
    float t = (float)steps * DT;
    vx_quat expected = vx_quat_mul(vx_quat_from_axis_angle(vx_vec3_normalize(w0), vx_vec3_length(w0) * t), start);
    cr_assert(orientation_angle(q, expected) < 1e-4, "off by %g rad", orientation_angle(q, expected));
    VX_ASSERT_VEC3_NEAR(w, w0.x, w0.y, w0.z, 1e-4);
}

/* Equal principal moments (a sphere, a cube) skip the midpoint solve: w is
 * parallel to L, which the step rotates about itself. The result is the
 * limit of the general step: a body whose moments differ by one part in ten
 * million (solved) follows the cube (not solved) within 1e-5 rad, and
 * both turn by exactly |w| t. */
Test(rotation, equal_moments_are_the_limit_of_the_general_step)
{
    vx_vec3 cube = vx_inertia_box(2.0f, vx_vec3_make(0.5f, 0.5f, 0.5f));
    cr_assert(cube.x == cube.y && cube.y == cube.z);
    vx_vec3 almost = vx_vec3_make(cube.x, cube.y * (1.0f + 1e-7f), cube.z * (1.0f - 1e-7f));
    cr_assert(almost.y != cube.y && almost.z != cube.z);
    vx_quat start = vx_quat_from_axis_angle(vx_vec3_normalize(vx_vec3_make(-0.3f, 0.5f, 1.0f)), 1.1f);
    vx_vec3 w0 = vx_vec3_make(-2.0f, 5.0f, 3.0f);
    vx_quat qc = start, qa = start;
    vx_vec3 wc = w0, wa = w0;
    const int steps = 240;
    for (int i = 0; i < steps; i++) {
        vx_rotation_integrate(&qc, &wc, cube, DT);
        vx_rotation_integrate(&qa, &wa, almost, DT);
    }
    cr_assert(orientation_angle(qc, qa) < 1e-5, "off by %g rad", orientation_angle(qc, qa));
    VX_ASSERT_VEC3_NEAR(wc, wa.x, wa.y, wa.z, 1e-4);
    float t = (float)steps * DT;
    vx_quat expected = vx_quat_mul(vx_quat_from_axis_angle(vx_vec3_normalize(w0), vx_vec3_length(w0) * t), start);
    cr_assert(orientation_angle(qc, expected) < 1e-4, "off by %g rad", orientation_angle(qc, expected));
    VX_ASSERT_VEC3_NEAR(wc, w0.x, w0.y, w0.z, 1e-5);
}

Test(rotation, spin_about_a_principal_axis_is_steady)
{
    /* A box spinning about its largest axis: w stays constant, q turns at |w|. */
    vx_vec3 inertia = vx_inertia_box(1.0f, vx_vec3_make(0.5f, 0.25f, 0.1f));
    vx_quat start = vx_quat_from_axis_angle(vx_vec3_make(1, 0, 0), 0.3f);
    vx_vec3 w0 = vx_quat_rotate(start, vx_vec3_make(0.0f, 0.0f, 7.0f));
    vx_quat q = start;
    vx_vec3 w = w0;
    for (int i = 0; i < 60; i++) vx_rotation_integrate(&q, &w, inertia, DT);
    vx_quat expected = vx_quat_mul(vx_quat_from_axis_angle(vx_vec3_normalize(w0), 7.0f), start);
    cr_assert(orientation_angle(q, expected) < 1e-4, "off by %g rad", orientation_angle(q, expected));
    VX_ASSERT_VEC3_NEAR(w, w0.x, w0.y, w0.z, 1e-4);
}

/* Mean period of the upward zero crossings of a sampled signal (linear
 * interpolation between samples); 0 with fewer than two crossings. */
typedef struct {
    double first, last;
    int count;
    double prev_value;
} crossing_log;

static void crossing_add(crossing_log *c, double t, double value, double dt)
{
    if (c->prev_value < 0.0 && value >= 0.0) {
        double tc = t - dt * value / (value - c->prev_value);
        if (c->count == 0) c->first = tc;
        c->last = tc;
        c->count++;
    }
    c->prev_value = value;
}

static double crossing_period(const crossing_log *c)
{
    return c->count < 2 ? 0.0 : (c->last - c->first) / (c->count - 1);
}

/* Free symmetric top (I_x = I_y): in the body frame w turns about the
 * symmetry axis z at Omega = (I_z - I_x) / I_x * w_z, and in the world frame
 * the symmetry axis turns about L at |L| / I_x. */
static void check_symmetric_top(float i_transverse, float i_axial, vx_vec3 w_body0)
{
    vx_vec3 inertia = vx_vec3_make(i_transverse, i_transverse, i_axial);
    vx_quat q = vx_quat_from_axis_angle(vx_vec3_normalize(vx_vec3_make(1.0f, 1.0f, 0.0f)), 0.6f);
    vx_vec3 w = vx_quat_rotate(q, w_body0);
    vx_vec3 l = vx_angular_momentum(q, w, inertia);
    vx_vec3 l_dir = vx_vec3_normalize(l);
    /* A basis of the plane perpendicular to L, for the world precession angle. */
    vx_vec3 u = vx_vec3_normalize(vx_vec3_cross(l_dir, vx_vec3_make(0.0f, 0.0f, 1.0f)));
    vx_vec3 v = vx_vec3_cross(l_dir, u);

    double omega_body = (double)(i_axial - i_transverse) / i_transverse * w_body0.z;
    double rate_world = vx_vec3_length(l) / i_transverse;

    crossing_log body = {0.0, 0.0, 0, 0.0};
    double angle = 0.0, prev_phi = 0.0;
    const int steps = 600;
    for (int i = 1; i <= steps; i++) {
        vx_rotation_integrate(&q, &w, inertia, DT);
        vx_vec3 wb = body_frame(q, w);
        /* Upward crossings of the component that leads in the turning sense. */
        crossing_add(&body, i * (double)DT, omega_body > 0 ? wb.x : wb.y, DT);
        vx_vec3 axis = vx_quat_rotate(q, vx_vec3_make(0.0f, 0.0f, 1.0f));
        double phi = atan2(vx_vec3_dot(axis, v), vx_vec3_dot(axis, u));
        if (i > 1) {
            double d = phi - prev_phi;
            d -= 2.0 * PI_D * floor((d + PI_D) / (2.0 * PI_D)); /* unwrap */
            angle += d;
        }
        prev_phi = phi;
    }
    double period = crossing_period(&body);
    double expected_period = 2.0 * PI_D / fabs(omega_body);
    cr_assert(body.count >= 3, "only %d crossings", body.count);
    cr_assert(rel_diff(period, expected_period) < 0.01, "body period %g, expected %g", period, expected_period);
    double measured_rate = angle / ((steps - 1) * (double)DT);
    cr_assert(rel_diff(measured_rate, rate_world) < 0.01, "world rate %g, expected %g", measured_rate, rate_world);
}

Test(rotation, oblate_symmetric_top_precesses_at_analytic_rates)
{
    check_symmetric_top(1.0f, 2.0f, vx_vec3_make(0.5f, 0.0f, 2.0f)); /* Omega = +2 rad/s */
}

Test(rotation, prolate_symmetric_top_precesses_at_analytic_rates)
{
    check_symmetric_top(2.0f, 1.0f, vx_vec3_make(0.0f, 0.6f, 4.0f)); /* Omega = -2 rad/s */
}

Test(rotation, dzhanibekov_flip_keeps_momentum_and_energy)
{
    vx_vec3 inertia = vx_inertia_box(1.0f, vx_vec3_make(0.5f, 0.25f, 0.1f)); /* y is intermediate */
    cr_assert(inertia.x < inertia.y && inertia.y < inertia.z);
    vx_quat q = vx_quat_identity();
    vx_vec3 w = vx_vec3_make(0.0f, 10.0f, 1e-3f);
    vx_vec3 l0 = vx_angular_momentum(q, w, inertia);
    double l0_len = vx_vec3_length(l0);
    double e0 = vx_rotational_energy(q, w, inertia);
    vx_vec3 l0_dir = vx_vec3_normalize(l0);

    bool flipped = false, came_back = false;
    double worst_l = 0.0, worst_e = 0.0, worst_dir = 0.0, worst_unit = 0.0;
    for (int i = 0; i < 600; i++) {
        vx_rotation_integrate(&q, &w, inertia, DT);
        float wy = body_frame(q, w).y;
        if (wy < -5.0f) flipped = true;
        if (flipped && wy > 5.0f) came_back = true;
        vx_vec3 l = vx_angular_momentum(q, w, inertia);
        worst_l = fmax(worst_l, rel_diff(vx_vec3_length(l), l0_len));
        worst_e = fmax(worst_e, rel_diff(vx_rotational_energy(q, w, inertia), e0));
        worst_dir = fmax(worst_dir, vx_vec3_length(vx_vec3_sub(vx_vec3_normalize(l), l0_dir)));
        worst_unit = fmax(worst_unit, fabs(vx_quat_length(q) - 1.0));
    }
    cr_assert(flipped, "the intermediate-axis spin never flipped");
    cr_assert(came_back, "the spin flipped but never came back");
    cr_assert(worst_l < 1e-3, "|L| drifted by %g", worst_l);
    cr_assert(worst_e < 1e-3, "energy drifted by %g", worst_e);
    cr_assert(worst_dir < 1e-3, "L direction drifted by %g", worst_dir);
    cr_assert(worst_unit < 1e-5, "|q| off by %g", worst_unit);
}

Test(rotation, second_order_accuracy)
{
    /* A generic body over 1 s: halving dt divides the orientation error by ~4. */
    vx_vec3 inertia = vx_vec3_make(1.0f, 2.0f, 3.0f);
    vx_vec3 w0 = vx_vec3_make(2.0f, 1.0f, -1.6f);
    vx_quat results[3];
    const int steps_per_second[3] = {30, 60, 1920};
    for (int k = 0; k < 3; k++) {
        vx_quat q = vx_quat_identity();
        vx_vec3 w = w0;
        for (int i = 0; i < steps_per_second[k]; i++)
            vx_rotation_integrate(&q, &w, inertia, 1.0f / (float)steps_per_second[k]);
        results[k] = q;
    }
    double coarse = orientation_angle(results[0], results[2]);
    double fine = orientation_angle(results[1], results[2]);
    cr_assert(coarse > 1e-5, "coarse error %g too small to measure", coarse);
    double ratio = coarse / fine;
    cr_assert(ratio > 3.5 && ratio < 4.5, "error ratio %g (errors %g, %g)", ratio, coarse, fine);
}

/* w = 1000 rad/s turns about 17 rad per step: the step must split itself. */
static void check_huge_spin(vx_vec3 inertia, vx_vec3 w0)
{
    vx_quat q = vx_quat_from_axis_angle(vx_vec3_normalize(vx_vec3_make(0.3f, -0.2f, 1.0f)), 2.0f);
    vx_vec3 w = w0;
    vx_vec3 l0 = vx_angular_momentum(q, w, inertia);
    double e0 = vx_rotational_energy(q, w, inertia);
    for (int i = 0; i < 60; i++) {
        vx_rotation_integrate(&q, &w, inertia, DT);
        cr_assert(vx_vec3_is_finite(w) && vx_quat_is_finite(q));
        VX_ASSERT_NEAR(vx_quat_length(q), 1.0, 1e-5);
        vx_vec3 l = vx_angular_momentum(q, w, inertia);
        cr_assert(rel_diff(vx_vec3_length(l), vx_vec3_length(l0)) < 1e-3, "step %d: |L| drifted", i);
        cr_assert(vx_vec3_length(vx_vec3_sub(l, l0)) < 1e-3 * vx_vec3_length(l0), "step %d: L turned", i);
        cr_assert(rel_diff(vx_rotational_energy(q, w, inertia), e0) < 1e-3, "step %d: energy drifted", i);
    }
}

Test(rotation, huge_spin_stays_finite_and_conserves)
{
    vx_vec3 box = vx_inertia_box(1.0f, vx_vec3_make(0.5f, 0.25f, 0.1f));
    check_huge_spin(box, vx_vec3_make(0.0f, 1000.0f, 1.0f));
    check_huge_spin(box, vx_vec3_make(600.0f, -500.0f, 620.0f));
    /* A needle: one moment 10^4 times smaller than the others. */
    check_huge_spin(vx_vec3_make(1e-4f, 1.0f, 1.0f), vx_vec3_make(700.0f, 500.0f, -500.0f));
}

Test(rotation, absurd_spin_stays_finite)
{
    vx_vec3 inertia = vx_vec3_make(1e-3f, 1.0f, 2.0f);
    vx_quat q = vx_quat_identity();
    vx_vec3 w = vx_vec3_make(3e6f, -2e6f, 1e6f);
    vx_vec3 l0 = vx_angular_momentum(q, w, inertia);
    for (int i = 0; i < 3; i++) vx_rotation_integrate(&q, &w, inertia, 1.0f);
    cr_assert(vx_vec3_is_finite(w) && vx_quat_is_finite(q));
    VX_ASSERT_NEAR(vx_quat_length(q), 1.0, 1e-5);
    cr_assert(rel_diff(vx_vec3_length(vx_angular_momentum(q, w, inertia)), vx_vec3_length(l0)) < 1e-3);
}

Test(rotation, zero_spin_or_zero_dt_is_bit_identical)
{
    vx_vec3 inertia = vx_vec3_make(1.0f, 2.0f, 3.0f);
    vx_quat q0 = vx_quat_make(0.1f, 0.7f, -0.3f, 0.64f); /* not quite unit: must stay untouched */
    vx_quat q = q0;
    vx_vec3 w = vx_vec3_zero();
    vx_rotation_integrate(&q, &w, inertia, DT);
    cr_assert(memcmp(&q, &q0, sizeof q) == 0);
    cr_assert(w.x == 0.0f && w.y == 0.0f && w.z == 0.0f);

    vx_vec3 w0 = vx_vec3_make(1.0f, 2.0f, 3.0f);
    w = w0;
    vx_rotation_integrate(&q, &w, inertia, 0.0f);
    cr_assert(memcmp(&q, &q0, sizeof q) == 0);
    cr_assert(memcmp(&w, &w0, sizeof w) == 0);
}

Test(rotation, repeated_runs_are_bit_identical)
{
    vx_vec3 inertia = vx_inertia_capsule(2.0f, 0.3f, 0.6f);
    vx_quat qs[2];
    vx_vec3 ws[2];
    for (int run = 0; run < 2; run++) {
        vx_quat q = vx_quat_identity();
        vx_vec3 w = vx_vec3_make(3.0f, 20.0f, -0.5f);
        for (int i = 0; i < 200; i++) vx_rotation_integrate(&q, &w, inertia, DT);
        qs[run] = q;
        ws[run] = w;
    }
    cr_assert(memcmp(&qs[0], &qs[1], sizeof qs[0]) == 0);
    cr_assert(memcmp(&ws[0], &ws[1], sizeof ws[0]) == 0);
}

Test(rotation, time_reversal_returns_to_the_start)
{
    /* The midpoint step is symmetric: stepping back with -dt undoes it. */
    vx_vec3 inertia = vx_vec3_make(0.4f, 1.0f, 1.3f);
    vx_quat start = vx_quat_from_axis_angle(vx_vec3_make(0, 1, 0), 0.4f);
    vx_vec3 w0 = vx_vec3_make(5.0f, 1.0f, -2.0f);
    vx_quat q = start;
    vx_vec3 w = w0;
    for (int i = 0; i < 120; i++) vx_rotation_integrate(&q, &w, inertia, DT);
    for (int i = 0; i < 120; i++) vx_rotation_integrate(&q, &w, inertia, -DT);
    cr_assert(orientation_angle(q, start) < 1e-4, "off by %g rad", orientation_angle(q, start));
    VX_ASSERT_VEC3_NEAR(w, w0.x, w0.y, w0.z, 1e-4);
}
