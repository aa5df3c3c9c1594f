/* Compound pairs (collide_compound.h). */
#include "physics/collision/collide_compound.h"

#include <string.h>

#include "common/assert.h"
#include "physics/body/compound.h"
#include "physics/body/shape.h"
#include "physics/collision/collide_internal.h"
#include "physics/collision/collide_shapes.h"

/* One side of the pair: a compound's part, or the whole shape. */
typedef struct {
    const vx_collider *shape;
    vx_transform pose;
    vx_aabb box; /* grown by the margin */
} side;

static uint32_t part_count(const vx_collider *c) { return vx_collider_is_compound(c) ? c->compound->part_count : 1u; }

static side side_of(const vx_collider *c, const vx_transform *t, uint32_t i, float margin)
{
    side s;
    if (vx_collider_is_compound(c)) {
        s.shape = &c->compound->parts[i].shape;
        s.pose = vx_compound_part_pose(c->compound, i, t);
    } else {
        s.shape = c;
        s.pose = *t;
    }
    vx_aabb b = vx_shape_aabb(s.shape, s.pose.position, s.pose.rotation);
    vx_vec3 g = vx_vec3_make(margin, margin, margin);
    s.box = vx_aabb_new(vx_vec3_sub(b.min, g), vx_vec3_add(b.max, g));
    return s;
}

int vx_compound_pair_capacity(const vx_collider *a, const vx_collider *b)
{
    uint64_t n = (uint64_t)part_count(a) * part_count(b);
    if (vx_collider_is_mesh(a) || vx_collider_is_mesh(b)) n *= VX_MESH_MAX_MANIFOLDS;
    return n < VX_COMPOUND_MAX_MANIFOLDS ? (int)n : VX_COMPOUND_MAX_MANIFOLDS;
}

static float deepest(const vx_manifold *m)
{
    float d = m->points[0].depth;
    for (int k = 1; k < m->count; k++)
        if (m->points[k].depth > d) d = m->points[k].depth;
    return d;
}

/* The manifolds found so far: when full, a deeper one takes the place of
 * the shallowest (of equal depths the higher key goes). */
typedef struct {
    vx_mesh_manifold *items;
    int count, capacity;
} found_list;

static void keep(found_list *f, uint32_t key, const vx_manifold *m)
{
    if (f->count < f->capacity) {
        f->items[f->count].part = key;
        f->items[f->count++].manifold = *m;
        return;
    }
    int worst = 0;
    for (int i = 1; i < f->count; i++) {
        float di = deepest(&f->items[i].manifold), dw = deepest(&f->items[worst].manifold);
        if (di < dw || (di == dw && f->items[i].part > f->items[worst].part)) worst = i;
    }
    float dm = deepest(m), dw = deepest(&f->items[worst].manifold);
    if (dm > dw || (dm == dw && key < f->items[worst].part)) {
        f->items[worst].part = key;
        f->items[worst].manifold = *m;
    }
}

/* Part sa of A against part sb of B. */
static void collide_sides(const side *sa, const side *sb, uint32_t ia, uint32_t ib, float margin, found_list *f)
{
    if (!vx_aabb_intersects(sa->box, sb->box)) return;
    bool mesh_a = vx_collider_is_mesh(sa->shape), mesh_b = vx_collider_is_mesh(sb->shape);
    if (mesh_a && mesh_b) return;
    if (mesh_a || mesh_b) {
        vx_mesh_manifold m[VX_MESH_MAX_MANIFOLDS];
        int n = mesh_b ? vx_collide_mesh(sb->shape, &sb->pose, sa->shape, &sa->pose, margin, m)
                       : vx_collide_mesh(sa->shape, &sa->pose, sb->shape, &sb->pose, margin, m);
        for (int k = 0; k < n; k++) {
            if (mesh_b) vx_manifold_flip(&m[k].manifold); /* normal from A to B */
            vx_manifold_sort_by_feature(&m[k].manifold);
            keep(f, vx_compound_key(ia, ib, m[k].part), &m[k].manifold);
        }
        return;
    }
    vx_manifold m;
    if (!vx_collide_convex_pair(sa->shape, &sa->pose, NULL, sb->shape, &sb->pose, NULL, margin, NULL, &m)) return;
    vx_manifold_sort_by_feature(&m);
    keep(f, vx_compound_key(ia, ib, 0u), &m);
}

int vx_collide_compound(const vx_collider *a, const vx_transform *ta, const vx_collider *b, const vx_transform *tb,
                        float margin, int capacity, vx_mesh_manifold *out)
{
    VX_ASSERT(capacity >= 1);
    found_list f = {out, 0, capacity};
    uint32_t na = part_count(a), nb = part_count(b);
    side sb[VX_MAX_COMPOUND_PARTS];
    for (uint32_t j = 0; j < nb; j++) sb[j] = side_of(b, tb, j, margin);
    for (uint32_t i = 0; i < na; i++) {
        side sa = side_of(a, ta, i, 0.0f);
        for (uint32_t j = 0; j < nb; j++) collide_sides(&sa, &sb[j], i, j, margin, &f);
    }
    /* by key: insertion, a handful of them */
    for (int i = 1; i < f.count; i++) {
        vx_mesh_manifold m = out[i];
        int j = i;
        for (; j > 0 && out[j - 1].part > m.part; j--) out[j] = out[j - 1];
        out[j] = m;
    }
    return f.count;
}

bool vx_collide_compound_deepest(const vx_collider *a, const vx_transform *ta, const vx_collider *b,
                                 const vx_transform *tb, float margin, vx_manifold *out)
{
    vx_manifold_reset(out);
    vx_mesh_manifold found[VX_COMPOUND_MAX_MANIFOLDS];
    int n = vx_collide_compound(a, ta, b, tb, margin, vx_compound_pair_capacity(a, b), found);
    if (n == 0) return false;
    int best = 0;
    for (int i = 1; i < n; i++)
        if (deepest(&found[i].manifold) > deepest(&found[best].manifold)) best = i;
    *out = found[best].manifold;
    return true;
}
