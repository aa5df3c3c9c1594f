/* The state the traces record, read from the world without changing it. */
#include "voltex/trace.h"

#include <string.h>

void vx_trace_snapshot(vx_world *world, const vx_entity *entities, size_t count, vx_body_state *states)
{
    for (size_t i = 0; i < count; i++) {
        vx_body_state *s = &states[i];
        memset(s, 0, sizeof *s);
        const vx_transform *t = vx_world_get_const(world, entities[i], VX_COMPONENT_TRANSFORM);
        if (t) {
            s->p = t->position;
            s->q = t->rotation;
        } else {
            s->q = vx_quat_identity();
        }
        const vx_rigidbody *rb = vx_world_get_const(world, entities[i], VX_COMPONENT_RIGIDBODY);
        if (rb) {
            s->v = rb->velocity;
            s->w = rb->angular_velocity;
        }
    }
}
