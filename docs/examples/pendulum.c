/* A pendulum from the library: a 1 kg ball on a 1 m distance joint to the
 * world, swung from 10 degrees; prints when it swings back through the
 * bottom and what the string pulls there. */
#include <math.h>
#include <stdio.h>
#include <voltex/voltex.h>

int main(void)
{
    vx_error err;
    vx_world_def world_def = vx_world_def_default();
    vx_world *world = vx_world_create(&world_def, &err);
    if (!world) return fprintf(stderr, "%s\n", err.message), 1;

    float angle = 10.0f * 3.14159265f / 180.0f;
    vx_body_def ball_def = vx_body_def_default(); /* dynamic, 1 kg */
    ball_def.position = vx_vec3_make(sinf(angle), 2.0f - cosf(angle), 0.0f);
    vx_entity ball;
    vx_collider sphere = vx_collider_sphere(0.05f);
    if (vx_world_create_body(world, &ball_def, &ball, &err) != VX_OK ||
        vx_body_set_shape(world, ball, &sphere, &err) != VX_OK)
        return fprintf(stderr, "%s\n", err.message), 1;

    vx_joint_def string = vx_distance_joint_def_default();
    string.b = ball; /* a stays VX_ENTITY_NULL: the world */
    string.anchor_a = vx_vec3_make(0.0f, 2.0f, 0.0f);
    string.anchor_b = ball_def.position;
    vx_joint_id joint;
    if (vx_world_create_joint(world, &string, &joint, &err) != VX_OK) return fprintf(stderr, "%s\n", err.message), 1;

    float x_before = ball_def.position.x;
    for (int step = 1; step <= 240; step++) {
        if (vx_world_step(world, &err) != VX_OK) return fprintf(stderr, "%s\n", err.message), 1;
        vx_body_state s;
        vx_joint_state j;
        vx_body_get_state(world, ball, &s, NULL);
        vx_joint_get_state(world, joint, &j, NULL);
        if (x_before < 0.0f && s.p.x >= 0.0f) /* back through the bottom, moving +x */
            printf("t %.3f s: length %.6f m, tension %.3f N\n", step / 60.0, j.position, vx_vec3_length(j.force));
        x_before = s.p.x;
    }
    vx_world_destroy(world);
    return 0;
}
