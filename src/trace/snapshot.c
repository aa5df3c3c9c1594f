/* The state the traces record, read from the world without changing it. */
#include "voltex/trace.h"

#include <string.h>

void vx_trace_snapshot(const vx_world *world, const vx_entity *entities, size_t count, vx_body_state *states)
{
    for (size_t i = 0; i < count; i++) {
        if (vx_body_get_state(world, entities[i], &states[i], NULL) == VX_OK) continue;
        memset(&states[i], 0, sizeof states[i]);
        states[i].q = vx_quat_identity();
    }
}
