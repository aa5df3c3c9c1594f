/* Validation: stacks stand. A column of 10 unit boxes and a pyramid
 * with a base of 20 boxes, 10 s at 60 Hz, 10 iterations, 1 substep, no
 * sleeping (Bullet 3.24 creeps 0.56 m and 0.27 m here). */
#include <criterion/criterion.h>

#include "test_validation.h"

TestSuite(validation, .fini = vx_validation_fini);

/* Horizontal distance (x, z) between a and b. */
static double horizontal_distance(vx_vec3 a, vx_vec3 b)
{
    double dx = (double)a.x - (double)b.x, dz = (double)a.z - (double)b.z;
    return sqrt(dx * dx + dz * dz);
}

Test(validation, stack_10_stands_for_10_seconds)
{
    vx_validation *v = vx_validation_open("bench/stack_10");
    size_t boxes = 0;
    for (size_t i = 0; i < v->scene.entity_count; i++) boxes += vx_validation_is_dynamic(v, i);
    cr_assert_eq(boxes, 10, "stack_10: %zu boxes", boxes);
    size_t top = vx_validation_entity(v, "box_9");
    double worst_drift = 0.0, worst_sink = 0.0;
    size_t worst_box = 0;
    int64_t worst_step = 0;
    for (int k = 0; k < 600; k++) {
        vx_validation_step(v);
        for (size_t i = 0; i < v->scene.entity_count; i++) {
            if (!vx_validation_is_dynamic(v, i)) continue;
            double d = horizontal_distance(v->now[i].p, v->start[i].p);
            if (d > worst_drift) {
                worst_drift = d;
                worst_box = i;
                worst_step = v->steps_done;
            }
        }
        double dy = fabs((double)v->now[top].p.y - (double)v->start[top].p.y);
        if (dy > worst_sink) worst_sink = dy;
    }
    cr_assert(worst_drift < 0.05, "stack_10: horizontal drift %g m (%s, step %lld), limit 0.05 m", worst_drift,
              v->scene.names[worst_box], (long long)worst_step);
    double final_dy = (double)v->now[top].p.y - (double)v->start[top].p.y;
    cr_assert(fabs(final_dy) < 0.05, "stack_10: top box height changed by %g m after 10 s, limit 0.05 m", final_dy);
    cr_assert(worst_sink < 0.05, "stack_10: top box height off by up to %g m during the run, limit 0.05 m", worst_sink);
}

/* 210 boxes x 600 steps: the longest validation run. */
Test(validation, pyramid_20_stands_for_10_seconds, .timeout = 120)
{
    vx_validation *v = vx_validation_open("bench/pyramid_20");
    size_t boxes = 0;
    for (size_t i = 0; i < v->scene.entity_count; i++) boxes += vx_validation_is_dynamic(v, i);
    cr_assert_eq(boxes, 210, "pyramid_20: %zu boxes", boxes);
    double worst = 0.0;
    size_t worst_box = 0;
    int64_t worst_step = 0;
    for (int k = 0; k < 600; k++) {
        vx_validation_step(v);
        for (size_t i = 0; i < v->scene.entity_count; i++) {
            if (!vx_validation_is_dynamic(v, i)) continue;
            double d = vx_validation_distance(v->now[i].p, v->start[i].p);
            if (d > worst) {
                worst = d;
                worst_box = i;
                worst_step = v->steps_done;
            }
        }
    }
    vx_vec3 from = v->start[worst_box].p;
    cr_assert(worst < 0.10, "pyramid_20: %s (start %g %g %g) moved %g m by step %lld, limit 0.10 m",
              v->scene.names[worst_box], (double)from.x, (double)from.y, (double)from.z, worst,
              (long long)worst_step);
}
