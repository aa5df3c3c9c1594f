/* Contact manifolds kept from one step to the next (private to the physics
 * module; used by narrow_phase.c), as Jolt's body pair cache and Bullet's
 * persistent manifolds. Only manifolds of two polyhedra (boxes, hulls) whose
 * points all touch (depth above -VX_CCD_TOUCH_DISTANCE) are kept; a memo
 * serves while the shapes are the same and the points near the contact have
 * moved less than VX_MANIFOLD_REUSE_DISTANCE relative to each other since it
 * was made.
 * See docs/simulation.md, "Contact reuse". */
#ifndef VOLTEX_PHYSICS_MANIFOLD_REUSE_H
#define VOLTEX_PHYSICS_MANIFOLD_REUSE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "physics/body/body_set.h"
#include "voltex/collide.h"
#include "voltex/ecs.h"

/* m: how far the points near the contact may have moved relative to each
 * other (Jolt allows 1 mm for the centres plus 2 degrees of turn) */
#define VX_MANIFOLD_REUSE_DISTANCE 1e-3f

typedef struct {
    vx_entity a, b;         /* the pair (the key: a.index, b.index) */
    vx_collider shape_a, shape_b; /* the two shapes (box sizes, hulls) it was made with */
    vx_vec3 offset;         /* qA^-1 (xB - xA) when the narrow phase ran */
    vx_quat turn;           /* qA^-1 qB then */
    vx_vec3 normal;         /* in A's frame */
    int count;
    vx_vec3 local_a[VX_MANIFOLD_MAX_POINTS]; /* the points in A's and B's frames */
    vx_vec3 local_b[VX_MANIFOLD_MAX_POINTS];
    uint32_t feature[VX_MANIFOLD_MAX_POINTS];
} vx_manifold_memo;

/* The memo of manifold m (normal from a to b) found at the bodies' current
 * poses; false (and *out unspecified) when m is not kept: some point does
 * not touch. */
bool vx_manifold_memo_make(const vx_body_set *bodies, uint32_t a, uint32_t b, const vx_manifold *m,
                           vx_manifold_memo *out);

/* The manifold of the memo at the bodies' current poses, when it still
 * serves (the same entities and shapes, the pose within the limits): true
 * and *out filled; false otherwise (*out untouched). */
bool vx_manifold_memo_reuse(const vx_manifold_memo *memo, const vx_body_set *bodies, uint32_t a, uint32_t b,
                            vx_manifold *out);

/* The first memo of memos[0 .. count) (sorted by (a.index, b.index)) not
 * before the pair of entity indices (a, b). */
size_t vx_manifold_memo_lower_bound(const vx_manifold_memo *memos, size_t count, uint32_t a, uint32_t b);

/* The memo of the pair of entity indices (a, b), walking on from *cursor
 * (pairs looked up in increasing order), or NULL. */
const vx_manifold_memo *vx_manifold_memo_find(const vx_manifold_memo *memos, size_t count, size_t *cursor,
                                              uint32_t a, uint32_t b);

#endif
