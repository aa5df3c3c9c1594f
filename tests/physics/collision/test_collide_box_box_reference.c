/* The optimised box-box narrow phase (collide_box_box.c) against the
 * straightforward implementation it replaced, kept here as a test-only
 * reference: on many random and many hand-picked degenerate configurations
 * (resting stacks and brick patterns, exact 90-degree turns with vertices
 * exactly on clipping planes, edge-on-edge, huge and tiny boxes, odd
 * quaternions and margins) both must give the same manifold, byte for byte:
 * normal, depths, points, feature ids and point order. */
#include <criterion/criterion.h>
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "physics/collision/collide_internal.h"
#include "test_helpers.h"
#include "voltex/collide.h"

/* ================= the reference (the former implementation) ================= */

#define REF_FEATURE_KIND_SHIFT 24u
#define REF_FEATURE_KIND_BOX_FACE 1u
#define REF_FEATURE_KIND_BOX_EDGE 2u
#define REF_SEGMENT_PARALLEL_SIN_SQ 1e-7f

typedef struct {
    vx_vec3 center;
    vx_vec3 axis[3];
    float half[3];
} ref_obb;

static ref_obb ref_obb_make(const vx_transform *t, vx_vec3 half_extents)
{
    ref_obb box;
    memset(&box, 0, sizeof box);
    vx_quat q = vx_quat_is_finite(t->rotation) ? vx_quat_normalize(t->rotation) : vx_quat_identity();
    vx_mat3 r = vx_mat3_from_quat(q);
    box.center = t->position;
    for (int i = 0; i < 3; i++) {
        box.axis[i] = vx_vec3_make(r.m[0][i], r.m[1][i], r.m[2][i]);
        box.half[i] = vx_vec3_get(half_extents, i);
    }
    return box;
}

static vx_vec3 ref_obb_to_world(const ref_obb *box, vx_vec3 local)
{
    vx_vec3 w = box->center;
    w = vx_vec3_add(w, vx_vec3_scale(box->axis[0], local.x));
    w = vx_vec3_add(w, vx_vec3_scale(box->axis[1], local.y));
    w = vx_vec3_add(w, vx_vec3_scale(box->axis[2], local.z));
    return w;
}

static float ref_sanitize_margin(float margin) { return margin > 0.0f ? margin : 0.0f; }

static void ref_manifold_reset(vx_manifold *m) { memset(m, 0, sizeof *m); }

static bool ref_manifold_push(vx_manifold *m, vx_vec3 point_a, vx_vec3 point_b, float depth, uint32_t feature)
{
    if (m->count >= VX_MANIFOLD_MAX_POINTS) return false;
    vx_manifold_point *p = &m->points[m->count++];
    p->point_a = point_a;
    p->point_b = point_b;
    p->depth = depth;
    p->feature = feature;
    return true;
}

static void ref_manifold_sort_by_feature(vx_manifold *m)
{
    for (int i = 1; i < m->count; i++) {
        vx_manifold_point p = m->points[i];
        int j = i - 1;
        while (j >= 0 && m->points[j].feature > p.feature) {
            m->points[j + 1] = m->points[j];
            j--;
        }
        m->points[j + 1] = p;
    }
}

static float ref_clampf(float v, float lo, float hi) { return v < lo ? lo : (v > hi ? hi : v); }

static void ref_closest_segment_params(vx_vec3 center_1, vx_vec3 dir_1, float half_1, vx_vec3 center_2,
                                       vx_vec3 dir_2, float half_2, float *s, float *t)
{
    vx_vec3 r = vx_vec3_sub(center_1, center_2);
    float a = vx_vec3_dot(dir_1, dir_1);
    float e = vx_vec3_dot(dir_2, dir_2);
    float b = vx_vec3_dot(dir_1, dir_2);
    float c = vx_vec3_dot(dir_1, r);
    float f = vx_vec3_dot(dir_2, r);
    if (!(a > 0.0f)) {
        *s = 0.0f;
        *t = e > 0.0f ? ref_clampf(f / e, -half_2, half_2) : 0.0f;
        return;
    }
    if (!(e > 0.0f)) {
        *t = 0.0f;
        *s = ref_clampf(-c / a, -half_1, half_1);
        return;
    }
    float denom = a * e - b * b;
    float s_val;
    if (denom > REF_SEGMENT_PARALLEL_SIN_SQ * a * e) {
        s_val = ref_clampf((b * f - c * e) / denom, -half_1, half_1);
    } else {
        float mid = -c / a;
        float w = half_2 * fabsf(b) / a;
        float lo = fmaxf(-half_1, mid - w);
        float hi = fminf(half_1, mid + w);
        s_val = ref_clampf(0.5f * (lo + hi), -half_1, half_1);
    }
    float t_val = (b * s_val + f) / e;
    if (t_val < -half_2 || t_val > half_2) {
        t_val = ref_clampf(t_val, -half_2, half_2);
        s_val = ref_clampf((b * t_val - c) / a, -half_1, half_1);
    }
    *s = s_val;
    *t = t_val;
}

/* Added to every |R_ij| in the edge-axis tests (Gottschalk; Ericson 4.4.1):
 * with (nearly) parallel edges the cross product is noise, and the epsilon
 * keeps such an axis from looking separating. */
#define REF_SAT_EDGE_EPSILON 1e-6f
/* An edge axis |a_i x b_j| shorter than this (edges within ~0.06 degrees of
 * parallel) is skipped: its direction is unreliable, and for parallel edges
 * the face axes already decide (as in 2D). */
#define REF_SAT_EDGE_MIN_LENGTH 1e-3f
/* Axis choice with hysteresis-free preferences, as Box2D/Bullet/Jolt do, so
 * that resting contacts stay face contacts and keep their reference face:
 * B's face wins over A's only when its separation is larger by 2% (relative)
 * plus the linear tolerance; an edge wins over both faces only by 5% plus it. */
#define REF_SAT_FACE_REL_TOL 0.02f
#define REF_SAT_EDGE_REL_TOL 0.05f
/* m: the linear part of both preferences, capped at a twentieth of the
 * smallest half extent so that tiny boxes are not always face contacts. */
#define REF_SAT_LINEAR_TOL 0.001f
#define REF_SAT_LINEAR_TOL_SIZE_FRACTION 0.05f
/* Incident face: another face replaces the lowest axis only when it is more
 * anti-parallel by this much (cosine), so a box balanced at 45 degrees does
 * not flip its incident face from one step to the next. */
#define REF_INCIDENT_FACE_TOL 1e-3f

/* A face contact clips a quadrilateral by 4 planes: at most 8 vertices. */
#define REF_CLIP_MAX 8

#define REF_FEATURE_POINT_INCIDENT_VERTEX 1u
#define REF_FEATURE_POINT_INCIDENT_EDGE 2u
#define REF_FEATURE_POINT_REFERENCE_CORNER 3u
/* Polygon edge tags while clipping: 0..11 an incident box edge, this plus a
 * face id a side plane of the reference face. */
#define REF_TAG_PLANE 16

typedef struct {
    float sep;
    int axis;
} ref_face_query;

typedef struct {
    float sep;
    int i, j; /* the axis is A.axis[i] x B.axis[j] */
    bool valid;
} ref_edge_query;

typedef struct {
    vx_vec3 p;
    uint32_t id;
    int out_tag; /* what the edge from this vertex to the next lies on */
} ref_clip_vertex;

typedef struct {
    vx_vec3 on_ref;  /* projected onto the reference face */
    vx_vec3 on_inc;  /* on the incident box */
    float depth;
    uint32_t id;
} ref_candidate;

static uint32_t ref_vertex_id(const int sign[3])
{
    return (uint32_t)((sign[0] > 0 ? 1 : 0) | (sign[1] > 0 ? 2 : 0) | (sign[2] > 0 ? 4 : 0));
}

static int ref_edge_id(int axis, const int sign[3])
{
    return axis * 4 + (sign[(axis + 1) % 3] > 0 ? 1 : 0) + (sign[(axis + 2) % 3] > 0 ? 2 : 0);
}

static uint32_t ref_face_id(int axis, int sign) { return (uint32_t)(axis * 2 + (sign < 0 ? 1 : 0)); }

/* ---------------- separating axes ---------------- */

typedef struct {
    ref_face_query face_a, face_b;
    ref_edge_query edge;
    float ta[3]; /* B's centre minus A's along A's axes */
    float tb[3]; /* the same along B's axes */
} ref_sat_result;

/* false when some axis separates the boxes by margin or more. */
static bool ref_sat(const ref_obb *a, const ref_obb *b, float margin, ref_sat_result *res)
{
    memset(res, 0, sizeof *res);
    vx_vec3 d = vx_vec3_sub(b->center, a->center);
    float c[3][3], abs_c[3][3];
    for (int i = 0; i < 3; i++) {
        res->ta[i] = vx_vec3_dot(d, a->axis[i]);
        res->tb[i] = vx_vec3_dot(d, b->axis[i]);
        for (int j = 0; j < 3; j++) {
            c[i][j] = vx_vec3_dot(a->axis[i], b->axis[j]);
            abs_c[i][j] = fabsf(c[i][j]);
        }
    }

    for (int i = 0; i < 3; i++) {
        float rb = b->half[0] * abs_c[i][0] + b->half[1] * abs_c[i][1] + b->half[2] * abs_c[i][2];
        float sep = fabsf(res->ta[i]) - (a->half[i] + rb);
        if (!(sep < margin)) return false;
        if (i == 0 || sep > res->face_a.sep) {
            res->face_a.sep = sep;
            res->face_a.axis = i;
        }
    }
    for (int j = 0; j < 3; j++) {
        float ra = a->half[0] * abs_c[0][j] + a->half[1] * abs_c[1][j] + a->half[2] * abs_c[2][j];
        float sep = fabsf(res->tb[j]) - (ra + b->half[j]);
        if (!(sep < margin)) return false;
        if (j == 0 || sep > res->face_b.sep) {
            res->face_b.sep = sep;
            res->face_b.axis = j;
        }
    }

    /* Edge axes, in A's frame: L = e_i x C_j, where column j of C is B's
     * axis j seen from A. */
    for (int i = 0; i < 3; i++) {
        int i1 = (i + 1) % 3, i2 = (i + 2) % 3;
        for (int j = 0; j < 3; j++) {
            int j1 = (j + 1) % 3, j2 = (j + 2) % 3;
            float len = sqrtf(c[i1][j] * c[i1][j] + c[i2][j] * c[i2][j]);
            if (!(len >= REF_SAT_EDGE_MIN_LENGTH)) continue;
            float proj = res->ta[i2] * c[i1][j] - res->ta[i1] * c[i2][j];
            float ra = a->half[i1] * (abs_c[i2][j] + REF_SAT_EDGE_EPSILON) +
                       a->half[i2] * (abs_c[i1][j] + REF_SAT_EDGE_EPSILON);
            float rb = b->half[j1] * (abs_c[i][j2] + REF_SAT_EDGE_EPSILON) +
                       b->half[j2] * (abs_c[i][j1] + REF_SAT_EDGE_EPSILON);
            float sep = (fabsf(proj) - (ra + rb)) / len;
            if (!(sep < margin)) return false;
            if (!res->edge.valid || sep > res->edge.sep) {
                res->edge.valid = true;
                res->edge.sep = sep;
                res->edge.i = i;
                res->edge.j = j;
            }
        }
    }
    return true;
}

/* ---------------- face contact ---------------- */

/* One Sutherland-Hodgman pass: keeps the part of the polygon with
 * dot(p - origin, normal) <= half. A crossing vertex is named by the polygon
 * edge it lies on and the plane, so its id does not depend on the order of
 * the passes. */
static int ref_clip_polygon(const ref_clip_vertex *in, int n, vx_vec3 origin, vx_vec3 normal, float half, int plane_tag,
                        const int ref_corner_sign[3], int plane_axis, int plane_sign, ref_clip_vertex *out)
{
    int m = 0;
    for (int k = 0; k < n; k++) {
        const ref_clip_vertex *p = &in[k];
        const ref_clip_vertex *q = &in[(k + 1) % n];
        float dp = vx_vec3_dot(vx_vec3_sub(p->p, origin), normal) - half;
        float dq = vx_vec3_dot(vx_vec3_sub(q->p, origin), normal) - half;
        if (dp <= 0.0f) out[m++] = *p;
        bool crosses = (dp < 0.0f && dq > 0.0f) || (dp > 0.0f && dq < 0.0f);
        if (crosses) {
            ref_clip_vertex x;
            float t = dp / (dp - dq);
            x.p = vx_vec3_add(p->p, vx_vec3_scale(vx_vec3_sub(q->p, p->p), t));
            if (p->out_tag < REF_TAG_PLANE) {
                x.id = (REF_FEATURE_POINT_INCIDENT_EDGE << 8) | ((uint32_t)(plane_tag - REF_TAG_PLANE) << 4) |
                       (uint32_t)p->out_tag;
            } else {
                /* The edge runs along an earlier side plane: a corner of the
                 * reference face. */
                int sign[3] = {ref_corner_sign[0], ref_corner_sign[1], ref_corner_sign[2]};
                int other = p->out_tag - REF_TAG_PLANE;
                sign[other / 2] = (other % 2) ? -1 : 1;
                sign[plane_axis] = plane_sign;
                x.id = (REF_FEATURE_POINT_REFERENCE_CORNER << 8) | ref_vertex_id(sign);
            }
            /* Leaving the half space, the polygon continues along the plane;
             * entering it, along the edge it came in on. */
            x.out_tag = dp < 0.0f ? plane_tag : p->out_tag;
            out[m++] = x;
        } else if (dp == 0.0f && dq > 0.0f && m > 0) {
            out[m - 1].out_tag = plane_tag; /* p sits on the plane: its edge now runs along it */
        }
    }
    return m;
}

/* Keeps 4 of n > 4 candidates: the deepest, the farthest from it, the one
 * making the largest triangle, and the one adding the most area to it.
 * Ties go to the smaller feature id. */
static int ref_reduce_candidates(ref_candidate *cand, int n, vx_vec3 normal)
{
    int keep[4];
    int best = 0;
    for (int k = 1; k < n; k++)
        if (cand[k].depth > cand[best].depth || (cand[k].depth == cand[best].depth && cand[k].id < cand[best].id))
            best = k;
    keep[0] = best;

    vx_vec3 p0 = cand[keep[0]].on_ref;
    best = -1;
    float best_val = 0.0f;
    for (int k = 0; k < n; k++) {
        if (k == keep[0]) continue;
        float v = vx_vec3_length_sq(vx_vec3_sub(cand[k].on_ref, p0));
        if (best < 0 || v > best_val || (v == best_val && cand[k].id < cand[best].id)) {
            best = k;
            best_val = v;
        }
    }
    keep[1] = best;

    vx_vec3 p1 = cand[keep[1]].on_ref;
    vx_vec3 e01 = vx_vec3_sub(p1, p0);
    best = -1;
    float winding = 1.0f;
    for (int k = 0; k < n; k++) {
        if (k == keep[0] || k == keep[1]) continue;
        float s = vx_vec3_dot(vx_vec3_cross(e01, vx_vec3_sub(cand[k].on_ref, p0)), normal);
        float v = fabsf(s);
        if (best < 0 || v > best_val || (v == best_val && cand[k].id < cand[best].id)) {
            best = k;
            best_val = v;
            winding = s < 0.0f ? -1.0f : 1.0f;
        }
    }
    keep[2] = best;

    /* The fourth lies farthest outside one edge of the triangle (signed
     * areas with the triangle's winding; negative means outside). */
    vx_vec3 tri[3] = {p0, p1, cand[keep[2]].on_ref};
    best = -1;
    for (int k = 0; k < n; k++) {
        if (k == keep[0] || k == keep[1] || k == keep[2]) continue;
        float min_area = 0.0f;
        for (int e = 0; e < 3; e++) {
            vx_vec3 edge = vx_vec3_sub(tri[(e + 1) % 3], tri[e]);
            float s = winding * vx_vec3_dot(vx_vec3_cross(edge, vx_vec3_sub(cand[k].on_ref, tri[e])), normal);
            if (e == 0 || s < min_area) min_area = s;
        }
        float v = -min_area;
        if (best < 0 || v > best_val || (v == best_val && cand[k].id < cand[best].id)) {
            best = k;
            best_val = v;
        }
    }
    keep[3] = best;

    ref_candidate kept[4];
    for (int k = 0; k < 4; k++) kept[k] = cand[keep[k]];
    for (int k = 0; k < 4; k++) cand[k] = kept[k];
    return 4;
}

/* ref's face (ref_axis, ref_sign) against the other box inc. Writes the points
 * (normal already set in out) and returns how many. */
static int ref_face_contact(const ref_obb *ref, int ref_axis, int ref_sign, const ref_obb *inc, bool ref_is_b,
                        float margin, vx_manifold *out)
{
    vx_vec3 ref_normal = vx_vec3_scale(ref->axis[ref_axis], (float)ref_sign);

    /* Incident face: the face of inc most anti-parallel to ref_normal. */
    int inc_axis = 0;
    float best_dot = vx_vec3_dot(inc->axis[0], ref_normal);
    for (int k = 1; k < 3; k++) {
        float dk = vx_vec3_dot(inc->axis[k], ref_normal);
        if (fabsf(dk) > fabsf(best_dot) + REF_INCIDENT_FACE_TOL) {
            inc_axis = k;
            best_dot = dk;
        }
    }
    int inc_sign = best_dot > 0.0f ? -1 : 1;

    /* Its 4 vertices, in order around the face, tagged with box-wide ids. */
    static const int quad[4][2] = {{1, 1}, {-1, 1}, {-1, -1}, {1, -1}};
    int iu = (inc_axis + 1) % 3, iv = (inc_axis + 2) % 3;
    int signs[4][3];
    ref_clip_vertex poly_a[REF_CLIP_MAX], poly_b[REF_CLIP_MAX];
    for (int k = 0; k < 4; k++) {
        signs[k][inc_axis] = inc_sign;
        signs[k][iu] = quad[k][0];
        signs[k][iv] = quad[k][1];
        vx_vec3 local = vx_vec3_make((float)signs[k][0] * inc->half[0], (float)signs[k][1] * inc->half[1],
                                     (float)signs[k][2] * inc->half[2]);
        poly_a[k].p = ref_obb_to_world(inc, local);
        poly_a[k].id = (REF_FEATURE_POINT_INCIDENT_VERTEX << 8) | ref_vertex_id(signs[k]);
    }
    for (int k = 0; k < 4; k++) {
        /* The edge to the next vertex is parallel to the axis whose sign
         * changes; its other two signs are shared. */
        const int *s0 = signs[k];
        const int *s1 = signs[(k + 1) % 4];
        int axis = s0[iu] != s1[iu] ? iu : iv;
        poly_a[k].out_tag = ref_edge_id(axis, s0);
    }

    /* Clip against the 4 side planes of the reference face: +u, -u, +v, -v. */
    int ru = (ref_axis + 1) % 3, rv = (ref_axis + 2) % 3;
    int corner_sign[3] = {0, 0, 0};
    corner_sign[ref_axis] = ref_sign;
    const int plane_axis[4] = {ru, ru, rv, rv};
    const int plane_sign[4] = {1, -1, 1, -1};
    ref_clip_vertex *src = poly_a, *dst = poly_b;
    int n = 4;
    for (int k = 0; k < 4 && n > 0; k++) {
        int ax = plane_axis[k];
        vx_vec3 pn = vx_vec3_scale(ref->axis[ax], (float)plane_sign[k]);
        int tag = REF_TAG_PLANE + (int)ref_face_id(ax, plane_sign[k]);
        n = ref_clip_polygon(src, n, ref->center, pn, ref->half[ax], tag, corner_sign, ax, plane_sign[k], dst);
        ref_clip_vertex *tmp = src;
        src = dst;
        dst = tmp;
    }

    /* Keep what lies below the reference face (or within margin above it). */
    ref_candidate cand[REF_CLIP_MAX];
    int count = 0;
    uint32_t base = (REF_FEATURE_KIND_BOX_FACE << REF_FEATURE_KIND_SHIFT) | (ref_is_b ? (1u << 16) : 0u) |
                    (ref_face_id(ref_axis, ref_sign) << 12);
    for (int k = 0; k < n; k++) {
        float depth = ref->half[ref_axis] - vx_vec3_dot(vx_vec3_sub(src[k].p, ref->center), ref_normal);
        if (!(depth > -margin)) continue;
        cand[count].on_inc = src[k].p;
        cand[count].on_ref = vx_vec3_add(src[k].p, vx_vec3_scale(ref_normal, depth));
        cand[count].depth = depth;
        cand[count].id = base | src[k].id;
        count++;
    }
    if (count > VX_MANIFOLD_MAX_POINTS) count = ref_reduce_candidates(cand, count, ref_normal);

    for (int k = 0; k < count; k++) {
        if (ref_is_b)
            ref_manifold_push(out, cand[k].on_inc, cand[k].on_ref, cand[k].depth, cand[k].id);
        else
            ref_manifold_push(out, cand[k].on_ref, cand[k].on_inc, cand[k].depth, cand[k].id);
    }
    return count;
}

/* ---------------- edge-edge contact ---------------- */

/* The edge of box parallel to axis that lies farthest along dir: its centre
 * (returned) and its id. */
static vx_vec3 ref_support_edge(const ref_obb *box, int axis, vx_vec3 dir, int *id)
{
    int sign[3] = {0, 0, 0};
    vx_vec3 c = box->center;
    for (int k = 0; k < 3; k++) {
        if (k == axis) continue;
        sign[k] = vx_vec3_dot(box->axis[k], dir) < 0.0f ? -1 : 1;
        c = vx_vec3_add(c, vx_vec3_scale(box->axis[k], (float)sign[k] * box->half[k]));
    }
    *id = ref_edge_id(axis, sign);
    return c;
}

/* One point between A's edge along axis i and B's edge along axis j. */
static bool ref_edge_contact(const ref_obb *a, const ref_obb *b, int i, int j, float margin, vx_manifold *out)
{
    vx_vec3 n = vx_vec3_normalize(vx_vec3_cross(a->axis[i], b->axis[j]));
    if (vx_vec3_dot(n, vx_vec3_sub(b->center, a->center)) < 0.0f) n = vx_vec3_neg(n);

    int id_a, id_b;
    vx_vec3 ca = ref_support_edge(a, i, n, &id_a);
    vx_vec3 cb = ref_support_edge(b, j, vx_vec3_neg(n), &id_b);
    float s, t;
    ref_closest_segment_params(ca, a->axis[i], a->half[i], cb, b->axis[j], b->half[j], &s, &t);
    vx_vec3 pa = vx_vec3_add(ca, vx_vec3_scale(a->axis[i], s));
    vx_vec3 pb = vx_vec3_add(cb, vx_vec3_scale(b->axis[j], t));
    float depth = vx_vec3_dot(vx_vec3_sub(pa, pb), n);
    if (!(depth > -margin)) return false;

    /* Put the pair exactly along n around its midpoint, so that
     * point_a - point_b = n * depth even where an edge end was clamped. */
    vx_vec3 mid = vx_vec3_scale(vx_vec3_add(pa, pb), 0.5f);
    vx_vec3 half_gap = vx_vec3_scale(n, 0.5f * depth);
    out->normal = n;
    uint32_t feature = (REF_FEATURE_KIND_BOX_EDGE << REF_FEATURE_KIND_SHIFT) | ((uint32_t)id_a << 4) | (uint32_t)id_b;
    ref_manifold_push(out, vx_vec3_add(mid, half_gap), vx_vec3_sub(mid, half_gap), depth, feature);
    return true;
}

/* ---------------- the pair ---------------- */

static bool ref_collide_box_box(const vx_transform *a, vx_vec3 half_a, const vx_transform *b, vx_vec3 half_b,
                        float margin, vx_manifold *out)
{
    ref_manifold_reset(out);
    margin = ref_sanitize_margin(margin);
    ref_obb box_a = ref_obb_make(a, half_a);
    ref_obb box_b = ref_obb_make(b, half_b);

    ref_sat_result sr;
    if (!ref_sat(&box_a, &box_b, margin, &sr)) return false;

    float smallest = box_a.half[0];
    for (int k = 0; k < 3; k++) smallest = fminf(smallest, fminf(box_a.half[k], box_b.half[k]));
    float lin_tol = fminf(REF_SAT_LINEAR_TOL, REF_SAT_LINEAR_TOL_SIZE_FRACTION * smallest);

    float max_face = fmaxf(sr.face_a.sep, sr.face_b.sep);
    bool use_edge = sr.edge.valid && sr.edge.sep > max_face + REF_SAT_EDGE_REL_TOL * fabsf(max_face) + lin_tol;
    if (use_edge) {
        if (ref_edge_contact(&box_a, &box_b, sr.edge.i, sr.edge.j, margin, out)) return true;
        /* The closest points of the two edges were clamped so far that they
         * are not within margin: let the best face try instead. */
        ref_manifold_reset(out);
    }

    bool ref_is_b = sr.face_b.sep > sr.face_a.sep + REF_SAT_FACE_REL_TOL * fabsf(sr.face_a.sep) + lin_tol;
    int count;
    if (!ref_is_b) {
        int axis = sr.face_a.axis;
        int sign = sr.ta[axis] < 0.0f ? -1 : 1; /* coincident centres: + */
        out->normal = vx_vec3_scale(box_a.axis[axis], (float)sign);
        count = ref_face_contact(&box_a, axis, sign, &box_b, false, margin, out);
    } else {
        int axis = sr.face_b.axis;
        int sign = sr.tb[axis] < 0.0f ? -1 : 1; /* A->B along B's axis */
        out->normal = vx_vec3_scale(box_b.axis[axis], (float)sign);
        count = ref_face_contact(&box_b, axis, -sign, &box_a, true, margin, out);
    }

    /* A face chosen by preference can clip away every point of a contact
     * that is really edge against edge: fall back to the best edge pair. */
    if (count == 0 && sr.edge.valid && !use_edge) {
        ref_manifold_reset(out);
        ref_edge_contact(&box_a, &box_b, sr.edge.i, sr.edge.j, margin, out);
    }
    if (out->count == 0) {
        ref_manifold_reset(out);
        return false;
    }
    ref_manifold_sort_by_feature(out);
    return true;
}

/* ================= the comparison ================= */

#define PI_F 3.14159265358979f

typedef struct {
    int calls;
    int hits;
    int face_points[VX_MANIFOLD_MAX_POINTS + 1]; /* face contacts by point count */
    int edge;                                    /* edge-edge contacts */
    int ref_on_b;                                /* face contacts with B's reference face */
} tally;

static vx_transform place(vx_vec3 position, vx_quat rotation)
{
    vx_transform t;
    memset(&t, 0, sizeof t);
    t.position = position;
    t.rotation = rotation;
    return t;
}

static void describe(char *buf, size_t size, const vx_transform *a, vx_vec3 ha, const vx_transform *b, vx_vec3 hb,
                     float margin)
{
    snprintf(buf, size,
             "A p(%a %a %a) q(%a %a %a %a) h(%a %a %a)  B p(%a %a %a) q(%a %a %a %a) h(%a %a %a)  margin %a",
             (double)a->position.x, (double)a->position.y, (double)a->position.z, (double)a->rotation.x,
             (double)a->rotation.y, (double)a->rotation.z, (double)a->rotation.w, (double)ha.x, (double)ha.y,
             (double)ha.z, (double)b->position.x, (double)b->position.y, (double)b->position.z,
             (double)b->rotation.x, (double)b->rotation.y, (double)b->rotation.z, (double)b->rotation.w,
             (double)hb.x, (double)hb.y, (double)hb.z, (double)margin);
}

/* Both implementations, both entry points (transforms and prebuilt boxes),
 * on (a, b) and on (b, a): identical results, byte for byte. */
static void check_pair(const vx_transform *a, vx_vec3 ha, const vx_transform *b, vx_vec3 hb, float margin,
                       tally *t)
{
    for (int swap = 0; swap < 2; swap++) {
        const vx_transform *ta = swap ? b : a, *tb = swap ? a : b;
        vx_vec3 ea = swap ? hb : ha, eb = swap ? ha : hb;
        vx_manifold expect, got, got_obb;
        memset(&expect, 0xA5, sizeof expect);
        memset(&got, 0x5A, sizeof got);
        memset(&got_obb, 0x3C, sizeof got_obb);
        bool hit_expect = ref_collide_box_box(ta, ea, tb, eb, margin, &expect);
        bool hit_got = vx_collide_box_box(ta, ea, tb, eb, margin, &got);
        vx_obb oa = vx_obb_make(ta, ea), ob = vx_obb_make(tb, eb);
        bool hit_obb = vx_collide_box_box_obb(&oa, &ob, margin, &got_obb);
        if (hit_expect != hit_got || hit_expect != hit_obb || memcmp(&expect, &got, sizeof got) != 0 ||
            memcmp(&expect, &got_obb, sizeof got) != 0) {
            char buf[1024];
            describe(buf, sizeof buf, ta, ea, tb, eb, margin);
            cr_assert_fail("manifolds differ (hit %d/%d/%d, count %d/%d/%d) for %s", hit_expect, hit_got, hit_obb,
                           expect.count, got.count, got_obb.count, buf);
        }
        t->calls++;
        if (!hit_expect) continue;
        t->hits++;
        uint32_t kind = expect.points[0].feature >> REF_FEATURE_KIND_SHIFT;
        if (kind == REF_FEATURE_KIND_BOX_EDGE) {
            t->edge++;
        } else {
            t->face_points[expect.count]++;
            if (expect.points[0].feature & (1u << 16)) t->ref_on_b++;
        }
    }
}

static float rnd(vx_test_rng *r, float lo, float hi) { return vx_test_rng_range(r, lo, hi); }

static vx_quat random_unit_quat(vx_test_rng *r)
{
    return vx_quat_normalize(vx_quat_make(rnd(r, -1, 1), rnd(r, -1, 1), rnd(r, -1, 1), rnd(r, -1, 1)));
}

/* A small turn about a random axis: angles from 1e-6 to 1e-2 rad. */
static vx_quat small_turn(vx_test_rng *r)
{
    vx_vec3 axis = vx_vec3_normalize(vx_vec3_make(rnd(r, -1, 1), rnd(r, -1, 1), rnd(r, -1, 1)));
    float angle = powf(10.0f, rnd(r, -6.0f, -2.0f));
    return vx_quat_from_axis_angle(axis, angle);
}

/* One of the 24 rotations of the cube, as an exact product of quarter
 * turns (components 0, +-0.5, +-sqrt(1/2), +-1 up to rounding). */
static vx_quat cube_turn(vx_test_rng *r)
{
    vx_quat q = vx_quat_identity();
    for (int k = 0; k < 3; k++) {
        int axis = (int)(vx_test_rng_next(r) % 3u);
        int quarters = (int)(vx_test_rng_next(r) % 4u);
        vx_vec3 v = vx_vec3_zero();
        vx_vec3_set(&v, axis, 1.0f);
        q = vx_quat_mul(q, vx_quat_from_axis_angle(v, (float)quarters * 0.5f * PI_F));
    }
    return q;
}

static vx_vec3 random_half(vx_test_rng *r, float lo, float hi)
{
    return vx_vec3_make(rnd(r, lo, hi), rnd(r, lo, hi), rnd(r, lo, hi));
}

static float random_margin(vx_test_rng *r)
{
    static const float margins[4] = {0.0f, 0.01f, 0.05f, 0.2f};
    return margins[vx_test_rng_next(r) % 4u];
}

Test(box_box_reference, random_poses)
{
    vx_test_rng rng = {0x1234567u};
    tally t;
    memset(&t, 0, sizeof t);
    for (int k = 0; k < 6000; k++) {
        vx_vec3 ha = random_half(&rng, 0.05f, 1.5f), hb = random_half(&rng, 0.05f, 1.5f);
        vx_transform a = place(vx_vec3_make(rnd(&rng, -1, 1), rnd(&rng, -1, 1), rnd(&rng, -1, 1)),
                               random_unit_quat(&rng));
        float reach = vx_vec3_length(ha) + vx_vec3_length(hb);
        vx_vec3 off = vx_vec3_make(rnd(&rng, -reach, reach), rnd(&rng, -reach, reach), rnd(&rng, -reach, reach));
        vx_transform b = place(vx_vec3_add(a.position, off), random_unit_quat(&rng));
        check_pair(&a, ha, &b, hb, random_margin(&rng), &t);
    }
    cr_assert_gt(t.hits, 2000, "hits %d", t.hits);
    cr_assert_gt(t.edge, 200, "edge contacts %d", t.edge);
    cr_assert_gt(t.face_points[1] + t.face_points[2], 200);
    cr_assert_gt(t.face_points[4], 100, "4-point faces %d", t.face_points[4]);
    cr_assert_gt(t.ref_on_b, 200);
}

Test(box_box_reference, resting_stacks_and_brick_rows)
{
    /* Box on box as in stacks and pyramids: equal or different sizes, top
     * box offset by whole or half box widths (brick rows) or at random,
     * aligned exactly or turned by tiny angles, sunk in or hovering within
     * the margin: the clipped patches with 5 to 8 corners, reduced to 4. */
    vx_test_rng rng = {0xC0FFEEu};
    tally t;
    memset(&t, 0, sizeof t);
    for (int k = 0; k < 8000; k++) {
        bool same = (vx_test_rng_next(&rng) % 2u) == 0u;
        vx_vec3 ha = same ? vx_vec3_make(0.5f, 0.5f, 0.5f) : random_half(&rng, 0.2f, 1.0f);
        vx_vec3 hb = same ? ha : random_half(&rng, 0.2f, 1.0f);
        float wx = ha.x + hb.x, wz = ha.z + hb.z;
        float dx, dz;
        switch (vx_test_rng_next(&rng) % 3u) {
        case 0: /* brick rows: whole or half widths */
            dx = 0.5f * wx * (float)((int)(vx_test_rng_next(&rng) % 5u) - 2);
            dz = 0.5f * wz * (float)((int)(vx_test_rng_next(&rng) % 5u) - 2);
            break;
        case 1: /* a hair off a brick position */
            dx = 0.5f * wx * (float)((int)(vx_test_rng_next(&rng) % 3u) - 1) + rnd(&rng, -1e-4f, 1e-4f);
            dz = 0.5f * wz * (float)((int)(vx_test_rng_next(&rng) % 3u) - 1) + rnd(&rng, -1e-4f, 1e-4f);
            break;
        default:
            dx = rnd(&rng, -wx, wx);
            dz = rnd(&rng, -wz, wz);
            break;
        }
        float gap = rnd(&rng, -0.02f, 0.02f);
        if (vx_test_rng_next(&rng) % 4u == 0u) gap = 0.0f;
        vx_vec3 pa = vx_vec3_make(rnd(&rng, -5, 5), rnd(&rng, 0, 10), rnd(&rng, -5, 5));
        vx_vec3 pb = vx_vec3_add(pa, vx_vec3_make(dx, ha.y + hb.y + gap, dz));
        unsigned tilt = vx_test_rng_next(&rng) % 4u;
        vx_quat qa = tilt & 1u ? small_turn(&rng) : vx_quat_identity();
        vx_quat qb = tilt & 2u ? small_turn(&rng) : vx_quat_identity();
        if (vx_test_rng_next(&rng) % 3u == 0u) { /* the whole stack turned about Y */
            vx_quat yaw = vx_quat_from_axis_angle(vx_vec3_make(0, 1, 0), rnd(&rng, -PI_F, PI_F));
            qa = vx_quat_mul(yaw, qa);
            qb = vx_quat_mul(yaw, qb);
            pb = vx_vec3_add(pa, vx_quat_rotate(yaw, vx_vec3_sub(pb, pa)));
        }
        vx_transform a = place(pa, qa), b = place(pb, qb);
        check_pair(&a, ha, &b, hb, random_margin(&rng), &t);
    }
    cr_assert_gt(t.hits, 8000, "hits %d", t.hits);
    cr_assert_gt(t.face_points[4], 5000, "4-point faces %d", t.face_points[4]);
    cr_assert_gt(t.face_points[2], 200, "2-point faces %d", t.face_points[2]);
}

Test(box_box_reference, quarter_turns_on_a_grid)
{
    /* Exact cube rotations and positions on a quarter grid: faces flush,
     * vertices exactly on side planes (distance 0 in the clipper), zero and
     * negative-zero rotation entries. */
    vx_test_rng rng = {0xBADC0DEu};
    tally t;
    memset(&t, 0, sizeof t);
    for (int k = 0; k < 6000; k++) {
        vx_vec3 ha = vx_vec3_make(0.25f * (float)(1 + vx_test_rng_next(&rng) % 4u),
                                  0.25f * (float)(1 + vx_test_rng_next(&rng) % 4u),
                                  0.25f * (float)(1 + vx_test_rng_next(&rng) % 4u));
        vx_vec3 hb = vx_vec3_make(0.25f * (float)(1 + vx_test_rng_next(&rng) % 4u),
                                  0.25f * (float)(1 + vx_test_rng_next(&rng) % 4u),
                                  0.25f * (float)(1 + vx_test_rng_next(&rng) % 4u));
        vx_vec3 off = vx_vec3_make(0.25f * (float)((int)(vx_test_rng_next(&rng) % 17u) - 8),
                                   0.25f * (float)((int)(vx_test_rng_next(&rng) % 17u) - 8),
                                   0.25f * (float)((int)(vx_test_rng_next(&rng) % 17u) - 8));
        vx_transform a = place(vx_vec3_make(1.0f, 2.0f, -3.0f), cube_turn(&rng));
        vx_transform b = place(vx_vec3_add(a.position, off), cube_turn(&rng));
        check_pair(&a, ha, &b, hb, random_margin(&rng), &t);
    }
    cr_assert_gt(t.hits, 1500, "hits %d", t.hits);
    cr_assert_gt(t.face_points[4], 500, "4-point faces %d", t.face_points[4]);
}

Test(box_box_reference, edges_across_edges)
{
    /* Boxes turned 45 degrees about different axes (and a little more),
     * meeting edge to edge, near parallel edges and corners into faces. */
    vx_test_rng rng = {0xE1D6Eu};
    tally t;
    memset(&t, 0, sizeof t);
    static const vx_vec3 axes[3] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
    for (int k = 0; k < 6000; k++) {
        vx_vec3 ha = random_half(&rng, 0.3f, 1.0f), hb = random_half(&rng, 0.3f, 1.0f);
        int i = (int)(vx_test_rng_next(&rng) % 3u), j = (int)(vx_test_rng_next(&rng) % 3u);
        float jitter = vx_test_rng_next(&rng) % 2u ? rnd(&rng, -1e-3f, 1e-3f) : 0.0f;
        vx_quat qa = vx_quat_from_axis_angle(axes[i], 0.25f * PI_F + jitter);
        vx_quat qb = vx_quat_from_axis_angle(axes[j], 0.25f * PI_F - jitter);
        if (vx_test_rng_next(&rng) % 2u) qb = vx_quat_mul(qb, vx_quat_from_axis_angle(axes[i], 0.25f * PI_F));
        vx_vec3 dir = vx_vec3_normalize(vx_vec3_make(rnd(&rng, -1, 1), rnd(&rng, -1, 1), rnd(&rng, -1, 1)));
        float dist = rnd(&rng, 0.6f, 1.1f) * (vx_vec3_length(ha) + vx_vec3_length(hb));
        vx_transform a = place(vx_vec3_zero(), qa);
        vx_transform b = place(vx_vec3_scale(dir, dist), qb);
        check_pair(&a, ha, &b, hb, random_margin(&rng), &t);
    }
    cr_assert_gt(t.hits, 1000, "hits %d", t.hits);
    cr_assert_gt(t.edge, 300, "edge contacts %d", t.edge);
}

Test(box_box_reference, extreme_sizes_and_odd_inputs)
{
    /* Huge against tiny boxes, far from the origin, unnormalised, zero and
     * non-finite quaternions, coincident centres, and odd margins
     * (negative, NaN): the same answers as before, including the "no". */
    vx_test_rng rng = {0xFACADEu};
    tally t;
    memset(&t, 0, sizeof t);
    const float odd_margins[5] = {-1.0f, NAN, 0.0f, 1e-6f, 3.0f};
    for (int k = 0; k < 4000; k++) {
        vx_vec3 ha, hb;
        if (k % 2) {
            ha = random_half(&rng, 5.0f, 50.0f);
            hb = random_half(&rng, 0.001f, 0.05f);
        } else {
            ha = random_half(&rng, 0.01f, 3.0f);
            hb = random_half(&rng, 0.01f, 3.0f);
        }
        vx_quat qa = random_unit_quat(&rng), qb = random_unit_quat(&rng);
        switch (k % 7) {
        case 0: qa = vx_quat_make(qa.x * 3.0f, qa.y * 3.0f, qa.z * 3.0f, qa.w * 3.0f); break;
        case 1: qb = vx_quat_make(0, 0, 0, 0); break;
        case 2: qa = vx_quat_make(NAN, 0, 0, 1); break;
        case 3: qb = vx_quat_make(INFINITY, 0, 0, 1); break;
        default: break;
        }
        vx_vec3 far = k % 3 == 0 ? vx_vec3_make(1000.0f, -500.0f, 250.0f) : vx_vec3_zero();
        vx_transform a = place(far, qa);
        vx_vec3 off = k % 11 == 0 ? vx_vec3_zero()
                                  : vx_vec3_make(rnd(&rng, -1, 1) * ha.x, rnd(&rng, -1, 1) * ha.y + ha.y,
                                                 rnd(&rng, -1, 1) * ha.z);
        vx_transform b = place(vx_vec3_add(far, off), qb);
        float margin = k % 5 == 4 ? odd_margins[(k / 5) % 5] : random_margin(&rng);
        check_pair(&a, ha, &b, hb, margin, &t);
    }
    cr_assert_gt(t.hits, 1000, "hits %d", t.hits);
}

/* ================= the inline helpers the narrow phase relies on ================= */

static uint32_t float_bits(float f)
{
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    return u;
}

Test(collide_internal, min_max_match_libm)
{
    /* vx_collide_minf / maxf replace fminf / fmaxf calls: the same result,
     * NaN arguments included. +0 against -0 is the one case C leaves open
     * (either zero; GCC even swaps the operands of fminf, which it treats as
     * commutative): there any zero passes, and ours is the second argument,
     * as glibc's minss / maxss return. volatile keeps the compiler from
     * folding the libm calls. */
    const float values[] = {0.0f, -0.0f, 1.0f, -1.0f, 1e-45f, -1e-45f, FLT_MAX, -FLT_MAX, INFINITY, -INFINITY,
                            NAN, 0.5f, 0.5f, 3.25f};
    const int n = (int)(sizeof values / sizeof values[0]);
    for (int i = 0; i < n; i++) {
        for (int j = 0; j < n; j++) {
            volatile float x = values[i], y = values[j];
            float lib_min = fminf(x, y), lib_max = fmaxf(x, y);
            float our_min = vx_collide_minf(x, y), our_max = vx_collide_maxf(x, y);
            if (x == 0.0f && y == 0.0f) {
                cr_assert(float_bits(our_min) == float_bits(y) && float_bits(our_max) == float_bits(y));
                cr_assert(lib_min == 0.0f && lib_max == 0.0f);
                continue;
            }
            cr_assert(float_bits(lib_min) == float_bits(our_min) || (isnan(lib_min) && isnan(our_min)),
                      "min(%a, %a): libm %a, ours %a", (double)x, (double)y, (double)lib_min, (double)our_min);
            cr_assert(float_bits(lib_max) == float_bits(our_max) || (isnan(lib_max) && isnan(our_max)),
                      "max(%a, %a): libm %a, ours %a", (double)x, (double)y, (double)lib_max, (double)our_max);
        }
    }
}

Test(collide_internal, single_axes_match_the_rotation_matrix)
{
    /* vx_collide_axis_x / _y are columns 0 / 1 of vx_mat3_from_quat, bit for
     * bit, and vx_obb_make's axes are its columns. */
    vx_test_rng rng = {0x5EEDu};
    for (int k = 0; k < 2000; k++) {
        vx_transform t = place(vx_vec3_make(rnd(&rng, -5, 5), rnd(&rng, -5, 5), rnd(&rng, -5, 5)),
                               vx_quat_make(rnd(&rng, -2, 2), rnd(&rng, -2, 2), rnd(&rng, -2, 2), rnd(&rng, -2, 2)));
        vx_quat q = vx_collide_rotation(&t);
        vx_mat3 r = vx_mat3_from_quat(q);
        vx_vec3 x = vx_collide_axis_x(q), y = vx_collide_axis_y(q);
        vx_obb box = vx_obb_make(&t, vx_vec3_make(1, 2, 3));
        for (int i = 0; i < 3; i++) {
            cr_assert_eq(float_bits(vx_vec3_get(x, i)), float_bits(r.m[i][0]));
            cr_assert_eq(float_bits(vx_vec3_get(y, i)), float_bits(r.m[i][1]));
            for (int c = 0; c < 3; c++) cr_assert_eq(float_bits(vx_vec3_get(box.axis[c], i)), float_bits(r.m[i][c]));
        }
    }
}
