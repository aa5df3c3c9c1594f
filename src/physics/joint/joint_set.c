/* A world's joints (joint_set.h). */
#include "physics/joint/joint_set.h"

#include <stdlib.h>
#include <string.h>

#include "common/array.h"

void vx_joint_set_init(vx_joint_set *set) { memset(set, 0, sizeof *set); }

void vx_joint_set_free(vx_joint_set *set)
{
    free(set->items);
    vx_joint_set_init(set);
}

const vx_joint *vx_joint_set_get_const(const vx_joint_set *set, vx_joint_id id)
{
    if (id.generation == 0u || id.index >= set->count) return NULL;
    const vx_joint *j = &set->items[id.index];
    return j->generation == id.generation ? j : NULL;
}

vx_joint *vx_joint_set_get(vx_joint_set *set, vx_joint_id id)
{
    return (vx_joint *)vx_joint_set_get_const(set, id);
}

/* A point and a direction of the world in the frame of t (NULL: the world's). */
static vx_vec3 to_local_point(const vx_transform *t, vx_vec3 p)
{
    if (!t) return p;
    return vx_quat_rotate(vx_quat_conjugate(t->rotation), vx_vec3_sub(p, t->position));
}

static vx_vec3 to_local_direction(const vx_transform *t, vx_vec3 d)
{
    return t ? vx_quat_rotate(vx_quat_conjugate(t->rotation), d) : d;
}

static vx_quat rotation_of(const vx_transform *t) { return t ? t->rotation : vx_quat_identity(); }

vx_status vx_joint_set_add(vx_joint_set *set, const vx_joint_def *def, const vx_transform *ta,
                           const vx_transform *tb, vx_joint_id *out)
{
    /* a freed slot first (lowest index), else a new one */
    size_t index = set->count;
    for (size_t i = 0; set->live < set->count && i < set->count; i++) /* none is free when all are live */
        if (set->items[i].generation == 0u) {
            index = i;
            break;
        }
    if (index == set->count) {
        vx_status st = VX_OK;
        if (set->count + 1u > set->capacity) {
            size_t cap;
            st = vx_grow_capacity(set->capacity, set->count + 1u, 16u, sizeof *set->items, &cap);
            VX_GROW_ARRAY(st, set->items, cap);
            if (st != VX_OK) return st;
            set->capacity = cap;
        }
        memset(&set->items[index], 0, sizeof set->items[index]);
        set->count++;
    }
    vx_joint *j = &set->items[index];
    memset(j, 0, sizeof *j);
    j->def = *def;
    if (vx_vec3_length_sq(def->axis) > 0.0f) j->def.axis = vx_vec3_normalize(def->axis);
    const vx_transform *t[2] = {ta, tb};
    bool distance = def->type == VX_JOINT_DISTANCE;
    vx_vec3 anchor[2] = {distance ? def->anchor_a : def->anchor, distance ? def->anchor_b : def->anchor};
    for (int s = 0; s < 2; s++) {
        j->entity_anchor[s] = to_local_point(t[s], anchor[s]);
        j->entity_axis[s] = to_local_direction(t[s], j->def.axis);
    }
    j->reference = vx_quat_mul(vx_quat_conjugate(rotation_of(ta)), rotation_of(tb));
    if (distance) {
        float now = vx_vec3_length(vx_vec3_sub(def->anchor_b, def->anchor_a));
        if (!def->limit_enabled && !(def->length > 0.0f)) j->def.length = now;
        if (def->spring.enabled && def->spring.rest < 0.0f) j->def.spring.rest = now;
        j->state.position = now;
    }
    if (++set->generations == 0u) set->generations = 1u; /* 0 names no joint */
    j->generation = set->generations;
    set->live++;
    set->version++;
    out->index = (uint32_t)index;
    out->generation = j->generation;
    return VX_OK;
}

bool vx_joint_set_remove(vx_joint_set *set, vx_joint_id id)
{
    vx_joint *j = vx_joint_set_get(set, id);
    if (!j) return false;
    memset(j, 0, sizeof *j); /* generation 0: free */
    set->live--;
    set->version++;
    return true;
}
