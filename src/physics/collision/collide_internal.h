/* Private helpers shared by the oriented narrow phase (collide_*.c): building
 * manifolds, oriented boxes in world space, and closest points of segments.
 * Not part of the public API.
 *
 * The small helpers are inline here because every pair calls them: the
 * arithmetic is exactly what it was as out-of-line functions (no FP
 * contraction, same operation order), only the calls are gone. */
#ifndef VOLTEX_COLLIDE_INTERNAL_H
#define VOLTEX_COLLIDE_INTERNAL_H

#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "common/assert.h"
#include "physics/body/hull.h"
#include "voltex/collide.h"
#include "voltex/math.h"
#include "voltex/physics.h"

/* Normal used when two centres (or a centre and a segment) coincide and no
 * direction between them exists: +Y, as the reference pipeline does. */
#define VX_COLLIDE_FALLBACK_NORMAL vx_vec3_make(0.0f, 1.0f, 0.0f)

/* Feature id kinds, kept in bits 24..27 so that ids of different pair kinds
 * never coincide (sphere-sphere is 0, sphere-box region codes are < 27). */
#define VX_FEATURE_KIND_SHIFT 24u
#define VX_FEATURE_KIND_BOX_FACE 1u /* box-box face contact (collide_box_box.c) */
#define VX_FEATURE_KIND_BOX_EDGE 2u /* box-box edge-edge contact (collide_box_box.c) */
/* collide_hull.c: a hull against a hull or box (face contact, edge-edge
 * contact), a sphere, a capsule. 4..7 are free, 8..10 are the capsule's. */
#define VX_FEATURE_KIND_MESH 3u /* a body on a mesh (collide_mesh.c) */
#define VX_FEATURE_KIND_HULL_FACE 11u
#define VX_FEATURE_KIND_HULL_EDGE 12u
#define VX_FEATURE_KIND_HULL_SPHERE 13u
#define VX_FEATURE_KIND_HULL_CAPSULE 14u

/* A box placed in the world: centre, unit axes (the columns of its rotation)
 * and positive half extents along them. */
typedef struct {
    vx_vec3 center;
    vx_vec3 axis[3];
    float half[3];
} vx_obb;

/* fminf / fmaxf as glibc computes them on x86-64 (a NaN argument gives the
 * other one; equal arguments, +0 and -0 included, give the second), without
 * the call into libm that the compiler must otherwise make. */
static inline float vx_collide_minf(float x, float y)
{
    if (isnan(x)) return y;
    if (isnan(y)) return x;
    return x < y ? x : y;
}
static inline float vx_collide_maxf(float x, float y)
{
    if (isnan(x)) return y;
    if (isnan(y)) return x;
    return x > y ? x : y;
}

/* The rotation of a transform as the narrow phase uses it: normalised; a
 * zero or non-finite quaternion counts as the identity. */
static inline vx_quat vx_collide_rotation(const vx_transform *t)
{
    return vx_quat_is_finite(t->rotation) ? vx_quat_normalize(t->rotation) : vx_quat_identity();
}

/* Columns 0 and 1 of vx_mat3_from_quat(q) on their own (the same
 * expressions, so the same bits): a shape's local X and Y axes, for the
 * shapes that need only one or two of the three. */
static inline vx_vec3 vx_collide_axis_x(vx_quat q)
{
    float yy = q.y * q.y, zz = q.z * q.z;
    float xy = q.x * q.y, xz = q.x * q.z;
    float wy = q.w * q.y, wz = q.w * q.z;
    return vx_vec3_make(1.0f - 2.0f * (yy + zz), 2.0f * (xy + wz), 2.0f * (xz - wy));
}
static inline vx_vec3 vx_collide_axis_y(vx_quat q)
{
    float xx = q.x * q.x, zz = q.z * q.z;
    float xy = q.x * q.y, yz = q.y * q.z;
    float wx = q.w * q.x, wz = q.w * q.z;
    return vx_vec3_make(2.0f * (xy - wz), 1.0f - 2.0f * (xx + zz), 2.0f * (yz + wx));
}

/* The box of a transform (its rotation as vx_collide_rotation gives it). */
/* Fills *box in place: built in a temporary and copied, the pieces' stores
 * and the copy's wide loads stalled the box-box test (a third of its time). */
static inline void vx_obb_init(vx_obb *box, const vx_transform *t, vx_vec3 half_extents)
{
    vx_mat3 r = vx_mat3_from_quat(vx_collide_rotation(t));
    box->center = t->position;
    for (int i = 0; i < 3; i++) box->axis[i] = vx_vec3_make(r.m[0][i], r.m[1][i], r.m[2][i]);
    box->half[0] = half_extents.x;
    box->half[1] = half_extents.y;
    box->half[2] = half_extents.z;
}
/* The rotation matrix of a transform as the narrow phase uses it
 * (vx_obb_init and the hull test make it so): the narrow phase makes it once
 * per body and step and hands it to the pair tests. */
static inline vx_mat3 vx_collide_rotation_matrix(const vx_transform *t)
{
    return vx_mat3_from_quat(vx_collide_rotation(t));
}
/* vx_obb_init with the rotation matrix already made
 * (vx_collide_rotation_matrix of t): the same box, bit for bit. */
static inline void vx_obb_init_rotated(vx_obb *box, const vx_transform *t, const vx_mat3 *r, vx_vec3 half_extents)
{
    box->center = t->position;
    for (int i = 0; i < 3; i++) box->axis[i] = vx_vec3_make(r->m[0][i], r->m[1][i], r->m[2][i]);
    box->half[0] = half_extents.x;
    box->half[1] = half_extents.y;
    box->half[2] = half_extents.z;
}
static inline vx_obb vx_obb_make(const vx_transform *t, vx_vec3 half_extents)
{
    vx_obb box;
    vx_obb_init(&box, t, half_extents);
    return box;
}

/* World point -> box coordinates (along the box axes, relative to the centre). */
static inline vx_vec3 vx_obb_to_local(const vx_obb *box, vx_vec3 world)
{
    vx_vec3 d = vx_vec3_sub(world, box->center);
    return vx_vec3_make(vx_vec3_dot(d, box->axis[0]), vx_vec3_dot(d, box->axis[1]), vx_vec3_dot(d, box->axis[2]));
}

/* Box coordinates -> world point. */
static inline vx_vec3 vx_obb_to_world(const vx_obb *box, vx_vec3 local)
{
    vx_vec3 w = box->center;
    w = vx_vec3_add(w, vx_vec3_scale(box->axis[0], local.x));
    w = vx_vec3_add(w, vx_vec3_scale(box->axis[1], local.y));
    w = vx_vec3_add(w, vx_vec3_scale(box->axis[2], local.z));
    return w;
}

/* margin as the collide functions use it: negative or NaN becomes 0. */
static inline float vx_collide_sanitize_margin(float margin) { return margin > 0.0f ? margin : 0.0f; }

/* Empties *m (every byte zeroed, so manifolds compare and hash cleanly; a
 * vx_manifold has no padding). Copied from a zero constant: memset of this
 * size becomes a slow "rep stos". */
static inline void vx_manifold_reset(vx_manifold *m)
{
    static const vx_manifold empty;
    *m = empty;
}

/* Appends a point; false (and nothing written) when the manifold is full. */
static inline bool vx_manifold_push(vx_manifold *m, vx_vec3 point_a, vx_vec3 point_b, float depth, uint32_t feature)
{
    if (m->count >= VX_MANIFOLD_MAX_POINTS) return false;
    VX_ASSERT(m->count >= 0);
    vx_manifold_point *p = &m->points[m->count++];
    p->point_a = point_a;
    p->point_b = point_b;
    p->depth = depth;
    p->feature = feature;
    return true;
}

/* Sorts the points by feature id (ids in one manifold are distinct), so the
 * order is the same from step to step. */
void vx_manifold_sort_by_feature(vx_manifold *m);

/* vx_collide_box_box for boxes already placed with vx_obb_make (the same
 * result, bit for bit): a caller that meets a box in several pairs can build
 * its vx_obb once. */
bool vx_collide_box_box_obb(const vx_obb *a, const vx_obb *b, float margin, vx_manifold *out);

/* Hulls (body/hull.h) against every convex shape (collide_hull.c). The hull
 * is A and sits at pose (its vertices are in the frame pose places in the
 * world); the normal points from the hull (the first hull) to the other
 * shape; the contract is collide.h's. Face contacts clip the incident face
 * to the reference face and keep at most 4 points; hull-box treats the box
 * as a hull; hull-capsule (collide_hull_capsule.c, kind 14) makes capsule-
 * box's choices, so a hull of a box's corners gives capsule-box's contact,
 * with at most 2 points (a capsule lying along a face or an edge). */
bool vx_collide_hull_sphere(const vx_hull *hull, const vx_transform *pose, vx_vec3 sphere_pos, float radius,
                            float margin, vx_manifold *out);
bool vx_collide_hull_box(const vx_hull *hull, const vx_transform *pose, const vx_transform *box,
                         vx_vec3 half_extents, float margin, vx_manifold *out);
bool vx_collide_hull_hull(const vx_hull *a, const vx_transform *pa, const vx_hull *b, const vx_transform *pb,
                          float margin, vx_manifold *out);
bool vx_collide_hull_capsule(const vx_hull *hull, const vx_transform *pose, const vx_transform *capsule_pose,
                             float radius, float half_height, float margin, vx_manifold *out);

/* The axis a pair of polyhedra (box-box, hull-hull, hull-box) was found
 * apart along (or, touching, the contact's axis), kept by the narrow phase
 * from one step to the next and tried first: a face of A or of B (index a;
 * a box's axis 0..2), or A's edge a with B's edge b (a hull's undirected
 * edges; a box's axes). docs/simulation.md, "Hull contacts" and "Box-box
 * contacts". */
enum { VX_SAT_AXIS_NONE = 0, VX_SAT_AXIS_FACE_A = 1, VX_SAT_AXIS_FACE_B = 2, VX_SAT_AXIS_EDGES = 3 };
typedef struct {
    uint8_t kind;
    uint16_t a, b;
} vx_sat_axis;

/* vx_collide_box_box_obb, vx_collide_hull_hull and vx_collide_hull_box
 * with the pair's axis: *axis (VX_SAT_AXIS_NONE, or any axis of the two
 * shapes) is tested first, and when it separates them by margin or more
 * there is no contact without the rest of the test; *axis is then replaced
 * by the axis found (touching boxes: none, touching hulls: the contact's).
 * The result is the uncached function's, bit for bit, whatever *axis holds. */
bool vx_collide_box_box_obb_cached(const vx_obb *a, const vx_obb *b, float margin, vx_sat_axis *axis,
                                   vx_manifold *out);
bool vx_collide_hull_hull_cached(const vx_hull *a, const vx_transform *pa, const vx_hull *b,
                                 const vx_transform *pb, float margin, vx_sat_axis *axis, vx_manifold *out);
bool vx_collide_hull_box_cached(const vx_hull *hull, const vx_transform *pose, const vx_transform *box,
                                vx_vec3 half_extents, float margin, vx_sat_axis *axis, vx_manifold *out);
/* The two above with each shape's rotation matrix already made
 * (vx_collide_rotation_matrix of its transform; NULL: made here): the same
 * result, bit for bit. */
bool vx_collide_hull_hull_rotated(const vx_hull *a, const vx_transform *pa, const vx_mat3 *ra, const vx_hull *b,
                                  const vx_transform *pb, const vx_mat3 *rb, float margin, vx_sat_axis *axis,
                                  vx_manifold *out);
bool vx_collide_hull_box_rotated(const vx_hull *hull, const vx_transform *pose, const vx_mat3 *r,
                                 const vx_transform *box, const vx_mat3 *r_box, vx_vec3 half_extents, float margin,
                                 vx_sat_axis *axis, vx_manifold *out);

/* A point of a contact patch before the reduction: on the reference face,
 * on the other shape, its depth and feature id. */
typedef struct {
    vx_vec3 on_ref;
    vx_vec3 on_inc;
    float depth;
    uint32_t id;
} vx_contact_candidate;

/* Candidates the reduction takes at most. */
#define VX_CONTACT_REDUCE_MAX (2 * VX_HULL_MAX_POINTS)

/* Keeps 4 of the n (5 .. VX_CONTACT_REDUCE_MAX) candidates, moved to the
 * front (collide_reduce.c): the deepest, the farthest from it, the one
 * making the largest triangle, the one adding the most area; near ties
 * (within depth_slack, m) go to the lowest id. Returns 4. */
int vx_contact_reduce(vx_contact_candidate *cand, int n, vx_vec3 normal, float depth_slack);

/* The face contact of hull a's face `face` (the reference, its normal from
 * a to b) against shape b (a box or a hull), as the hull test makes it when
 * that face is its axis: b's face most against it clipped to it, the points
 * within margin (world frame; on_ref on a's face, on_inc on b), before the
 * reduction to 4 unless there are more than max (>= 4). Returns their
 * number (0: none). */
int vx_collide_hull_face(const vx_hull *a, const vx_transform *pa, int face, const vx_collider *b,
                         const vx_transform *pb, float margin, vx_contact_candidate *out, int max);

/* Whether the point of a hull contact (collide_hull.c's feature id, kinds
 * 11 and 13, the hull as A) is a feature of B alone, a vertex of B's or the
 * sphere's point, and which (*b: an index in bits 0..22). */
bool vx_hull_contact_b_feature(uint32_t feature, uint32_t *b);

/* Closest points of two segments, each given as centre, unit direction and
 * half length (>= 0): returns the parameters *s on the first and *t on the
 * second (in [-half, half]). Parallel segments give the middle of the
 * overlap of their projections; deterministic for any finite input. */
void vx_closest_segment_params(vx_vec3 center_1, vx_vec3 dir_1, float half_1, vx_vec3 center_2, vx_vec3 dir_2,
                               float half_2, float *s, float *t);

#endif
