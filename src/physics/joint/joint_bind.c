/* The joints' bodies found among the step's (joint_solver.h): slots,
 * frames in the bodies' frames, the pairs that do not collide, the links of
 * the islands. */
#include <stdlib.h>
#include <string.h>

#include "common/array.h"
#include "physics/body/shape.h"
#include "physics/joint/joint_solver.h"

void vx_joint_solver_init(vx_joint_solver *js)
{
    memset(js, 0, sizeof *js);
    vx_joint_tree_init(&js->tree);
    js->use_tree = true;
}

void vx_joint_solver_free(vx_joint_solver *js)
{
    free(js->bound);
    free(js->rows);
    free(js->pass_rows);
    free(js->no_collide);
    free(js->links);
    vx_joint_tree_free(&js->tree);
    vx_joint_solver_init(js);
}

static bool is_world(vx_entity e) { return e.index == VX_ENTITY_NULL.index; }

/* The slot of entity e among the gathered bodies (entity index order). */
static bool slot_of(const vx_body_set *bodies, vx_entity e, uint32_t *slot)
{
    size_t lo = 0, hi = bodies->count;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2u;
        if (bodies->info[mid].entity.index < e.index)
            lo = mid + 1u;
        else
            hi = mid;
    }
    if (lo == bodies->count || bodies->info[lo].entity.index != e.index ||
        bodies->info[lo].entity.generation != e.generation)
        return false;
    *slot = (uint32_t)lo;
    return true;
}

static int compare_keys(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : (x > y ? 1 : 0);
}

static uint64_t pair_key(uint32_t a, uint32_t b)
{
    uint32_t lo = a < b ? a : b, hi = a < b ? b : a;
    return (uint64_t)lo << 32 | hi;
}

/* Side s's frames in its body's frame: the body frame is the shape's
 * (a hull's principal frame), placed in the entity's. */
static void bind_side(vx_joint *j, int s, const vx_body_set *bodies)
{
    vx_joint_side *side = &j->side[s];
    side->anchor = j->entity_anchor[s];
    side->axis = j->entity_axis[s];
    if (side->slot == VX_JOINT_WORLD || !bodies->info[side->slot].framed) return;
    vx_transform f = vx_shape_frame(&bodies->info[side->slot].collider);
    vx_quat to_body = vx_quat_conjugate(f.rotation);
    side->anchor = vx_quat_rotate(to_body, vx_vec3_sub(side->anchor, f.position));
    side->axis = vx_quat_rotate(to_body, side->axis);
}

static vx_quat frame_rotation(const vx_joint *j, int s, const vx_body_set *bodies)
{
    uint32_t slot = j->side[s].slot;
    if (slot == VX_JOINT_WORLD || !bodies->info[slot].framed) return vx_quat_identity();
    return vx_shape_frame(&bodies->info[slot].collider).rotation;
}

static vx_status reserve(vx_joint_solver *js, size_t joints)
{
    vx_status st = VX_OK;
    VX_RESERVE(st, js->bound, js->bound_capacity, joints, 16u);
    size_t row_capacity = js->row_capacity;
    VX_RESERVE(st, js->rows, js->row_capacity, joints, 16u);
    js->row_capacity = row_capacity;
    VX_RESERVE(st, js->pass_rows, js->row_capacity, joints, 16u);
    VX_RESERVE(st, js->no_collide, js->no_collide_capacity, joints, 16u);
    VX_RESERVE(st, js->links, js->link_capacity, joints, 16u);
    return st;
}

vx_status vx_joint_solver_bind(vx_joint_solver *js, vx_joint_set *set, const vx_body_set *bodies)
{
    js->set = set;
    js->bound_count = js->row_count = js->no_collide_count = js->link_count = 0;
    if (!set || set->live == 0) return VX_OK;
    vx_status st = reserve(js, set->count);
    if (st != VX_OK) return st;
    for (size_t i = 0; i < set->count; i++) {
        vx_joint *j = &set->items[i];
        j->active = false;
        if (j->generation == 0u) continue;
        if (j->broken) { /* acts no more: no force from the step after the one it broke in */
            j->state.force = j->state.torque = vx_vec3_zero();
            continue;
        }
        vx_entity e[2] = {j->def.a, j->def.b};
        bool found = true;
        for (int s = 0; s < 2; s++) {
            j->side[s].slot = VX_JOINT_WORLD;
            if (!is_world(e[s]) && !slot_of(bodies, e[s], &j->side[s].slot)) found = false;
        }
        if (!found) continue;
        for (int s = 0; s < 2; s++) bind_side(j, s, bodies);
        /* conj(qA fA) (qB fB) at creation = conj(fA) conj(qA) qB fB */
        j->body_reference = vx_quat_mul(vx_quat_mul(vx_quat_conjugate(frame_rotation(j, 0, bodies)), j->reference),
                                        frame_rotation(j, 1, bodies));
        j->step_linear = vx_vec3_zero();
        j->step_angular = vx_vec3_zero();
        js->bound[js->bound_count++] = (uint32_t)i;
        uint32_t a = j->side[0].slot, b = j->side[1].slot;
        if (a == VX_JOINT_WORLD || b == VX_JOINT_WORLD) continue;
        if (!j->def.collide_connected) js->no_collide[js->no_collide_count++] = pair_key(a, b);
        if (bodies->info[a].motion == VX_MOTION_DYNAMIC && bodies->info[b].motion == VX_MOTION_DYNAMIC) {
            js->links[js->link_count].a = a;
            js->links[js->link_count++].b = b;
        }
    }
    if (js->no_collide_count > 1u) qsort(js->no_collide, js->no_collide_count, sizeof *js->no_collide, compare_keys);
    return VX_OK;
}

static bool no_collide(const vx_joint_solver *js, uint64_t key)
{
    size_t lo = 0, hi = js->no_collide_count;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2u;
        if (js->no_collide[mid] < key)
            lo = mid + 1u;
        else
            hi = mid;
    }
    return lo < js->no_collide_count && js->no_collide[lo] == key;
}

void vx_joint_solver_filter_pairs(const vx_joint_solver *js, vx_broadphase_pair_list *pairs)
{
    if (js->no_collide_count == 0u) return;
    size_t kept = 0;
    for (size_t p = 0; p < pairs->count; p++)
        if (!no_collide(js, pair_key(pairs->items[p].a, pairs->items[p].b))) pairs->items[kept++] = pairs->items[p];
    pairs->count = kept;
}

void vx_joint_side_pose(const vx_joint *j, int s, const vx_body_set *bodies, vx_vec3 *x, vx_quat *q)
{
    uint32_t slot = j->side[s].slot;
    if (slot == VX_JOINT_WORLD) {
        *x = vx_vec3_zero();
        *q = vx_quat_identity();
        return;
    }
    *x = bodies->pose[slot].x;
    *q = bodies->pose[slot].q;
}
