/* Oriented narrow phase: contact manifolds between rotated spheres, boxes and
 * capsules (up to 4 points sharing one normal), with feature ids that stay the
 * same from step to step while the same features touch (for warm starting).
 * The reference pipeline's axis-aligned functions are in reference.h. */
#ifndef VOLTEX_COLLIDE_H
#define VOLTEX_COLLIDE_H

#include <stdbool.h>
#include <stdint.h>

#include "voltex/ecs.h"
#include "voltex/math.h"

#define VX_MANIFOLD_MAX_POINTS 4

typedef struct {
    vx_vec3 point_a;  /* on A's surface, world frame */
    vx_vec3 point_b;  /* on B's surface, world frame */
    float depth;      /* > 0: overlap; in (-margin, 0]: speculative (not touching yet) */
    uint32_t feature; /* which features of A and B make this point; stable while they touch */
} vx_manifold_point;

typedef struct {
    vx_vec3 normal; /* unit, from A to B, shared by every point */
    int count;      /* 0 .. VX_MANIFOLD_MAX_POINTS */
    vx_manifold_point points[VX_MANIFOLD_MAX_POINTS];
} vx_manifold;

/* Each function returns true and fills *out (count >= 1) when the shapes are
 * closer than margin (some depth > -margin; margin >= 0), else false with
 * out->count = 0. A is the first shape, normal points from A to B, and for a
 * point, point_a - point_b = normal * depth (up to rounding). Capsules: axis
 * is local Y, segment from -half_height to +half_height, plus radius. */
bool vx_collide_sphere_sphere(vx_vec3 pos_a, float radius_a, vx_vec3 pos_b, float radius_b, float margin,
                              vx_manifold *out);
bool vx_collide_sphere_box(vx_vec3 sphere_pos, float radius, const vx_transform *box, vx_vec3 half_extents,
                           float margin, vx_manifold *out);
/* SAT over the 15 axes; face contacts clip the incident face against the
 * reference face's side planes and keep at most 4 points (deepest first, then
 * the spread); edge-edge contacts give 1 point. */
bool vx_collide_box_box(const vx_transform *a, vx_vec3 half_a, const vx_transform *b, vx_vec3 half_b,
                        float margin, vx_manifold *out);
bool vx_collide_capsule_sphere(const vx_transform *capsule, float radius, float half_height, vx_vec3 sphere_pos,
                               float sphere_radius, float margin, vx_manifold *out);
/* Parallel overlapping segments give 2 points. */
bool vx_collide_capsule_capsule(const vx_transform *a, float radius_a, float half_height_a,
                                const vx_transform *b, float radius_b, float half_height_b, float margin,
                                vx_manifold *out);
/* A capsule lying on a face gives 2 points. */
bool vx_collide_capsule_box(const vx_transform *capsule, float radius, float half_height, const vx_transform *box,
                            vx_vec3 half_extents, float margin, vx_manifold *out);

/* Swaps the roles of A and B in place: normal negated, points swapped. */
void vx_manifold_flip(vx_manifold *m);

#endif
