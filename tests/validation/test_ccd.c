/* Validation of continuous collision, on scene files:
 *   - scenes/bench/tunnel.json (the classic tunnelling case): a 0.1 m ball at 200 m/s
 *     towards a static wall 10 cm thick stops on the near side;
 *   - scenes/validation/tunnel_box.json: a tumbling 0.2 m box thrown at
 *     50 m/s at a 1 cm static plate stays in front of it, and a ball flying
 *     over the plate's rim with 3 cm to spare keeps its free flight exactly.
 * 60 Hz, 10 iterations, 1 substep, default speculative distance. */
#include <criterion/criterion.h>

#include "test_validation.h"

TestSuite(validation, .fini = vx_validation_fini);

Test(validation, tunnel_ball_stops_on_the_near_side_of_the_wall)
{
    vx_validation *v = vx_validation_open("bench/tunnel");
    size_t ball = vx_validation_entity(v, "ball"), wall = vx_validation_entity(v, "wall");
    float r = vx_validation_collider(v, ball)->radius;
    float near_face = v->start[wall].p.x - vx_validation_collider(v, wall)->half_extents.x;
    cr_assert_gt(v->start[ball].v.x * (float)vx_world_get_def(v->scene.world)->fixed_dt, 10.0f * r, "not a tunnelling speed");
    for (int64_t k = 0; k < v->scene.steps; k++) {
        vx_validation_step(v);
        float front = v->now[ball].p.x + r;
        cr_assert_leq(front, near_face + 1e-4f, "step %lld: the ball's front at x = %g, the wall's near face at %g",
                      (long long)v->steps_done, (double)front, (double)near_face);
    }
    cr_assert_geq(v->now[ball].p.x + r, near_face - 1e-3f, "the ball stopped short, at x = %g",
                  (double)v->now[ball].p.x);
    cr_assert_lt(vx_vec3_length(v->now[ball].v), 1e-3f, "the ball still moves at %g m/s",
                 (double)vx_vec3_length(v->now[ball].v));
}

Test(validation, tunnel_box_stays_in_front_of_the_plate_and_the_skimmer_flies_free)
{
    vx_validation *v = vx_validation_open("validation/tunnel_box");
    size_t box = vx_validation_entity(v, "box"), plate = vx_validation_entity(v, "plate");
    size_t skimmer = vx_validation_entity(v, "skimmer");
    vx_vec3 half = vx_validation_collider(v, box)->half_extents;
    vx_vec3 plate_half = vx_validation_collider(v, plate)->half_extents;
    float far_face = v->start[plate].p.x + plate_half.x;
    float h = vx_world_get_def(v->scene.world)->fixed_dt;
    /* the skimmer's free flight, with the engine's float operations */
    vx_vec3 fall = vx_vec3_scale(vx_world_get_def(v->scene.world)->gravity, 1.0f);
    vx_vec3 free_v = v->start[skimmer].v;
    for (int64_t k = 0; k < v->scene.steps; k++) {
        vx_validation_step(v);
        for (int i = 0; i < 8; i++) {
            vx_vec3 local = vx_vec3_make((i & 1) ? half.x : -half.x, (i & 2) ? half.y : -half.y,
                                         (i & 4) ? half.z : -half.z);
            vx_vec3 c = vx_vec3_add(v->now[box].p, vx_quat_rotate(v->now[box].q, local));
            cr_assert_lt(c.x, far_face, "step %lld: a corner of the box is at x = %g, beyond the plate",
                         (long long)v->steps_done, (double)c.x);
        }
        cr_assert_lt(v->now[box].p.x, v->start[plate].p.x, "step %lld: the box's centre is at x = %g",
                     (long long)v->steps_done, (double)v->now[box].p.x);
        free_v = vx_vec3_add(free_v, vx_vec3_scale(fall, h));
        if (v->now[skimmer].p.x < 2.0f) /* until well past the plate */
            cr_assert(memcmp(&v->now[skimmer].v, &free_v, sizeof free_v) == 0,
                      "step %lld: the skimmer flies at (%.9g %.9g %.9g), free flight (%.9g %.9g %.9g)",
                      (long long)v->steps_done, (double)v->now[skimmer].v.x, (double)v->now[skimmer].v.y,
                      (double)v->now[skimmer].v.z, (double)free_v.x, (double)free_v.y, (double)free_v.z);
    }
    cr_assert_gt(v->now[skimmer].p.x, 2.0f, "the skimmer did not get past the plate");
    /* the box ends resting on the floor in front of the plate */
    cr_assert_lt(v->now[box].p.x, v->start[plate].p.x - plate_half.x);
    cr_assert_lt(v->now[box].p.y, 0.2f, "the box is at y = %g, not on the floor", (double)v->now[box].p.y);
}
