#include "voltex/ecs.h"

vx_transform vx_transform_identity(void)
{
    return vx_transform_from_position(vx_vec3_zero());
}

vx_transform vx_transform_from_position(vx_vec3 position)
{
    vx_transform t;
    t.position = position;
    t.rotation = vx_quat_identity();
    return t;
}
