/* The shape-pair table (collide_shapes.h). */
#include "physics/collision/collide_shapes.h"

#include "common/assert.h"
#include "physics/body/compound.h"
#include "physics/body/hull.h"
#include "physics/collision/collide_compound.h"
#include "physics/collision/collide_internal.h"
#include "physics/collision/collide_mesh.h"

static bool sphere_sphere(const vx_collider *a, const vx_transform *ta, const vx_collider *b, const vx_transform *tb,
                          float margin, vx_manifold *out)
{
    return vx_collide_sphere_sphere(ta->position, a->radius, tb->position, b->radius, margin, out);
}

static bool sphere_box(const vx_collider *a, const vx_transform *ta, const vx_collider *b, const vx_transform *tb,
                       float margin, vx_manifold *out)
{
    return vx_collide_sphere_box(ta->position, a->radius, tb, b->half_extents, margin, out);
}

static bool box_box(const vx_collider *a, const vx_transform *ta, const vx_collider *b, const vx_transform *tb,
                    float margin, vx_manifold *out)
{
    return vx_collide_box_box(ta, a->half_extents, tb, b->half_extents, margin, out);
}

static bool capsule_sphere(const vx_collider *a, const vx_transform *ta, const vx_collider *b,
                           const vx_transform *tb, float margin, vx_manifold *out)
{
    return vx_collide_capsule_sphere(ta, a->radius, a->half_height, tb->position, b->radius, margin, out);
}

static bool capsule_box(const vx_collider *a, const vx_transform *ta, const vx_collider *b, const vx_transform *tb,
                        float margin, vx_manifold *out)
{
    return vx_collide_capsule_box(ta, a->radius, a->half_height, tb, b->half_extents, margin, out);
}

static bool capsule_capsule(const vx_collider *a, const vx_transform *ta, const vx_collider *b,
                            const vx_transform *tb, float margin, vx_manifold *out)
{
    return vx_collide_capsule_capsule(ta, a->radius, a->half_height, tb, b->radius, b->half_height, margin, out);
}

static bool hull_sphere(const vx_collider *a, const vx_transform *ta, const vx_collider *b, const vx_transform *tb,
                        float margin, vx_manifold *out)
{
    return vx_collide_hull_sphere(a->hull, ta, tb->position, b->radius, margin, out);
}

static bool hull_box(const vx_collider *a, const vx_transform *ta, const vx_collider *b, const vx_transform *tb,
                     float margin, vx_manifold *out)
{
    return vx_collide_hull_box(a->hull, ta, tb, b->half_extents, margin, out);
}

static bool hull_capsule(const vx_collider *a, const vx_transform *ta, const vx_collider *b, const vx_transform *tb,
                         float margin, vx_manifold *out)
{
    return vx_collide_hull_capsule(a->hull, ta, tb, b->radius, b->half_height, margin, out);
}

static bool hull_hull(const vx_collider *a, const vx_transform *ta, const vx_collider *b, const vx_transform *tb,
                      float margin, vx_manifold *out)
{
    return vx_collide_hull_hull(a->hull, ta, b->hull, tb, margin, out);
}

#define SHAPE_TYPES 4

typedef struct {
    vx_collide_fn fn;
    bool swapped; /* fn takes B first: call it swapped, then flip the manifold */
} pair_entry;

static const pair_entry pairs[SHAPE_TYPES][SHAPE_TYPES] = {
    [VX_SHAPE_SPHERE] = {[VX_SHAPE_SPHERE] = {sphere_sphere, false},
                         [VX_SHAPE_BOX] = {sphere_box, false},
                         [VX_SHAPE_CAPSULE] = {capsule_sphere, true},
                         [VX_SHAPE_HULL] = {hull_sphere, true}},
    [VX_SHAPE_BOX] = {[VX_SHAPE_SPHERE] = {sphere_box, true},
                      [VX_SHAPE_BOX] = {box_box, false},
                      [VX_SHAPE_CAPSULE] = {capsule_box, true},
                      [VX_SHAPE_HULL] = {hull_box, true}},
    [VX_SHAPE_CAPSULE] = {[VX_SHAPE_SPHERE] = {capsule_sphere, false},
                          [VX_SHAPE_BOX] = {capsule_box, false},
                          [VX_SHAPE_CAPSULE] = {capsule_capsule, false},
                          [VX_SHAPE_HULL] = {hull_capsule, true}},
    [VX_SHAPE_HULL] = {[VX_SHAPE_SPHERE] = {hull_sphere, false},
                       [VX_SHAPE_BOX] = {hull_box, false},
                       [VX_SHAPE_CAPSULE] = {hull_capsule, false},
                       [VX_SHAPE_HULL] = {hull_hull, false}},
};

/* A mesh against a convex shape: the manifold of the deepest point (meshes
 * meet no meshes). */
static bool collide_mesh_deepest(const vx_collider *a, const vx_transform *ta, const vx_collider *b,
                                 const vx_transform *tb, float margin, vx_manifold *out)
{
    vx_manifold_reset(out);
    bool flip = vx_collider_is_mesh(b);
    if (flip && vx_collider_is_mesh(a)) return false;
    vx_mesh_manifold m[VX_MESH_MAX_MANIFOLDS];
    int n = flip ? vx_collide_mesh(b, tb, a, ta, margin, m) : vx_collide_mesh(a, ta, b, tb, margin, m);
    int best = -1;
    float deepest = 0.0f;
    for (int i = 0; i < n; i++)
        for (int k = 0; k < m[i].manifold.count; k++)
            if (best < 0 || m[i].manifold.points[k].depth > deepest) {
                best = i;
                deepest = m[i].manifold.points[k].depth;
            }
    if (best < 0) return false;
    *out = m[best].manifold;
    if (flip) vx_manifold_flip(out);
    return true;
}

bool vx_collide_shapes(const vx_collider *a, const vx_transform *ta, const vx_collider *b, const vx_transform *tb,
                       float margin, vx_manifold *out)
{
    if (vx_collider_is_compound(a) || vx_collider_is_compound(b))
        return vx_collide_compound_deepest(a, ta, b, tb, margin, out);
    if (vx_collider_is_mesh(a) || vx_collider_is_mesh(b)) return collide_mesh_deepest(a, ta, b, tb, margin, out);
    VX_ASSERT((unsigned)a->type < SHAPE_TYPES && (unsigned)b->type < SHAPE_TYPES);
    const pair_entry *e = &pairs[a->type][b->type];
    bool hit = e->swapped ? e->fn(b, tb, a, ta, margin, out) : e->fn(a, ta, b, tb, margin, out);
    if (!hit || out->count <= 0) return false;
    if (e->swapped) vx_manifold_flip(out);
    return true;
}

/* The table's manifold, and for a capsule on a box the point of its other
 * end, added with the capsule as A. */
bool vx_collide_convex_pair(const vx_collider *ca, const vx_transform *ta, const vx_mat3 *ra, const vx_collider *cb,
                            const vx_transform *tb, const vx_mat3 *rb, float margin, vx_sat_axis *axis,
                            vx_manifold *m)
{
    bool hit = axis ? vx_collide_shapes_axis(ca, ta, ra, cb, tb, rb, margin, axis, m)
                    : vx_collide_shapes(ca, ta, cb, tb, margin, m);
    if (!hit) return false;
    if (ca->type == VX_SHAPE_CAPSULE && cb->type == VX_SHAPE_BOX) {
        vx_collide_capsule_box_far_end(ca, ta, cb, tb, margin, m);
    } else if (ca->type == VX_SHAPE_BOX && cb->type == VX_SHAPE_CAPSULE) {
        vx_manifold_flip(m); /* exact: negation and swaps */
        vx_collide_capsule_box_far_end(cb, tb, ca, ta, margin, m);
        vx_manifold_flip(m);
    }
    return true;
}

bool vx_collide_shapes_use_axis(const vx_collider *a, const vx_collider *b)
{
    bool hull_a = a->type == VX_SHAPE_HULL, hull_b = b->type == VX_SHAPE_HULL;
    bool box_a = a->type == VX_SHAPE_BOX, box_b = b->type == VX_SHAPE_BOX;
    return (hull_a || box_a) && (hull_b || box_b);
}

bool vx_collide_shapes_axis(const vx_collider *a, const vx_transform *ta, const vx_mat3 *ra, const vx_collider *b,
                            const vx_transform *tb, const vx_mat3 *rb, float margin, vx_sat_axis *axis,
                            vx_manifold *out)
{
    if (!vx_collide_shapes_use_axis(a, b)) return vx_collide_shapes(a, ta, b, tb, margin, out);
    if (a->type == VX_SHAPE_BOX && b->type == VX_SHAPE_BOX) {
        vx_obb box_a, box_b;
        if (ra)
            vx_obb_init_rotated(&box_a, ta, ra, a->half_extents);
        else
            vx_obb_init(&box_a, ta, a->half_extents);
        if (rb)
            vx_obb_init_rotated(&box_b, tb, rb, b->half_extents);
        else
            vx_obb_init(&box_b, tb, b->half_extents);
        return vx_collide_box_box_obb_cached(&box_a, &box_b, margin, axis, out);
    }
    bool hit;
    bool swapped = a->type == VX_SHAPE_BOX; /* as the table: the hull is A */
    if (b->type == VX_SHAPE_HULL && a->type == VX_SHAPE_HULL)
        hit = vx_collide_hull_hull_rotated(a->hull, ta, ra, b->hull, tb, rb, margin, axis, out);
    else if (swapped)
        hit = vx_collide_hull_box_rotated(b->hull, tb, rb, ta, ra, a->half_extents, margin, axis, out);
    else
        hit = vx_collide_hull_box_rotated(a->hull, ta, ra, tb, rb, b->half_extents, margin, axis, out);
    if (!hit || out->count <= 0) return false;
    if (swapped) vx_manifold_flip(out);
    return true;
}
