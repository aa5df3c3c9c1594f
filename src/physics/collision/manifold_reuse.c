/* Manifolds kept from one step to the next. See manifold_reuse.h. */
#include "physics/collision/manifold_reuse.h"

#include <math.h>
#include <string.h>

#include "common/simd4.h"
#include "physics/collision/ccd.h"

/* Polyhedra only: a sphere's or a capsule's contact point is no point of the
 * body (it rolls away from its anchor). */
static bool kept_shape(const vx_collider *c)
{
    return !c->sensor && (c->type == VX_SHAPE_BOX || c->type == VX_SHAPE_HULL);
}

/* c is still the shape the memo was made with: the same box size, the same hull. */
static bool same_shape(const vx_collider *memo, const vx_collider *c)
{
    if (!kept_shape(c) || c->type != memo->type) return false;
    if (c->type == VX_SHAPE_HULL) return c->hull == memo->hull;
    return c->half_extents.x == memo->half_extents.x && c->half_extents.y == memo->half_extents.y &&
           c->half_extents.z == memo->half_extents.z;
}

/* B's centre and orientation in A's frame. */
static void relative_pose(const vx_body_pose *pa, const vx_body_pose *pb, vx_vec3 *offset, vx_quat *turn)
{
    *offset = vx_v4_to_vec3(vx_pose_to_body4(pa, vx_v4_load3(&pb->x)));
    *turn = vx_quat_mul(vx_quat_conjugate(pa->q), pb->q);
}

bool vx_manifold_memo_make(const vx_body_set *bodies, uint32_t a, uint32_t b, const vx_manifold *m,
                           vx_manifold_memo *out)
{
    if (m->count <= 0 || m->count > VX_MANIFOLD_MAX_POINTS) return false;
    const vx_collider *ca = &bodies->info[a].collider, *cb = &bodies->info[b].collider;
    if (!kept_shape(ca) || !kept_shape(cb)) return false;
    for (int k = 0; k < m->count; k++)
        if (!(m->points[k].depth > -VX_CCD_TOUCH_DISTANCE)) return false;
    const vx_body_pose *pa = &bodies->pose[a];
    const vx_body_pose *pb = &bodies->pose[b];
    memset(out, 0, sizeof *out);
    out->a = bodies->info[a].entity;
    out->b = bodies->info[b].entity;
    out->shape_a = *ca;
    out->shape_b = *cb;
    relative_pose(pa, pb, &out->offset, &out->turn);
    out->normal = vx_v4_to_vec3(vx_v4_quat_rotate(vx_v4_conjugate(vx_v4_load_quat(&pa->q)), vx_v4_load3(&m->normal)));
    out->count = m->count;
    for (int k = 0; k < m->count; k++) {
        out->local_a[k] = vx_v4_to_vec3(vx_pose_to_body4(pa, vx_v4_load3(&m->points[k].point_a)));
        out->local_b[k] = vx_v4_to_vec3(vx_pose_to_body4(pb, vx_v4_load3(&m->points[k].point_b)));
        out->feature[k] = m->points[k].feature;
    }
    return true;
}

bool vx_manifold_memo_reuse(const vx_manifold_memo *memo, const vx_body_set *bodies, uint32_t a, uint32_t b,
                            vx_manifold *out)
{
    const vx_body_info *ia = &bodies->info[a], *ib = &bodies->info[b];
    if (!vx_entity_equal(memo->a, ia->entity) || !vx_entity_equal(memo->b, ib->entity) ||
        !same_shape(&memo->shape_a, &ia->collider) || !same_shape(&memo->shape_b, &ib->collider))
        return false;
    const vx_body_pose *pa = &bodies->pose[a];
    const vx_body_pose *pb = &bodies->pose[b];
    vx_vec3 offset;
    vx_quat turn;
    relative_pose(pa, pb, &offset, &turn);
    /* How far a point of either body near the contact has moved relative
     * to the other since the memo was made: B's centre in A's frame, plus
     * the turn (sin of half the angle s: the angle is 2 asin s, about 2 s)
     * times the smaller body's reach, within which the contact lies. */
    vx_vec3 moved = vx_vec3_sub(offset, memo->offset);
    vx_quat delta = vx_quat_mul(vx_quat_conjugate(memo->turn), turn);
    float sin_half = sqrtf(delta.x * delta.x + delta.y * delta.y + delta.z * delta.z);
    float reach = fminf(ia->sweep_radius, ib->sweep_radius);
    float drift = sqrtf(vx_vec3_dot(moved, moved)) + 2.0f * sin_half * reach;
    if (!(drift < VX_MANIFOLD_REUSE_DISTANCE)) return false;

    vx_v4 n = vx_v4_quat_rotate(vx_v4_load_quat(&pa->q), vx_v4_load3(&memo->normal));
    out->normal = vx_v4_to_vec3(n);
    out->count = memo->count;
    for (int k = 0; k < memo->count; k++) {
        vx_manifold_point *p = &out->points[k];
        vx_v4 wa = vx_pose_to_world4(pa, &memo->local_a[k]);
        vx_v4 wb = vx_pose_to_world4(pb, &memo->local_b[k]);
        p->point_a = vx_v4_to_vec3(wa);
        p->point_b = vx_v4_to_vec3(wb);
        p->depth = vx_v4_dot3(vx_v4_sub(wa, wb), n);
        p->feature = memo->feature[k];
    }
    for (int k = memo->count; k < VX_MANIFOLD_MAX_POINTS; k++) memset(&out->points[k], 0, sizeof out->points[k]);
    return true;
}

static bool key_before(const vx_manifold_memo *m, uint32_t a, uint32_t b)
{
    return m->a.index < a || (m->a.index == a && m->b.index < b);
}

size_t vx_manifold_memo_lower_bound(const vx_manifold_memo *memos, size_t count, uint32_t a, uint32_t b)
{
    size_t lo = 0, hi = count;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2u;
        if (key_before(&memos[mid], a, b))
            lo = mid + 1u;
        else
            hi = mid;
    }
    return lo;
}

const vx_manifold_memo *vx_manifold_memo_find(const vx_manifold_memo *memos, size_t count, size_t *cursor,
                                              uint32_t a, uint32_t b)
{
    while (*cursor < count && key_before(&memos[*cursor], a, b)) (*cursor)++;
    if (*cursor < count && memos[*cursor].a.index == a && memos[*cursor].b.index == b) return &memos[*cursor];
    return NULL;
}
