/* A compound against any shape (private to the physics module): each pair
 * of parts whose bounds, grown by the margin, overlap meets through the
 * convex code (a part on a mesh through collide_mesh.h), giving a manifold
 * per touching pair of parts, keyed by the parts' indices so that warm
 * starting follows each part. docs/simulation.md, "Compounds". */
#ifndef VOLTEX_PHYSICS_COLLISION_COLLIDE_COMPOUND_H
#define VOLTEX_PHYSICS_COLLISION_COLLIDE_COMPOUND_H

#include <stdbool.h>
#include <stdint.h>

#include "physics/collision/collide_mesh.h"
#include "voltex/collide.h"
#include "voltex/math.h"
#include "voltex/physics.h"

/* Manifolds of one pair with a compound at most: the deepest are kept. */
#define VX_COMPOUND_MAX_MANIFOLDS 64

/* The key of a manifold between part ia of A and part ib of B (0 for a
 * shape that is not a compound), mesh_part the mesh's key (collide_mesh.h,
 * < 2^16) or 0. */
static inline uint32_t vx_compound_key(uint32_t ia, uint32_t ib, uint32_t mesh_part)
{
    return (ia << 24) | (ib << 16) | mesh_part;
}

/* How many manifolds the pair can have at most: the parts' product (a
 * mesh counting VX_MESH_MAX_MANIFOLDS), at most VX_COMPOUND_MAX_MANIFOLDS. */
int vx_compound_pair_capacity(const vx_collider *a, const vx_collider *b);

/* The manifolds of a at ta and b at tb (one of them or both compounds,
 * body frames) closer than margin: up to capacity of them into out, the
 * deepest when there are more, normals from A to B, points sorted by
 * feature id, in increasing key order. Returns how many. */
int vx_collide_compound(const vx_collider *a, const vx_transform *ta, const vx_collider *b, const vx_transform *tb,
                        float margin, int capacity, vx_mesh_manifold *out);

/* The deepest of them (vx_collide_shapes with a compound). */
bool vx_collide_compound_deepest(const vx_collider *a, const vx_transform *ta, const vx_collider *b,
                                 const vx_transform *tb, float margin, vx_manifold *out);

#endif
