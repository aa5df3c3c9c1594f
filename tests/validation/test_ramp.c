/* Validation: a box on a 20 degree ramp sticks with friction 0.6 and
 * slides with friction 0.1 at g (sin t - mu cos t); a solid sphere rolls down
 * at (5/7) g sin t with |w| r = |v|. The ramp is a static box turned about Z;
 * the slope, the friction of the pair (sqrt(a*b)) and g are read from the
 * scene, so the expected values follow the files. */
#include <criterion/criterion.h>

#include "test_validation.h"

TestSuite(validation, .fini = vx_validation_fini);

#define SETTLE_STEPS 30 /* 0.5 s: contacts and warm starting settle before the fit */
#define FIT_STEPS 90    /* then 1.5 s of velocities for the fit */
#define VX_PI 3.14159265358979323846

typedef struct {
    vx_vec3 normal;   /* of the ramp's top face */
    vx_vec3 downhill; /* unit, along the top face */
    double sin_t, cos_t;
    double g;        /* |gravity| */
    double friction; /* of the pair body-ramp */
} ramp_geometry;

static ramp_geometry ramp_of(const vx_validation *v, size_t ramp, size_t body)
{
    ramp_geometry r;
    vx_quat q = v->start[ramp].q;
    r.normal = vx_quat_rotate(q, vx_vec3_make(0, 1, 0));
    vx_vec3 up = vx_vec3_normalize(vx_vec3_neg(vx_world_get_def(v->scene.world)->gravity));
    r.cos_t = (double)vx_vec3_dot(r.normal, up);
    r.sin_t = sqrt(1.0 - r.cos_t * r.cos_t);
    /* the slope direction: gravity with its normal part removed */
    vx_vec3 along = vx_vec3_sub(vx_vec3_neg(up), vx_vec3_scale(r.normal, vx_vec3_dot(vx_vec3_neg(up), r.normal)));
    r.downhill = vx_vec3_normalize(along);
    r.g = (double)vx_vec3_length(vx_world_get_def(v->scene.world)->gravity);
    r.friction = sqrt((double)vx_validation_body(v, ramp)->friction * (double)vx_validation_body(v, body)->friction);
    cr_assert(fabs(r.sin_t - sin(20.0 * VX_PI / 180.0)) < 1e-5, "the ramp is not at 20 degrees: sin %g", r.sin_t);
    return r;
}

/* Least-squares slope of y over t. */
static double fit_slope(const double *t, const double *y, size_t n)
{
    double mt = 0, my = 0;
    for (size_t i = 0; i < n; i++) {
        mt += t[i];
        my += y[i];
    }
    mt /= (double)n;
    my /= (double)n;
    double stt = 0, sty = 0;
    for (size_t i = 0; i < n; i++) {
        stt += (t[i] - mt) * (t[i] - mt);
        sty += (t[i] - mt) * (y[i] - my);
    }
    return sty / stt;
}

/* Runs SETTLE_STEPS, then FIT_STEPS recording the speed along the slope, and
 * returns the fitted acceleration. */
static double downhill_acceleration(vx_validation *v, size_t body, const ramp_geometry *r)
{
    double t[FIT_STEPS], s[FIT_STEPS];
    for (int k = 0; k < SETTLE_STEPS; k++) vx_validation_step(v);
    for (int k = 0; k < FIT_STEPS; k++) {
        vx_validation_step(v);
        t[k] = vx_validation_time(v);
        s[k] = (double)vx_vec3_dot(v->now[body].v, r->downhill);
    }
    return fit_slope(t, s, FIT_STEPS);
}

Test(validation, ramp_stick_box_stays_put)
{
    vx_validation *v = vx_validation_open("validation/ramp_stick");
    size_t ramp = vx_validation_entity(v, "ramp"), block = vx_validation_entity(v, "block");
    ramp_geometry r = ramp_of(v, ramp, block);
    cr_assert(r.friction > r.sin_t / r.cos_t, "ramp_stick: friction %g cannot hold the box", r.friction);
    double worst = 0.0;
    int64_t worst_step = 0;
    for (int k = 0; k < 180; k++) {
        vx_validation_step(v);
        double d = vx_validation_distance(v->now[block].p, v->start[block].p);
        if (d > worst) {
            worst = d;
            worst_step = v->steps_done;
        }
    }
    vx_vec3 moved = vx_vec3_sub(v->now[block].p, v->start[block].p);
    cr_assert(worst < 0.01,
              "ramp_stick: the box moved %g m (largest at step %lld; after 3 s: %g m downhill, %g m along the normal),"
              " limit 0.01 m",
              worst, (long long)worst_step, (double)vx_vec3_dot(moved, r.downhill), (double)vx_vec3_dot(moved, r.normal));
}

Test(validation, ramp_slide_box_accelerates_at_g_sin_minus_mu_cos)
{
    vx_validation *v = vx_validation_open("validation/ramp_slide");
    size_t ramp = vx_validation_entity(v, "ramp"), block = vx_validation_entity(v, "block");
    ramp_geometry r = ramp_of(v, ramp, block);
    double expected = r.g * (r.sin_t - r.friction * r.cos_t);
    cr_assert(expected > 0.0);
    double a = downhill_acceleration(v, block, &r);
    cr_assert(fabs(a - expected) <= 0.15 * expected,
              "ramp_slide: acceleration along the slope %g m/s^2, expected g(sin t - mu cos t) = %g (mu %g), off by %g %%",
              a, expected, r.friction, 100.0 * (a - expected) / expected);
    /* it slides flat on its face: still resting on the surface, not tumbling */
    double height = (double)vx_vec3_dot(vx_vec3_sub(v->now[block].p, v->now[ramp].p), r.normal);
    double start_height = (double)vx_vec3_dot(vx_vec3_sub(v->start[block].p, v->start[ramp].p), r.normal);
    cr_assert(fabs(height - start_height) < 0.02, "ramp_slide: the box is %g m off the surface after 2 s",
              height - start_height);
}

Test(validation, ramp_roll_sphere_rolls_at_five_sevenths_g_sin)
{
    vx_validation *v = vx_validation_open("validation/ramp_roll");
    size_t ramp = vx_validation_entity(v, "ramp"), ball = vx_validation_entity(v, "ball");
    ramp_geometry r = ramp_of(v, ramp, ball);
    /* rolling without slipping needs mu >= (2/7) tan t */
    cr_assert(r.friction > 2.0 / 7.0 * r.sin_t / r.cos_t, "ramp_roll: friction %g lets the ball slip", r.friction);
    double radius = (double)vx_validation_collider(v, ball)->radius;
    double expected = 5.0 / 7.0 * r.g * r.sin_t;
    double a = downhill_acceleration(v, ball, &r);
    cr_assert(fabs(a - expected) <= 0.10 * expected,
              "ramp_roll: acceleration along the slope %g m/s^2, expected (5/7) g sin t = %g, off by %g %%", a, expected,
              100.0 * (a - expected) / expected);

    /* |w| r against |v|, and the contact point at rest (no slip), over 0.5 s more */
    double worst_ratio = 0.0, worst_slip = 0.0;
    for (int k = 0; k < 30; k++) {
        vx_validation_step(v);
        vx_vec3 vel = v->now[ball].v, w = v->now[ball].w;
        double speed = (double)vx_vec3_length(vel);
        double spin = (double)vx_vec3_length(w) * radius;
        double ratio = fabs(spin - speed) / speed;
        vx_vec3 contact_velocity =
            vx_vec3_add(vel, vx_vec3_cross(w, vx_vec3_scale(r.normal, (float)-radius))); /* v + w x (-r n) */
        double slip = (double)vx_vec3_length(contact_velocity) / speed;
        if (ratio > worst_ratio) worst_ratio = ratio;
        if (slip > worst_slip) worst_slip = slip;
    }
    cr_assert(worst_ratio <= 0.10, "ramp_roll: |w| r differs from |v| by up to %g %% (|v| %g m/s, |w| r %g m/s at 2.5 s)",
              100.0 * worst_ratio, (double)vx_vec3_length(v->now[ball].v),
              (double)vx_vec3_length(v->now[ball].w) * radius);
    cr_assert(worst_slip <= 0.10, "ramp_roll: the contact point slips at up to %g %% of |v|", 100.0 * worst_slip);
}
