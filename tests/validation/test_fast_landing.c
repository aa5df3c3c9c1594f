/* Validation of continuous collision at high speed, on
 * scenes/validation/fast_landing.json: a 1 m box dropped flat at 200 m/s
 * and another at 40 km/s onto a static floor (restitution 0.3 for the
 * pair). Neither passes into the floor, both bounce straight up at 0.3 of
 * their landing speed, and the flat landing sets the box turning no more
 * than its solver's iterations leave (it turned at 60 rad/s when only the
 * corners within 1 mm of the floor bounced). */
#include <criterion/criterion.h>

#include "test_validation.h"

TestSuite(validation, .fini = vx_validation_fini);

/* The lowest corner of box i. */
static float lowest_corner(const vx_validation *v, size_t i)
{
    vx_vec3 half = vx_validation_collider(v, i)->half_extents;
    float low = INFINITY;
    for (int c = 0; c < 8; c++) {
        vx_vec3 local = vx_vec3_make((c & 1) ? half.x : -half.x, (c & 2) ? half.y : -half.y, (c & 4) ? half.z : -half.z);
        float y = v->now[i].p.y + vx_quat_rotate(v->now[i].q, local).y;
        if (y < low) low = y;
    }
    return low;
}

static float horizontal_speed(vx_vec3 velocity) { return sqrtf(velocity.x * velocity.x + velocity.z * velocity.z); }

/* Runs the scene; for box `name`: no corner ever below the floor's top by
 * more than the slop, the first upward speed (the bounce) relative to the
 * landing speed, and the largest spin and sideways speed seen after it. */
typedef struct {
    float landing_speed, bounce_speed, spin_after, sideways_after;
} landing;

static landing land(const char *name)
{
    vx_validation *v = vx_validation_open("validation/fast_landing");
    size_t box = vx_validation_entity(v, name), floor = vx_validation_entity(v, "floor");
    float top = v->start[floor].p.y + vx_validation_collider(v, floor)->half_extents.y;
    landing l = {0.0f, 0.0f, 0.0f, 0.0f};
    bool bounced = false;
    for (int64_t k = 0; k < v->scene.steps; k++) {
        float before = v->now[box].v.y;
        vx_validation_step(v);
        float low = lowest_corner(v, box);
        cr_assert_geq(low, top - 0.01f, "%s, step %lld: a corner at y = %g, the floor's top at %g", name,
                      (long long)v->steps_done, (double)low, (double)top);
        if (!bounced && v->now[box].v.y > 0.0f) {
            bounced = true;
            l.landing_speed = 0.0f - before;
            l.bounce_speed = v->now[box].v.y;
        } else if (bounced) {
            l.spin_after = fmaxf(l.spin_after, vx_vec3_length(v->now[box].w));
            l.sideways_after = fmaxf(l.sideways_after, horizontal_speed(v->now[box].v));
        }
    }
    cr_assert(bounced, "%s never bounced", name);
    vx_validation_fini();
    return l;
}

Test(validation, a_box_landing_flat_at_200_m_s_bounces_straight_without_spin)
{
    landing l = land("box");
    cr_assert_gt(l.landing_speed, 60.0f, "the box landed at %g m/s only", (double)l.landing_speed);
    /* the speculative stop leaves it at the surface with part of its speed;
     * the bounce is 0.3 of the speed it came in with, 200 m/s */
    cr_assert_lt(fabsf(l.bounce_speed - 0.3f * 200.0f), 0.6f, "bounced at %g m/s, expected 60", (double)l.bounce_speed);
    cr_assert_lt(l.spin_after, 0.1f, "turns at %g rad/s after the bounce", (double)l.spin_after);
    cr_assert_lt(l.sideways_after, 0.2f, "moves sideways at %g m/s after the bounce", (double)l.sideways_after);
}

Test(validation, a_box_at_40_km_s_stays_above_the_floor_and_bounces_straight)
{
    landing l = land("meteor");
    cr_assert_lt(fabsf(l.bounce_speed - 0.3f * 40000.0f), 120.0f, "bounced at %g m/s, expected 12000",
                 (double)l.bounce_speed);
    /* what the iterations leave grows with the speed: about 1e-4 of it */
    cr_assert_lt(l.spin_after, 10.0f, "turns at %g rad/s after the bounce", (double)l.spin_after);
    cr_assert_lt(l.sideways_after, 40.0f, "moves sideways at %g m/s after the bounce", (double)l.sideways_after);
}
