/* The narrow phase of one pair of colliders, whatever their types (private
 * to the physics module): a [type][type] table of functions with one
 * signature. Each shape pair is written once, for one order of its shapes;
 * the other order calls it with A and B swapped and flips the manifold. */
#ifndef VOLTEX_PHYSICS_COLLISION_COLLIDE_SHAPES_H
#define VOLTEX_PHYSICS_COLLISION_COLLIDE_SHAPES_H

#include <stdbool.h>

#include "physics/collision/collide_internal.h"
#include "voltex/collide.h"
#include "voltex/ecs.h"
#include "voltex/physics.h"

/* Shape a placed at ta against shape b at tb: true and *out filled (normal
 * from A to B, count >= 1) when they are closer than margin, as the
 * functions of collide.h. With a mesh or a compound: the deepest of the
 * pair's manifolds. */
typedef bool (*vx_collide_fn)(const vx_collider *a, const vx_transform *ta, const vx_collider *b,
                              const vx_transform *tb, float margin, vx_manifold *out);

bool vx_collide_shapes(const vx_collider *a, const vx_transform *ta, const vx_collider *b, const vx_transform *tb,
                       float margin, vx_manifold *out);

/* A pair of convex shapes as the step meets them: vx_collide_shapes_axis
 * (axis NULL: vx_collide_shapes), and for a capsule on a box the point of
 * its other end (vx_collide_capsule_box_far_end). */
bool vx_collide_convex_pair(const vx_collider *a, const vx_transform *ta, const vx_mat3 *ra, const vx_collider *b,
                            const vx_transform *tb, const vx_mat3 *rb, float margin, vx_sat_axis *axis,
                            vx_manifold *out);

/* Whether the pair is one of polyhedra (box-box, hull-hull, hull-box,
 * box-hull), whose narrow phase can start from a kept axis. */
bool vx_collide_shapes_use_axis(const vx_collider *a, const vx_collider *b);

/* vx_collide_shapes, for the pairs of vx_collide_shapes_use_axis with the
 * pair's kept axis (vx_collide_box_box_obb_cached, vx_collide_hull_hull_cached:
 * the same result, *axis replaced by the one found); other pairs ignore
 * axis. ra, rb: the shapes' rotation matrices (vx_collide_rotation_matrix
 * of ta, tb) when the caller has made them, else NULL. */
bool vx_collide_shapes_axis(const vx_collider *a, const vx_transform *ta, const vx_mat3 *ra, const vx_collider *b,
                            const vx_transform *tb, const vx_mat3 *rb, float margin, vx_sat_axis *axis,
                            vx_manifold *out);

/* A capsule touching a box with one end only gets one point, however fast
 * it turns; this adds the other end's point when it finds the same face
 * (collide_capsule_box.c). m: capsule (A) against box (B), as found by
 * vx_collide_shapes. */
void vx_collide_capsule_box_far_end(const vx_collider *capsule, const vx_transform *tc, const vx_collider *box,
                                    const vx_transform *tb, float margin, vx_manifold *m);

#endif
