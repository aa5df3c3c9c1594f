/* Private helpers shared by the oriented narrow phase (collide_*.c): building
 * manifolds, oriented boxes in world space, and closest points of segments.
 * Not part of the public API. */
#ifndef VOLTEX_COLLIDE_INTERNAL_H
#define VOLTEX_COLLIDE_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>

#include "voltex/collide.h"
#include "voltex/math.h"

/* Normal used when two centres (or a centre and a segment) coincide and no
 * direction between them exists: +Y, as the design spec does. */
#define VX_COLLIDE_FALLBACK_NORMAL vx_vec3_make(0.0f, 1.0f, 0.0f)

/* Feature id kinds, kept in bits 24..27 so that ids of different pair kinds
 * never coincide (sphere-sphere is 0, sphere-box region codes are < 27). */
#define VX_FEATURE_KIND_SHIFT 24u
#define VX_FEATURE_KIND_BOX_FACE 1u /* box-box face contact (collide_box_box.c) */
#define VX_FEATURE_KIND_BOX_EDGE 2u /* box-box edge-edge contact (collide_box_box.c) */

/* A box placed in the world: centre, unit axes (the columns of its rotation)
 * and positive half extents along them. */
typedef struct {
    vx_vec3 center;
    vx_vec3 axis[3];
    float half[3];
} vx_obb;

/* The box of a transform (its rotation is normalised first; a zero or
 * non-finite quaternion counts as the identity). */
vx_obb vx_obb_make(const vx_transform *t, vx_vec3 half_extents);
/* World point -> box coordinates (along the box axes, relative to the centre). */
vx_vec3 vx_obb_to_local(const vx_obb *box, vx_vec3 world);
/* Box coordinates -> world point. */
vx_vec3 vx_obb_to_world(const vx_obb *box, vx_vec3 local);

/* margin as the collide functions use it: negative or NaN becomes 0. */
float vx_collide_sanitize_margin(float margin);

/* Empties *m (every byte zeroed, so manifolds compare and hash cleanly). */
void vx_manifold_reset(vx_manifold *m);
/* Appends a point; false (and nothing written) when the manifold is full. */
bool vx_manifold_push(vx_manifold *m, vx_vec3 point_a, vx_vec3 point_b, float depth, uint32_t feature);
/* Sorts the points by feature id (ids in one manifold are distinct), so the
 * order is the same from step to step. */
void vx_manifold_sort_by_feature(vx_manifold *m);

/* Closest points of two segments, each given as centre, unit direction and
 * half length (>= 0): returns the parameters *s on the first and *t on the
 * second (in [-half, half]). Parallel segments give the middle of the
 * overlap of their projections; deterministic for any finite input. */
void vx_closest_segment_params(vx_vec3 center_1, vx_vec3 dir_1, float half_1, vx_vec3 center_2, vx_vec3 dir_2,
                               float half_2, float *s, float *t);

#endif
