/* Validation of collisions: a restitution-e ball rebounds to e^2 of
 * its drop height; collisions between dynamic bodies conserve linear momentum
 * to float precision; with restitution 1 and no friction they conserve kinetic
 * energy. */
#include <criterion/criterion.h>

#include "test_validation.h"

TestSuite(validation, .fini = vx_validation_fini);

/* The rebound starts from wherever the ball is when the solver reverses its
 * velocity: one step (v dt, about 0.16 m at the 9.9 m/s impact from 5 m)
 * above or inside the floor, and the impact speed is that of the last step
 * before contact, up to g dt (0.16 m/s, 1.6 %) below sqrt(2 g h), which is
 * 3.3 % of the apex. Together that bounds the discrete-step error near 10 %
 * of e^2 h = 2.45 m; 15 % leaves room for the solver's slop. */
#define REBOUND_TOLERANCE 0.15

Test(validation, rebound_reaches_e_squared_of_the_drop_height)
{
    vx_validation *v = vx_validation_open("validation/rebound");
    size_t floor_i = vx_validation_entity(v, "floor"), ball = vx_validation_entity(v, "ball");
    double floor_top = (double)v->start[floor_i].p.y + (double)vx_validation_collider(v, floor_i)->half_extents.y;
    double radius = (double)vx_validation_collider(v, ball)->radius;
    double e = fmin((double)vx_validation_body(v, ball)->restitution,
                    (double)vx_validation_body(v, floor_i)->restitution);
    double h0 = (double)v->start[ball].p.y - radius - floor_top;
    cr_assert(h0 > 1.0);

    /* fall, bounce (vy turns positive), rise, apex (vy turns negative again) */
    bool bounced = false;
    double apex = -1.0;
    int64_t bounce_step = 0;
    for (int k = 0; k < 240 && apex < 0.0; k++) {
        float vy_before = v->now[ball].v.y;
        vx_validation_step(v);
        float vy = v->now[ball].v.y;
        if (!bounced && vy_before < 0.0f && vy > 0.0f) {
            bounced = true;
            bounce_step = v->steps_done;
        }
        if (bounced && vy_before > 0.0f && vy <= 0.0f) {
            /* the apex lies between the last two samples; the higher one is within g dt^2 / 8 */
            apex = (double)v->now[ball].p.y - radius - floor_top;
        }
    }
    cr_assert(bounced, "rebound: the ball never bounced (height %g m after 4 s)",
              (double)v->now[ball].p.y - radius - floor_top);
    cr_assert(apex > 0.0, "rebound: no apex after the bounce at step %lld", (long long)bounce_step);
    double expected = e * e * h0;
    cr_assert(fabs(apex - expected) <= REBOUND_TOLERANCE * expected,
              "rebound: apex %g m, expected e^2 h = %g m (e %g, h %g m), off by %g %%", apex, expected, e, h0,
              100.0 * (apex - expected) / expected);
}

static vx_vec3 total_momentum(const vx_validation *v, const vx_body_state *s, double *scale)
{
    double p[3] = {0, 0, 0}, sum = 0.0;
    for (size_t i = 0; i < v->scene.entity_count; i++) {
        cr_assert(vx_validation_is_dynamic(v, i), "%s: %s is not dynamic", v->scene.name, v->scene.names[i]);
        double m = (double)vx_validation_body(v, i)->mass;
        p[0] += m * (double)s[i].v.x;
        p[1] += m * (double)s[i].v.y;
        p[2] += m * (double)s[i].v.z;
        sum += m * (double)vx_vec3_length(s[i].v);
    }
    if (scale) *scale = sum;
    return vx_vec3_make((float)p[0], (float)p[1], (float)p[2]);
}

/* Every body's velocity changed: each of them took part in a collision. */
static void assert_everyone_collided(const vx_validation *v)
{
    for (size_t i = 0; i < v->scene.entity_count; i++) {
        double dv = vx_validation_distance(v->now[i].v, v->start[i].v);
        cr_assert(dv > 0.1, "%s: %s never collided (velocity change %g m/s)", v->scene.name, v->scene.names[i], dv);
    }
}

Test(validation, momentum_is_conserved_to_float_precision)
{
    vx_validation *v = vx_validation_open("validation/momentum");
    cr_assert_eq(vx_world_get_def(v->scene.world)->gravity.x, 0.0f);
    cr_assert_eq(vx_world_get_def(v->scene.world)->gravity.y, 0.0f);
    cr_assert_eq(vx_world_get_def(v->scene.world)->gravity.z, 0.0f);
    double scale;
    vx_vec3 p0 = total_momentum(v, v->start, &scale);
    /* relative to the sum of |m v| (the total itself could cancel to near 0) */
    double worst = 0.0;
    int64_t worst_step = 0;
    size_t contact_steps = 0;
    for (int k = 0; k < 300; k++) {
        vx_validation_step(v);
        contact_steps += v->report->count > 0;
        double d = vx_validation_distance(total_momentum(v, v->now, NULL), p0) / scale;
        if (d > worst) {
            worst = d;
            worst_step = v->steps_done;
        }
    }
    cr_assert_gt(contact_steps, 0);
    assert_everyone_collided(v);
    cr_assert(worst <= 1e-5, "momentum: total linear momentum off by %g of sum |m v| (step %lld), limit 1e-5", worst,
              (long long)worst_step);
}

Test(validation, elastic_collisions_keep_kinetic_energy)
{
    vx_validation *v = vx_validation_open("validation/elastic");
    for (size_t i = 0; i < v->scene.entity_count; i++) {
        cr_assert_eq(vx_validation_body(v, i)->restitution, 1.0f);
        cr_assert_eq(vx_validation_body(v, i)->friction, 0.0f);
    }
    double e0 = vx_validation_kinetic_energy(v, v->start);
    /* the collisions are over by 1.5 s; from then on every step counts */
    double worst = 0.0;
    int64_t worst_step = 0;
    for (int k = 0; k < 180; k++) {
        vx_validation_step(v);
        if (v->steps_done < 90) continue;
        double d = fabs(vx_validation_kinetic_energy(v, v->now) - e0) / e0;
        if (d > worst) {
            worst = d;
            worst_step = v->steps_done;
        }
    }
    assert_everyone_collided(v);
    double e_end = vx_validation_kinetic_energy(v, v->now);
    cr_assert(worst <= 0.01, "elastic: kinetic energy off by up to %g %% after the collisions (step %lld; %g J -> %g J)",
              100.0 * worst, (long long)worst_step, e0, e_end);
}
