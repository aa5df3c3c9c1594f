/* A ball dropped onto a floor, stepped at 60 Hz for two seconds. */
#include <stdio.h>
#include <voltex/voltex.h>

int main(void)
{
    vx_error err;
    vx_world_def def = vx_world_def_default(); /* gravity -9.81 m/s^2 along Y, 60 Hz */
    vx_world *world = vx_world_create(&def, &err);
    if (!world) return fprintf(stderr, "%s\n", err.message), 1;

    vx_body_def floor_def = vx_body_def_default();
    floor_def.type = VX_BODY_STATIC;
    floor_def.position = vx_vec3_make(0.0f, -1.0f, 0.0f);
    vx_body_def ball_def = vx_body_def_default(); /* dynamic, 1 kg */
    ball_def.position = vx_vec3_make(0.0f, 5.0f, 0.0f);
    ball_def.restitution = 0.5f;
    vx_collider floor_shape = vx_collider_box(vx_vec3_make(10.0f, 1.0f, 10.0f));
    vx_collider ball_shape = vx_collider_sphere(0.5f);
    vx_entity floor, ball;
    if (vx_world_create_body(world, &floor_def, &floor, &err) || vx_body_set_shape(world, floor, &floor_shape, &err) ||
        vx_world_create_body(world, &ball_def, &ball, &err) || vx_body_set_shape(world, ball, &ball_shape, &err))
        return fprintf(stderr, "%s\n", err.message), 1;

    for (int step = 1; step <= 120; step++) {
        if (vx_world_step(world, &err) != VX_OK) return fprintf(stderr, "%s\n", err.message), 1;
        vx_body_state ball_now;
        vx_body_get_state(world, ball, &ball_now, NULL);
        if (step % 15 == 0)
            printf("t %.2f s  y %.4f m  vy %+.4f m/s  contacts %zu\n", step * (double)def.fixed_dt, ball_now.p.y,
                   ball_now.v.y, vx_world_contacts(world)->count);
    }
    vx_world_destroy(world);
    return 0;
}
