/* Oriented narrow phase for capsules against spheres and against capsules
 * (capsule-box is in collide_capsule_box.c). A capsule is the segment
 * position +- R (0, half_height, 0) grown by its radius.
 *
 * Feature ids: bits 24..27 hold the pair kind (collide_internal.h), bits
 * 0..7 the feature on A and bits 8..15 the feature on B. Capsule features:
 *   0 the end at -Y, 1 the end at +Y, 2 the side (between the ends),
 *   3 / 4 the point of a two-point line contact nearer the -Y / +Y end.
 *   capsule-sphere:  kind 8, A = the capsule feature, B = 0.
 *   capsule-capsule: kind 9, A and B = their capsule features; the two points
 *     of a parallel contact are A = 3 / 4 (the ends of the overlap along A's
 *     axis), B = 3. */
#include "physics/collision/collide_internal.h"

#define VX_FEATURE_KIND_CAPSULE_SPHERE 8u
#define VX_FEATURE_KIND_CAPSULE_CAPSULE 9u

#define VX_CAPSULE_END0 0u
#define VX_CAPSULE_END1 1u
#define VX_CAPSULE_SIDE 2u
#define VX_CAPSULE_LINE_END0 3u
#define VX_CAPSULE_LINE_END1 4u

/* m^2: closer than 1 micrometre, the vector between two points is rounding
 * noise and gives no direction; a fixed one is used instead. */
#define VX_CAPSULE_DIRECTION_EPS_SQ 1e-12f
/* sin of the angle between two axes (about 1.1 degrees): closer to parallel
 * than this, capsules lying along each other touch along a line and get two
 * points; each keeps its own depth, so a small tilt is still measured. */
#define VX_CAPSULE_PARALLEL_SIN 0.02f
/* m: an overlap of the two segments shorter than this gives one point, not
 * two nearly coincident ones (which would make the solver's 2x2 block
 * singular). */
#define VX_CAPSULE_MIN_SPAN 1e-3f

static float clampf(float v, float lo, float hi) { return v < lo ? lo : (v > hi ? hi : v); }

static uint32_t feature_id(uint32_t kind, uint32_t on_a, uint32_t on_b)
{
    return (kind << VX_FEATURE_KIND_SHIFT) | on_a | (on_b << 8);
}

/* Which part of a capsule a segment parameter in [-half, half] is on. */
static uint32_t segment_feature(float s, float half)
{
    if (s <= -half) return VX_CAPSULE_END0;
    if (s >= half) return VX_CAPSULE_END1;
    return VX_CAPSULE_SIDE;
}

/* The capsule's frame: centre, axis = the segment direction (local Y), and
 * the rotation, for local X (a unit vector perpendicular to the axis that
 * turns with the capsule) in the rare cases that need it. The same bits as
 * the columns of vx_obb_make's matrix, without building all three. */
typedef struct {
    vx_vec3 center;
    vx_vec3 axis;
    vx_quat rotation;
} capsule_frame;

static capsule_frame make_capsule_frame(const vx_transform *capsule)
{
    capsule_frame f;
    f.center = capsule->position;
    f.rotation = vx_collide_rotation(capsule);
    f.axis = vx_collide_axis_y(f.rotation);
    return f;
}

bool vx_collide_capsule_sphere(const vx_transform *capsule, float radius, float half_height, vx_vec3 sphere_pos,
                               float sphere_radius, float margin, vx_manifold *out)
{
    vx_manifold_reset(out);
    margin = vx_collide_sanitize_margin(margin);

    capsule_frame cap = make_capsule_frame(capsule);
    vx_vec3 axis = cap.axis;
    float s = clampf(vx_vec3_dot(vx_vec3_sub(sphere_pos, cap.center), axis), -half_height, half_height);
    vx_vec3 on_segment = vx_vec3_add(cap.center, vx_vec3_scale(axis, s));

    vx_vec3 d = vx_vec3_sub(sphere_pos, on_segment);
    float dist_sq = vx_vec3_length_sq(d);
    float dist = sqrtf(dist_sq);
    float depth = (radius + sphere_radius) - dist;
    if (!(depth > -margin)) return false;

    /* A centre on the axis: push along the capsule's own local X, which is
     * perpendicular to the axis and turns with the capsule. */
    vx_vec3 n = dist_sq > VX_CAPSULE_DIRECTION_EPS_SQ ? vx_vec3_scale(d, 1.0f / dist) : vx_collide_axis_x(cap.rotation);
    out->normal = n;
    vx_vec3 point_a = vx_vec3_add(on_segment, vx_vec3_scale(n, radius));
    vx_manifold_push(out, point_a, vx_vec3_sub(point_a, vx_vec3_scale(n, depth)), depth,
                     feature_id(VX_FEATURE_KIND_CAPSULE_SPHERE, segment_feature(s, half_height), 0u));
    return true;
}

/* The two points of capsules lying along each other: the ends [lo, hi] of
 * the overlap of B's projection with A's segment (parameters along A's
 * axis), each with the distance from its point on A to segment B. */
static void push_line_contact(vx_manifold *out, const capsule_frame *a, float radius_a, const capsule_frame *b,
                              float radius_b, float half_b, float lo, float hi, float margin)
{
    vx_vec3 n = out->normal;
    float ends[2] = {lo, hi};
    uint32_t features[2] = {VX_CAPSULE_LINE_END0, VX_CAPSULE_LINE_END1};
    for (int i = 0; i < 2; i++) {
        vx_vec3 pa = vx_vec3_add(a->center, vx_vec3_scale(a->axis, ends[i]));
        float t = clampf(vx_vec3_dot(vx_vec3_sub(pa, b->center), b->axis), -half_b, half_b);
        vx_vec3 pb = vx_vec3_add(b->center, vx_vec3_scale(b->axis, t));
        float depth = (radius_a + radius_b) - vx_vec3_length(vx_vec3_sub(pb, pa));
        if (!(depth > -margin)) continue;
        vx_vec3 point_a = vx_vec3_add(pa, vx_vec3_scale(n, radius_a));
        vx_manifold_push(out, point_a, vx_vec3_sub(point_a, vx_vec3_scale(n, depth)), depth,
                         feature_id(VX_FEATURE_KIND_CAPSULE_CAPSULE, features[i], VX_CAPSULE_LINE_END0));
    }
}

bool vx_collide_capsule_capsule(const vx_transform *a, float radius_a, float half_height_a,
                                const vx_transform *b, float radius_b, float half_height_b, float margin,
                                vx_manifold *out)
{
    vx_manifold_reset(out);
    margin = vx_collide_sanitize_margin(margin);

    capsule_frame ca = make_capsule_frame(a);
    capsule_frame cb = make_capsule_frame(b);
    vx_vec3 ua = ca.axis;
    vx_vec3 ub = cb.axis;

    float s, t;
    vx_closest_segment_params(ca.center, ua, half_height_a, cb.center, ub, half_height_b, &s, &t);
    vx_vec3 pa = vx_vec3_add(ca.center, vx_vec3_scale(ua, s));
    vx_vec3 pb = vx_vec3_add(cb.center, vx_vec3_scale(ub, t));
    vx_vec3 d = vx_vec3_sub(pb, pa);
    float dist_sq = vx_vec3_length_sq(d);
    float dist = sqrtf(dist_sq);
    float depth = (radius_a + radius_b) - dist;
    if (!(depth > -margin)) return false;

    vx_vec3 cross = vx_vec3_cross(ua, ub);
    float cross_sq = vx_vec3_length_sq(cross);
    vx_vec3 n;
    if (dist_sq > VX_CAPSULE_DIRECTION_EPS_SQ) {
        n = vx_vec3_scale(d, 1.0f / dist);
    } else if (cross_sq > VX_CAPSULE_DIRECTION_EPS_SQ) {
        /* Crossing segments: the normal of the plane of both axes, turned
         * from A's centre towards B's (kept as is when B's centre lies in
         * that plane). */
        n = vx_vec3_scale(cross, 1.0f / sqrtf(cross_sq));
        if (vx_vec3_dot(n, vx_vec3_sub(cb.center, ca.center)) < 0.0f) n = vx_vec3_neg(n);
    } else {
        /* Collinear: any direction perpendicular to A's axis; A's local X. */
        n = vx_collide_axis_x(ca.rotation);
    }
    out->normal = n;

    if (cross_sq <= VX_CAPSULE_PARALLEL_SIN * VX_CAPSULE_PARALLEL_SIN) {
        /* B's ends projected on A's axis, relative to A's centre. */
        float mid = vx_vec3_dot(vx_vec3_sub(cb.center, ca.center), ua);
        float reach = half_height_b * fabsf(vx_vec3_dot(ua, ub));
        float lo = vx_collide_maxf(-half_height_a, mid - reach);
        float hi = vx_collide_minf(half_height_a, mid + reach);
        if (hi - lo >= VX_CAPSULE_MIN_SPAN)
            push_line_contact(out, &ca, radius_a, &cb, radius_b, half_height_b, lo, hi, margin);
    }
    if (out->count == 0) {
        vx_vec3 point_a = vx_vec3_add(pa, vx_vec3_scale(n, radius_a));
        vx_manifold_push(out, point_a, vx_vec3_sub(point_a, vx_vec3_scale(n, depth)), depth,
                         feature_id(VX_FEATURE_KIND_CAPSULE_CAPSULE, segment_feature(s, half_height_a),
                                    segment_feature(t, half_height_b)));
    }
    return true;
}
