/* Joints through the world (voltex/joint.h). */
#include <math.h>
#include <string.h>

#include "physics/world_internal.h"
#include "voltex/joint.h"

static bool is_world(vx_entity e) { return e.index == VX_ENTITY_NULL.index; }

/* Side `name` of a joint: the world, or a body of this world (its
 * transform and whether it is dynamic). */
static vx_status side_of(const vx_world *world, vx_entity e, const char *name, const vx_transform **t,
                         bool *dynamic, vx_error *err)
{
    *t = NULL;
    *dynamic = false;
    if (is_world(e)) return VX_OK;
    *t = vx_registry_get_const(world->registry, e, VX_COMPONENT_TRANSFORM);
    const vx_rigidbody *rb = vx_registry_get_const(world->registry, e, VX_COMPONENT_RIGIDBODY);
    if (!*t) return vx_error_set(err, VX_ERR_INVALID, "joint: %s: entity %u is not in this world", name, e.index);
    *dynamic = rb && rb->type == VX_BODY_DYNAMIC; /* a collider without a rigid body is static */
    return VX_OK;
}

vx_status vx_world_create_joint(vx_world *world, const vx_joint_def *def, vx_joint_id *out, vx_error *err)
{
    if (!def || !out) return vx_error_set(err, VX_ERR_INVALID, "joint: no def given");
    out->index = 0u;
    out->generation = 0u;
    if (is_world(def->a) && is_world(def->b))
        return vx_error_set(err, VX_ERR_INVALID, "joint: a, b: both are the world; at least one must be a body");
    if (!is_world(def->a) && def->a.index == def->b.index && def->a.generation == def->b.generation)
        return vx_error_set(err, VX_ERR_INVALID, "joint: a, b: the same body on both sides");
    const vx_transform *ta, *tb;
    bool da, db;
    vx_status st = side_of(world, def->a, "a", &ta, &da, err);
    if (st == VX_OK) st = side_of(world, def->b, "b", &tb, &db, err);
    if (st == VX_OK) st = vx_joint_def_check(def, da, db, err);
    if (st != VX_OK) return st;
    if (def->type == VX_JOINT_DISTANCE && !def->limit_enabled && !(def->length > 0.0f) &&
        !(vx_vec3_length(vx_vec3_sub(def->anchor_b, def->anchor_a)) > 0.0f))
        return vx_error_set(err, VX_ERR_INVALID, "joint: length: the anchors coincide, so the length would be 0");
    st = vx_joint_set_add(&world->joints, def, ta, tb, out);
    if (st != VX_OK) return vx_error_set(err, st, "out of memory");
    world->changes++;
    return VX_OK;
}

bool vx_world_destroy_joint(vx_world *world, vx_joint_id joint)
{
    world->changes++;
    return vx_joint_set_remove(&world->joints, joint);
}

vx_status vx_joint_get_state(const vx_world *world, vx_joint_id joint, vx_joint_state *out, vx_error *err)
{
    const vx_joint *j = vx_joint_set_get_const(&world->joints, joint);
    if (!j) return vx_error_set(err, VX_ERR_INVALID, "joint %u: not in the world", joint.index);
    *out = j->state;
    return VX_OK;
}

vx_status vx_joint_get_def(const vx_world *world, vx_joint_id joint, vx_joint_def *out, vx_error *err)
{
    const vx_joint *j = vx_joint_set_get_const(&world->joints, joint);
    if (!j) return vx_error_set(err, VX_ERR_INVALID, "joint %u: not in the world", joint.index);
    *out = j->def;
    return VX_OK;
}
