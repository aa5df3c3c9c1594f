/* Robustness: 20 boxes, spheres and capsules dropped into a walled bin
 * settle into a pile. For 10 s nothing becomes non-finite, nothing passes
 * through the floor or the walls, nothing explodes, and at the end everything
 * is at rest. */
#include <criterion/criterion.h>

#include "test_validation.h"

TestSuite(validation, .fini = vx_validation_fini);

#define SINK_LIMIT 0.05        /* m: how far a body may reach below the floor's top */
#define EXPLOSION_FACTOR 1.2   /* no body is faster than this times a free fall from the highest start */
#define REST_SPEED 0.05        /* m/s at the end */
/* rad/s at the end. Not smaller: rolling contacts without rolling resistance
 * do no work, so a sphere or capsule cradled between neighbours can keep
 * rocking slowly without losing energy (seen: a capsule between a box and a
 * sphere at 0.25 rad/s, constant amplitude). The check asks that the pile has
 * settled, not that every ideal rolling mode has died out. */
#define REST_ANGULAR_SPEED 0.5

Test(validation, mixed_pile_settles_without_falling_through, .timeout = 60)
{
    vx_validation *v = vx_validation_open("validation/mixed_pile");
    size_t floor_i = vx_validation_entity(v, "floor");
    size_t wall_i = vx_validation_entity(v, "wall_px");
    double floor_top = (double)v->start[floor_i].p.y + (double)vx_validation_collider(v, floor_i)->half_extents.y;
    /* the inner faces of the walls, |x| and |z| */
    double inner = (double)v->start[wall_i].p.x - (double)vx_validation_collider(v, wall_i)->half_extents.x;
    size_t kinds[3] = {0, 0, 0};
    for (size_t i = 0; i < v->scene.entity_count; i++)
        if (vx_validation_is_dynamic(v, i)) kinds[vx_validation_collider(v, i)->type]++;
    cr_assert(kinds[VX_SHAPE_SPHERE] > 0 && kinds[VX_SHAPE_BOX] > 0 && kinds[VX_SHAPE_CAPSULE] > 0);
    /* with restitution 0.1 nothing can outrun a free fall from the highest start */
    double highest = floor_top;
    for (size_t i = 0; i < v->scene.entity_count; i++)
        if (vx_validation_is_dynamic(v, i)) highest = fmax(highest, (double)v->start[i].p.y);
    double g = (double)vx_vec3_length(vx_world_get_def(v->scene.world)->gravity);
    double explosion_speed = EXPLOSION_FACTOR * sqrt(2.0 * g * (highest - floor_top));

    double lowest = 1e30, widest = 0.0, fastest = 0.0;
    size_t lowest_i = 0, widest_i = 0, fastest_i = 0;
    int64_t lowest_step = 0, widest_step = 0, fastest_step = 0;
    for (int k = 0; k < 600; k++) {
        vx_validation_step(v);
        for (size_t i = 0; i < v->scene.entity_count; i++) {
            if (!vx_validation_is_dynamic(v, i)) continue;
            vx_aabb b = vx_collider_aabb(vx_validation_collider(v, i), v->now[i].p, v->now[i].q);
            if ((double)b.min.y < lowest) {
                lowest = (double)b.min.y;
                lowest_i = i;
                lowest_step = v->steps_done;
            }
            double reach = fmax(fmax(fabs((double)b.min.x), fabs((double)b.max.x)),
                                fmax(fabs((double)b.min.z), fabs((double)b.max.z)));
            if (reach > widest) {
                widest = reach;
                widest_i = i;
                widest_step = v->steps_done;
            }
            double speed = (double)vx_vec3_length(v->now[i].v);
            if (speed > fastest) {
                fastest = speed;
                fastest_i = i;
                fastest_step = v->steps_done;
            }
        }
    }
    cr_assert(lowest >= floor_top - SINK_LIMIT, "mixed_pile: %s reached %g m below the floor's top (step %lld)",
              v->scene.names[lowest_i], floor_top - lowest, (long long)lowest_step);
    cr_assert(widest <= inner + SINK_LIMIT, "mixed_pile: %s reached %g m past a wall (step %lld)",
              v->scene.names[widest_i], widest - inner, (long long)widest_step);
    cr_assert(fastest < explosion_speed, "mixed_pile: %s reached %g m/s (step %lld), limit %g m/s",
              v->scene.names[fastest_i], fastest, (long long)fastest_step, explosion_speed);

    double rest_v = 0.0, rest_w = 0.0;
    size_t rest_v_i = 0, rest_w_i = 0;
    for (size_t i = 0; i < v->scene.entity_count; i++) {
        if (!vx_validation_is_dynamic(v, i)) continue;
        double s = (double)vx_vec3_length(v->now[i].v), w = (double)vx_vec3_length(v->now[i].w);
        if (s > rest_v) {
            rest_v = s;
            rest_v_i = i;
        }
        if (w > rest_w) {
            rest_w = w;
            rest_w_i = i;
        }
    }
    cr_assert(rest_v < REST_SPEED, "mixed_pile: %s still moves at %g m/s after 10 s", v->scene.names[rest_v_i], rest_v);
    cr_assert(rest_w < REST_ANGULAR_SPEED, "mixed_pile: %s still turns at %g rad/s after 10 s",
              v->scene.names[rest_w_i], rest_w);
}
