/* Oriented narrow phase: capsule (A) against an oriented box (B), in the
 * box's frame: the exact closest point of the capsule's segment to the box;
 * clear of the box, one or two points over a face or beside an edge;
 * touching or inside, the separating-axis test (face axes preferred).
 * Feature ids: kind 10 in bits 24..27, the capsule feature in bits 0..7, the
 * box region code in bits 8..15. See docs/simulation.md, "Capsule-box contacts". */
#include <string.h>

#include "physics/collision/collide_internal.h"
#include "physics/collision/collide_shapes.h"

#define VX_FEATURE_KIND_CAPSULE_BOX 10u

#define VX_CAPSULE_END0 0u
#define VX_CAPSULE_END1 1u
#define VX_CAPSULE_SIDE 2u
#define VX_CAPSULE_LINE_END0 3u
#define VX_CAPSULE_LINE_END1 4u

/* m per m of box size (at least 1 m): a segment this close to the box counts
 * as touching it (the separating-axis test decides), and a closest point this
 * little beyond a face's side plane still counts as over the face; float
 * coordinates of a box this size carry about 1e-7 of it in rounding. */
#define VX_CAPSULE_BOX_TOL 1e-5f
/* sin of the angle between the capsule axis and a face (about 1.1 degrees):
 * flatter than this a capsule on the face gets two points. Each point's
 * depth is its own exact distance to the face, so a small tilt is kept. */
#define VX_CAPSULE_FLAT_SIN 0.02f
/* m: a clipped segment shorter than this gives one point, not two nearly
 * coincident ones (which would make the solver's 2x2 block singular). */
#define VX_CAPSULE_MIN_SPAN 1e-3f
/* |axis x box edge|^2 below this (sin < 1e-3): the segment is parallel to
 * that edge direction and the cross product is no axis (the faces cover it). */
#define VX_CAPSULE_EDGE_AXIS_MIN_SQ 1e-6f
/* An edge axis must be shallower than the best face by this fraction plus a
 * linear tolerance (at most 1 mm, at most 5% of the smallest box half
 * extent): faces give steadier contacts, so near ties go to them. */
#define VX_CAPSULE_EDGE_REL_TOL 0.05f
#define VX_CAPSULE_EDGE_LINEAR_TOL 1e-3f
#define VX_CAPSULE_EDGE_LINEAR_TOL_SIZE_FRACTION 0.05f

/* The capsule's segment in the box frame: P(t) = p0 + t d, t in [0, 1],
 * from the -Y end (t = 0) to the +Y end (t = 1). */
typedef struct {
    vx_vec3 p0;
    vx_vec3 d;
    vx_vec3 u; /* unit axis */
    float length;
} segment;

/* A contact in the box frame before it is turned into the world. */
typedef struct {
    vx_vec3 normal;
    int count;
    vx_vec3 point_a[2];
    vx_vec3 point_b[2];
    float depth[2];
    uint32_t feature[2];
} local_contact;

static float clampf(float v, float lo, float hi) { return v < lo ? lo : (v > hi ? hi : v); }

static vx_vec3 segment_at(const segment *sg, float t) { return vx_vec3_add(sg->p0, vx_vec3_scale(sg->d, t)); }

static uint32_t region_code(const int r[3]) { return (uint32_t)((r[0] + 1) + 3 * (r[1] + 1) + 9 * (r[2] + 1)); }

static uint32_t feature_id(uint32_t on_capsule, uint32_t on_box)
{
    return (VX_FEATURE_KIND_CAPSULE_BOX << VX_FEATURE_KIND_SHIFT) | on_capsule | (on_box << 8);
}

static uint32_t segment_feature(float t)
{
    if (t <= 0.0f) return VX_CAPSULE_END0;
    if (t >= 1.0f) return VX_CAPSULE_END1;
    return VX_CAPSULE_SIDE;
}

static float box_dist_sq(vx_vec3 p, const float e[3])
{
    float sum = 0.0f;
    for (int i = 0; i < 3; i++) {
        float x = vx_vec3_get(p, i);
        float excess = x > e[i] ? x - e[i] : (x < -e[i] ? -e[i] - x : 0.0f);
        sum += excess * excess;
    }
    return sum;
}

/* Parameter of the segment point closest to the box, and its squared
 * distance. Between consecutive crossings of the slab planes x_i = +-e_i the
 * set of axes the point lies outside of is fixed, so the squared distance
 * is a quadratic there; each piece's minimum is exact. Ties keep the lowest t. */
static float closest_param(const segment *sg, const float e[3], float *dist_sq)
{
    float ts[8];
    int n = 0;
    ts[n++] = 0.0f;
    for (int i = 0; i < 3; i++) {
        float di = vx_vec3_get(sg->d, i);
        if (di == 0.0f) continue;
        float pi = vx_vec3_get(sg->p0, i);
        for (int side = -1; side <= 1; side += 2) {
            float t = ((float)side * e[i] - pi) / di;
            if (t > 0.0f && t < 1.0f) ts[n++] = t;
        }
    }
    ts[n++] = 1.0f;
    for (int i = 2; i < n - 1; i++) { /* insertion sort of the crossings */
        float v = ts[i];
        int j = i - 1;
        while (j >= 1 && ts[j] > v) {
            ts[j + 1] = ts[j];
            j--;
        }
        ts[j + 1] = v;
    }

    float best_t = 0.0f;
    float best = 0.0f;
    bool have = false;
    for (int k = 0; k + 1 < n; k++) {
        float ta = ts[k], tb = ts[k + 1];
        if (!(tb > ta)) continue;
        float tm = 0.5f * (ta + tb);
        vx_vec3 pm = segment_at(sg, tm);
        /* f(t) = a t^2 + 2 b t + c over the axes outside the box here. */
        float a = 0.0f, b = 0.0f;
        for (int i = 0; i < 3; i++) {
            float x = vx_vec3_get(pm, i);
            float bound;
            if (x > e[i]) bound = e[i];
            else if (x < -e[i]) bound = -e[i];
            else continue;
            float di = vx_vec3_get(sg->d, i);
            a += di * di;
            b += di * (vx_vec3_get(sg->p0, i) - bound);
        }
        /* a = 0: the distance is constant here (0 inside the box); the middle
         * of the piece is safely inside its region. */
        float t = a > 0.0f ? clampf(-b / a, ta, tb) : tm;
        float dsq = box_dist_sq(segment_at(sg, t), e);
        if (!have || dsq < best) {
            have = true;
            best = dsq;
            best_t = t;
        }
    }
    *dist_sq = best;
    return best_t;
}

/* The part [*lo, *hi] of the segment inside the slabs |x_i| <= e_i + tol of
 * the axes i in the bit mask axes; false when there is none. */
static bool clip_to_slabs(const segment *sg, const float e[3], unsigned axes, float tol, float *lo, float *hi)
{
    float t0 = 0.0f, t1 = 1.0f;
    for (int i = 0; i < 3; i++) {
        if (!(axes & (1u << i))) continue;
        float p = vx_vec3_get(sg->p0, i);
        float di = vx_vec3_get(sg->d, i);
        float lim = e[i] + tol;
        if (di == 0.0f) {
            if (fabsf(p) > lim) return false;
            continue;
        }
        float ta = (-lim - p) / di;
        float tb = (lim - p) / di;
        if (ta > tb) {
            float tmp = ta;
            ta = tb;
            tb = tmp;
        }
        t0 = vx_collide_maxf(t0, ta);
        t1 = vx_collide_minf(t1, tb);
    }
    *lo = t0;
    *hi = t1;
    return t0 <= t1;
}

static void add_point(local_contact *lc, vx_vec3 point_b, float depth, uint32_t feature, float margin)
{
    if (!(depth > -margin) || lc->count >= 2) return;
    lc->point_b[lc->count] = point_b;
    lc->point_a[lc->count] = vx_vec3_add(point_b, vx_vec3_scale(lc->normal, depth));
    lc->depth[lc->count] = depth;
    lc->feature[lc->count] = feature;
    lc->count++;
}

/* Height of P(t) above the face of axis k on side sign (negative inside). */
static float face_height(const segment *sg, const float e[3], int k, int sign, float t)
{
    return (float)sign * vx_vec3_get(segment_at(sg, t), k) - e[k];
}

/* Contact of the capsule with the box face of axis k on side sign (+1 / -1):
 * the normal is the face's inward normal. A capsule flat on the face gives
 * the two ends of its segment clipped to the face's side planes; otherwise
 * one point at parameter t_single (t_single < 0: the deepest end of the
 * clipped segment). Each point's depth is radius minus its height above the
 * face plane, and its box point is on the face. */
static void face_contact(local_contact *lc, const segment *sg, const float e[3], float radius, int k, int sign,
                         float t_single, float tol, float margin)
{
    lc->normal = vx_vec3_zero();
    vx_vec3_set(&lc->normal, k, (float)-sign);
    int r[3] = {0, 0, 0};
    r[k] = sign;
    uint32_t face = region_code(r);

    float lo, hi;
    bool clipped = clip_to_slabs(sg, e, 7u & ~(1u << k), tol, &lo, &hi);
    bool flat = fabsf(vx_vec3_get(sg->u, k)) <= VX_CAPSULE_FLAT_SIN;
    float ts[2];
    uint32_t fs[2];
    int n = 0;
    if (clipped && flat && (hi - lo) * sg->length >= VX_CAPSULE_MIN_SPAN) {
        ts[0] = lo;
        ts[1] = hi;
        fs[0] = VX_CAPSULE_LINE_END0;
        fs[1] = VX_CAPSULE_LINE_END1;
        n = 2;
    } else {
        if (t_single < 0.0f) {
            float a = clipped ? lo : 0.0f;
            float b = clipped ? hi : 1.0f;
            t_single = face_height(sg, e, k, sign, a) <= face_height(sg, e, k, sign, b) ? a : b;
        }
        ts[0] = t_single;
        fs[0] = segment_feature(t_single);
        n = 1;
    }
    for (int i = 0; i < n; i++) {
        vx_vec3 p = segment_at(sg, ts[i]);
        float height = (float)sign * vx_vec3_get(p, k) - e[k];
        vx_vec3 on_face = p;
        for (int j = 0; j < 3; j++) vx_vec3_set(&on_face, j, clampf(vx_vec3_get(p, j), -e[j], e[j]));
        vx_vec3_set(&on_face, k, (float)sign * e[k]);
        add_point(lc, on_face, radius - height, feature_id(fs[i], face), margin);
    }
}

/* A capsule lying along a box edge, beside it (region r, one zero r_k: the
 * edge runs along axis k): its segment clipped to the edge's length gives
 * two points, each with its own exact distance to the box, sharing the
 * normal already in lc. Nothing when the capsule is not along the edge. */
static void edge_line_contact(local_contact *lc, const segment *sg, const float e[3], float radius, const int r[3],
                              float tol, float margin)
{
    int k = r[0] == 0 ? 0 : (r[1] == 0 ? 1 : 2);
    float along = vx_vec3_get(sg->u, k);
    float across_sq = vx_vec3_length_sq(sg->u) - along * along;
    if (!(across_sq <= VX_CAPSULE_FLAT_SIN * VX_CAPSULE_FLAT_SIN)) return;
    float lo, hi;
    if (!clip_to_slabs(sg, e, 1u << k, tol, &lo, &hi) || (hi - lo) * sg->length < VX_CAPSULE_MIN_SPAN) return;
    float ts[2] = {lo, hi};
    uint32_t fs[2] = {VX_CAPSULE_LINE_END0, VX_CAPSULE_LINE_END1};
    for (int i = 0; i < 2; i++) {
        vx_vec3 p = segment_at(sg, ts[i]);
        vx_vec3 q = p;
        for (int j = 0; j < 3; j++) vx_vec3_set(&q, j, clampf(vx_vec3_get(p, j), -e[j], e[j]));
        add_point(lc, q, radius - vx_vec3_length(vx_vec3_sub(q, p)), feature_id(fs[i], region_code(r)), margin);
    }
}

/* Depth of the capsule into the box along the unit direction n (from the
 * capsule to the box): box support against -n, segment support along n. */
static float sat_depth(const segment *sg, const float e[3], float radius, vx_vec3 n)
{
    float box_reach = e[0] * fabsf(n.x) + e[1] * fabsf(n.y) + e[2] * fabsf(n.z);
    float a = vx_vec3_dot(n, sg->p0);
    float b = vx_vec3_dot(n, vx_vec3_add(sg->p0, sg->d));
    return box_reach + vx_collide_maxf(a, b) + radius;
}

/* Least penetration over the box's face normals and the segment x edge
 * directions, for a segment that touches or enters the box. */
static void sat_contact(local_contact *lc, const segment *sg, const float e[3], float radius, float tol,
                        float margin)
{
    int best_face = 0;
    int best_face_sign = 1; /* sign of the normal (capsule -> box) along the axis */
    float best_face_depth = 0.0f;
    for (int k = 0; k < 3; k++) {
        vx_vec3 axis = vx_vec3_zero();
        vx_vec3_set(&axis, k, 1.0f);
        float dp = sat_depth(sg, e, radius, axis);
        float dn = sat_depth(sg, e, radius, vx_vec3_neg(axis));
        float depth = vx_collide_minf(dp, dn);
        if (k == 0 || depth < best_face_depth) { /* ties keep the lowest axis */
            best_face = k;
            best_face_sign = dp <= dn ? 1 : -1;
            best_face_depth = depth;
        }
    }

    int best_edge = -1;
    vx_vec3 best_edge_n = vx_vec3_zero();
    float best_edge_depth = 0.0f;
    for (int k = 0; k < 3; k++) {
        vx_vec3 edge = vx_vec3_zero();
        vx_vec3_set(&edge, k, 1.0f);
        vx_vec3 axis = vx_vec3_cross(sg->u, edge);
        float len_sq = vx_vec3_length_sq(axis);
        if (len_sq < VX_CAPSULE_EDGE_AXIS_MIN_SQ) continue;
        axis = vx_vec3_scale(axis, 1.0f / sqrtf(len_sq));
        float dp = sat_depth(sg, e, radius, axis);
        float dn = sat_depth(sg, e, radius, vx_vec3_neg(axis));
        float depth = vx_collide_minf(dp, dn);
        if (best_edge < 0 || depth < best_edge_depth) {
            best_edge = k;
            best_edge_n = dp <= dn ? axis : vx_vec3_neg(axis);
            best_edge_depth = depth;
        }
    }

    float smallest = vx_collide_minf(e[0], vx_collide_minf(e[1], e[2]));
    float lin_tol =
        vx_collide_minf(VX_CAPSULE_EDGE_LINEAR_TOL, VX_CAPSULE_EDGE_LINEAR_TOL_SIZE_FRACTION * smallest);
    bool use_edge = best_edge >= 0 &&
                    best_edge_depth + VX_CAPSULE_EDGE_REL_TOL * fabsf(best_face_depth) + lin_tol < best_face_depth;
    if (!use_edge) {
        /* The normal points from the capsule into the box, so the capsule
         * sits at (and leaves through) the face on the other side. */
        face_contact(lc, sg, e, radius, best_face, -best_face_sign, -1.0f, tol, margin);
        return;
    }

    /* Edge along box axis k: of its four edges, the one furthest towards
     * the capsule (least along n). Then the segment point nearest that
     * edge's line, and the edge point beside it. */
    int k = best_edge;
    vx_vec3 n = best_edge_n;
    vx_vec3 corner = vx_vec3_zero();
    int r[3] = {0, 0, 0};
    float num = 0.0f, den = 0.0f;
    for (int i = 0; i < 3; i++) {
        if (i == k) continue;
        r[i] = vx_vec3_get(n, i) > 0.0f ? -1 : 1;
        float ci = (float)r[i] * e[i];
        vx_vec3_set(&corner, i, ci);
        float di = vx_vec3_get(sg->d, i);
        num += di * (vx_vec3_get(sg->p0, i) - ci);
        den += di * di;
    }
    float t = den > 0.0f ? clampf(-num / den, 0.0f, 1.0f) : 0.5f;
    vx_vec3 on_edge = corner;
    vx_vec3_set(&on_edge, k, clampf(vx_vec3_get(segment_at(sg, t), k), -e[k], e[k]));
    lc->normal = n;
    add_point(lc, on_edge, best_edge_depth, feature_id(segment_feature(t), region_code(r)), margin);
}

bool vx_collide_capsule_box(const vx_transform *capsule, float radius, float half_height, const vx_transform *box,
                            vx_vec3 half_extents, float margin, vx_manifold *out)
{
    vx_manifold_reset(out);
    margin = vx_collide_sanitize_margin(margin);

    /* Of the capsule only its axis (local Y) is needed. */
    vx_vec3 cap_axis = vx_collide_axis_y(vx_collide_rotation(capsule));
    vx_obb obb;
    vx_obb_init(&obb, box, half_extents);
    float e[3] = {obb.half[0], obb.half[1], obb.half[2]};

    segment sg;
    vx_vec3 centre = vx_obb_to_local(&obb, capsule->position);
    sg.u = vx_vec3_make(vx_vec3_dot(cap_axis, obb.axis[0]), vx_vec3_dot(cap_axis, obb.axis[1]),
                        vx_vec3_dot(cap_axis, obb.axis[2]));
    sg.p0 = vx_vec3_sub(centre, vx_vec3_scale(sg.u, half_height));
    sg.d = vx_vec3_scale(sg.u, 2.0f * half_height);
    sg.length = 2.0f * half_height;

    float size = vx_collide_maxf(1.0f, vx_collide_maxf(e[0], vx_collide_maxf(e[1], e[2])));
    float tol = VX_CAPSULE_BOX_TOL * size;

    local_contact lc;
    memset(&lc, 0, sizeof lc);

    float dist_sq;
    float t = closest_param(&sg, e, &dist_sq);
    bool done = false;
    if (dist_sq > tol * tol) {
        float dist = sqrtf(dist_sq);
        if (!(radius - dist > -margin)) return false;
        vx_vec3 s = segment_at(&sg, t);
        int r[3];
        int outside = 0;
        for (int i = 0; i < 3; i++) {
            float x = vx_vec3_get(s, i);
            r[i] = x > e[i] + tol ? 1 : (x < -e[i] - tol ? -1 : 0);
            if (r[i] != 0) outside++;
        }
        if (outside == 1) {
            int k = r[0] != 0 ? 0 : (r[1] != 0 ? 1 : 2);
            face_contact(&lc, &sg, e, radius, k, r[k], t, tol, margin);
            done = true;
        } else if (outside >= 2) {
            /* Beside an edge or a corner: the normal from the segment point
             * to its closest box point. */
            vx_vec3 q = s;
            for (int i = 0; i < 3; i++) vx_vec3_set(&q, i, clampf(vx_vec3_get(s, i), -e[i], e[i]));
            vx_vec3 delta = vx_vec3_sub(q, s);
            float len = vx_vec3_length(delta);
            lc.normal = vx_vec3_scale(delta, 1.0f / len);
            if (outside == 2) edge_line_contact(&lc, &sg, e, radius, r, tol, margin);
            if (lc.count == 0)
                add_point(&lc, q, radius - len, feature_id(segment_feature(t), region_code(r)), margin);
            done = true;
        }
        /* outside == 0: within tol of the box on every axis; the SAT decides. */
    }
    if (!done) sat_contact(&lc, &sg, e, radius, tol, margin);
    if (lc.count == 0) return false;

    vx_vec3 n = vx_vec3_zero();
    for (int i = 0; i < 3; i++) n = vx_vec3_add(n, vx_vec3_scale(obb.axis[i], vx_vec3_get(lc.normal, i)));
    out->normal = n;
    for (int i = 0; i < lc.count; i++)
        vx_manifold_push(out, vx_obb_to_world(&obb, lc.point_a[i]), vx_obb_to_world(&obb, lc.point_b[i]), lc.depth[i],
                         lc.feature[i]);
    vx_manifold_sort_by_feature(out);
    return true;
}

/* the capsule feature of an id: bits 0..7 (0 the -Y end, 1 the +Y end) */
#define VX_CAPSULE_END_MASK 0xffu
/* cos of the angle within which an end's own normal must agree with the
 * manifold's (about 2.6 degrees): the same face of the box. */
#define VX_CAPSULE_END_SAME_NORMAL 0.999f

/* A capsule toppling about the end it touches a box with swings the other
 * end through the box within a substep. So the other end, as a sphere
 * against the box, adds its own (speculative) point when it finds the same
 * face: the solver then stops it at the surface like the first. */
void vx_collide_capsule_box_far_end(const vx_collider *cap, const vx_transform *tc, const vx_collider *box,
                                    const vx_transform *tb, float margin, vx_manifold *m)
{
    if (m->count != 1 || (m->points[0].feature >> VX_FEATURE_KIND_SHIFT) != VX_FEATURE_KIND_CAPSULE_BOX) return;
    uint32_t end = m->points[0].feature & VX_CAPSULE_END_MASK;
    if (end > 1u) return; /* the side or a two-point contact: nothing swings */
    float sign = end == 0u ? 1.0f : -1.0f; /* the other end */
    vx_vec3 far_end = vx_vec3_add(tc->position, vx_quat_rotate(vx_quat_normalize(tc->rotation),
                                                                vx_vec3_make(0.0f, sign * cap->half_height, 0.0f)));
    vx_manifold e;
    if (!vx_collide_sphere_box(far_end, cap->radius, tb, box->half_extents, margin, &e)) return;
    if (vx_vec3_dot(e.normal, m->normal) < VX_CAPSULE_END_SAME_NORMAL) return;
    uint32_t feature =
        (VX_FEATURE_KIND_CAPSULE_BOX << VX_FEATURE_KIND_SHIFT) | (1u - end) | (e.points[0].feature << 8);
    vx_manifold_push(m, e.points[0].point_a, e.points[0].point_b, e.points[0].depth, feature);
}
