/* The physics module's component types, registered in a world by id. */
#include "voltex/physics.h"

vx_status vx_physics_register_components(vx_world *world)
{
    vx_status st = vx_world_register_component(world, VX_COMPONENT_TRANSFORM, sizeof(vx_transform));
    if (st != VX_OK) return st;
    st = vx_world_register_component(world, VX_COMPONENT_COLLIDER, sizeof(vx_collider));
    if (st != VX_OK) return st;
    return vx_world_register_component(world, VX_COMPONENT_RIGIDBODY, sizeof(vx_rigidbody));
}
