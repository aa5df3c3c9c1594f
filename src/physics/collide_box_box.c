/* Oriented box against oriented box: the separating-axis test over 15 axes
 * (3 face normals of A, 3 of B, 9 edge cross products), then either a face
 * contact (the incident face clipped against the reference face's side planes,
 * up to 4 points) or an edge-edge contact (1 point).
 *
 * Feature ids (32 bits; every id of this file is nonzero and different from
 * the sphere ids, which are < 27):
 *   bits 24..27  kind: 1 = face contact, 2 = edge-edge contact
 *   face contact:
 *     bit  16      the reference face belongs to B (0: to A)
 *     bits 12..14  reference face: axis * 2 + (outward normal along -axis)
 *     bits  8..9   point type:
 *                    1 = a vertex of the incident box
 *                    2 = an incident box edge crossing a side plane of the
 *                        reference face
 *                    3 = a corner of the reference face
 *     bits  4..6   type 2: the side plane, as the reference box face id
 *                  (axis * 2 + (outward normal along -axis))
 *     bits  0..3   type 1: incident box vertex; type 2: incident box edge;
 *                  type 3: reference box vertex
 *   edge-edge contact:
 *     bits  4..7   edge of A;  bits 0..3  edge of B
 * Box vertex ids: bit k set when the vertex is on the + side of axis k (0..7).
 * Box edge ids: axis * 4 + (+ side of axis+1) + 2 * (+ side of axis+2), for
 * the edge parallel to axis (0..11). Vertices and edges are numbered on the
 * whole box, not on a face, so a point keeps its id when the incident face
 * changes between two faces that share it (a box balanced on an edge).
 *
 * Points: face contact: the point on the incident box is the clipped vertex,
 * the point on the reference box its projection onto the reference face.
 * Edge-edge contact: the closest points of the two edges, placed along the
 * normal around their midpoint (they already lie on it unless an edge end was
 * clamped, which happens only for speculative contacts in practice). */
#include "physics/collide_internal.h"

#include <string.h>

/* Added to every |R_ij| in the edge-axis tests (Gottschalk; Ericson 4.4.1):
 * with (nearly) parallel edges the cross product is noise, and the epsilon
 * keeps such an axis from looking separating. */
#define VX_SAT_EDGE_EPSILON 1e-6f
/* An edge axis |a_i x b_j| shorter than this (edges within ~0.06 degrees of
 * parallel) is skipped: its direction is unreliable, and for parallel edges
 * the face axes already decide (as in 2D). */
#define VX_SAT_EDGE_MIN_LENGTH 1e-3f
/* Axis choice with hysteresis-free preferences, as Box2D/Bullet/Jolt do, so
 * that resting contacts stay face contacts and keep their reference face:
 * B's face wins over A's only when its separation is larger by 2% (relative)
 * plus the linear tolerance; an edge wins over both faces only by 5% plus it. */
#define VX_SAT_FACE_REL_TOL 0.02f
#define VX_SAT_EDGE_REL_TOL 0.05f
/* m: the linear part of both preferences, capped at a twentieth of the
 * smallest half extent so that tiny boxes are not always face contacts. */
#define VX_SAT_LINEAR_TOL 0.001f
#define VX_SAT_LINEAR_TOL_SIZE_FRACTION 0.05f
/* Incident face: another face replaces the lowest axis only when it is more
 * anti-parallel by this much (cosine), so a box balanced at 45 degrees does
 * not flip its incident face from one step to the next. */
#define VX_INCIDENT_FACE_TOL 1e-3f

/* A face contact clips a quadrilateral by 4 planes: at most 8 vertices. */
#define VX_CLIP_MAX 8

#define FEATURE_POINT_INCIDENT_VERTEX 1u
#define FEATURE_POINT_INCIDENT_EDGE 2u
#define FEATURE_POINT_REFERENCE_CORNER 3u
/* Polygon edge tags while clipping: 0..11 an incident box edge, this plus a
 * face id a side plane of the reference face. */
#define TAG_PLANE 16

typedef struct {
    float sep;
    int axis;
} face_query;

typedef struct {
    float sep;
    int i, j; /* the axis is A.axis[i] x B.axis[j] */
    bool valid;
} edge_query;

typedef struct {
    vx_vec3 p;
    uint32_t id;
    int out_tag; /* what the edge from this vertex to the next lies on */
} clip_vertex;

typedef struct {
    vx_vec3 on_ref;  /* projected onto the reference face */
    vx_vec3 on_inc;  /* on the incident box */
    float depth;
    uint32_t id;
} candidate;

static uint32_t vertex_id(const int sign[3])
{
    return (uint32_t)((sign[0] > 0 ? 1 : 0) | (sign[1] > 0 ? 2 : 0) | (sign[2] > 0 ? 4 : 0));
}

static int edge_id(int axis, const int sign[3])
{
    return axis * 4 + (sign[(axis + 1) % 3] > 0 ? 1 : 0) + (sign[(axis + 2) % 3] > 0 ? 2 : 0);
}

static uint32_t face_id(int axis, int sign) { return (uint32_t)(axis * 2 + (sign < 0 ? 1 : 0)); }

/* ---------------- separating axes ---------------- */

typedef struct {
    face_query face_a, face_b;
    edge_query edge;
    float ta[3]; /* B's centre minus A's along A's axes */
    float tb[3]; /* the same along B's axes */
} sat_result;

/* false when some axis separates the boxes by margin or more. */
static bool sat(const vx_obb *a, const vx_obb *b, float margin, sat_result *res)
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
            if (!(len >= VX_SAT_EDGE_MIN_LENGTH)) continue;
            float proj = res->ta[i2] * c[i1][j] - res->ta[i1] * c[i2][j];
            float ra = a->half[i1] * (abs_c[i2][j] + VX_SAT_EDGE_EPSILON) +
                       a->half[i2] * (abs_c[i1][j] + VX_SAT_EDGE_EPSILON);
            float rb = b->half[j1] * (abs_c[i][j2] + VX_SAT_EDGE_EPSILON) +
                       b->half[j2] * (abs_c[i][j1] + VX_SAT_EDGE_EPSILON);
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
static int clip_polygon(const clip_vertex *in, int n, vx_vec3 origin, vx_vec3 normal, float half, int plane_tag,
                        const int ref_corner_sign[3], int plane_axis, int plane_sign, clip_vertex *out)
{
    int m = 0;
    for (int k = 0; k < n; k++) {
        const clip_vertex *p = &in[k];
        const clip_vertex *q = &in[(k + 1) % n];
        float dp = vx_vec3_dot(vx_vec3_sub(p->p, origin), normal) - half;
        float dq = vx_vec3_dot(vx_vec3_sub(q->p, origin), normal) - half;
        if (dp <= 0.0f) out[m++] = *p;
        bool crosses = (dp < 0.0f && dq > 0.0f) || (dp > 0.0f && dq < 0.0f);
        if (crosses) {
            clip_vertex x;
            float t = dp / (dp - dq);
            x.p = vx_vec3_add(p->p, vx_vec3_scale(vx_vec3_sub(q->p, p->p), t));
            if (p->out_tag < TAG_PLANE) {
                x.id = (FEATURE_POINT_INCIDENT_EDGE << 8) | ((uint32_t)(plane_tag - TAG_PLANE) << 4) |
                       (uint32_t)p->out_tag;
            } else {
                /* The edge runs along an earlier side plane: a corner of the
                 * reference face. */
                int sign[3] = {ref_corner_sign[0], ref_corner_sign[1], ref_corner_sign[2]};
                int other = p->out_tag - TAG_PLANE;
                sign[other / 2] = (other % 2) ? -1 : 1;
                sign[plane_axis] = plane_sign;
                x.id = (FEATURE_POINT_REFERENCE_CORNER << 8) | vertex_id(sign);
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
static int reduce_candidates(candidate *cand, int n, vx_vec3 normal)
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

    candidate kept[4];
    for (int k = 0; k < 4; k++) kept[k] = cand[keep[k]];
    for (int k = 0; k < 4; k++) cand[k] = kept[k];
    return 4;
}

/* ref's face (ref_axis, ref_sign) against the other box inc. Writes the points
 * (normal already set in out) and returns how many. */
static int face_contact(const vx_obb *ref, int ref_axis, int ref_sign, const vx_obb *inc, bool ref_is_b,
                        float margin, vx_manifold *out)
{
    vx_vec3 ref_normal = vx_vec3_scale(ref->axis[ref_axis], (float)ref_sign);

    /* Incident face: the face of inc most anti-parallel to ref_normal. */
    int inc_axis = 0;
    float best_dot = vx_vec3_dot(inc->axis[0], ref_normal);
    for (int k = 1; k < 3; k++) {
        float dk = vx_vec3_dot(inc->axis[k], ref_normal);
        if (fabsf(dk) > fabsf(best_dot) + VX_INCIDENT_FACE_TOL) {
            inc_axis = k;
            best_dot = dk;
        }
    }
    int inc_sign = best_dot > 0.0f ? -1 : 1;

    /* Its 4 vertices, in order around the face, tagged with box-wide ids. */
    static const int quad[4][2] = {{1, 1}, {-1, 1}, {-1, -1}, {1, -1}};
    int iu = (inc_axis + 1) % 3, iv = (inc_axis + 2) % 3;
    int signs[4][3];
    clip_vertex poly_a[VX_CLIP_MAX], poly_b[VX_CLIP_MAX];
    for (int k = 0; k < 4; k++) {
        signs[k][inc_axis] = inc_sign;
        signs[k][iu] = quad[k][0];
        signs[k][iv] = quad[k][1];
        vx_vec3 local = vx_vec3_make((float)signs[k][0] * inc->half[0], (float)signs[k][1] * inc->half[1],
                                     (float)signs[k][2] * inc->half[2]);
        poly_a[k].p = vx_obb_to_world(inc, local);
        poly_a[k].id = (FEATURE_POINT_INCIDENT_VERTEX << 8) | vertex_id(signs[k]);
    }
    for (int k = 0; k < 4; k++) {
        /* The edge to the next vertex is parallel to the axis whose sign
         * changes; its other two signs are shared. */
        const int *s0 = signs[k];
        const int *s1 = signs[(k + 1) % 4];
        int axis = s0[iu] != s1[iu] ? iu : iv;
        poly_a[k].out_tag = edge_id(axis, s0);
    }

    /* Clip against the 4 side planes of the reference face: +u, -u, +v, -v. */
    int ru = (ref_axis + 1) % 3, rv = (ref_axis + 2) % 3;
    int corner_sign[3] = {0, 0, 0};
    corner_sign[ref_axis] = ref_sign;
    const int plane_axis[4] = {ru, ru, rv, rv};
    const int plane_sign[4] = {1, -1, 1, -1};
    clip_vertex *src = poly_a, *dst = poly_b;
    int n = 4;
    for (int k = 0; k < 4 && n > 0; k++) {
        int ax = plane_axis[k];
        vx_vec3 pn = vx_vec3_scale(ref->axis[ax], (float)plane_sign[k]);
        int tag = TAG_PLANE + (int)face_id(ax, plane_sign[k]);
        n = clip_polygon(src, n, ref->center, pn, ref->half[ax], tag, corner_sign, ax, plane_sign[k], dst);
        clip_vertex *tmp = src;
        src = dst;
        dst = tmp;
    }

    /* Keep what lies below the reference face (or within margin above it). */
    candidate cand[VX_CLIP_MAX];
    int count = 0;
    uint32_t base = (VX_FEATURE_KIND_BOX_FACE << VX_FEATURE_KIND_SHIFT) | (ref_is_b ? (1u << 16) : 0u) |
                    (face_id(ref_axis, ref_sign) << 12);
    for (int k = 0; k < n; k++) {
        float depth = ref->half[ref_axis] - vx_vec3_dot(vx_vec3_sub(src[k].p, ref->center), ref_normal);
        if (!(depth > -margin)) continue;
        cand[count].on_inc = src[k].p;
        cand[count].on_ref = vx_vec3_add(src[k].p, vx_vec3_scale(ref_normal, depth));
        cand[count].depth = depth;
        cand[count].id = base | src[k].id;
        count++;
    }
    if (count > VX_MANIFOLD_MAX_POINTS) count = reduce_candidates(cand, count, ref_normal);

    for (int k = 0; k < count; k++) {
        if (ref_is_b)
            vx_manifold_push(out, cand[k].on_inc, cand[k].on_ref, cand[k].depth, cand[k].id);
        else
            vx_manifold_push(out, cand[k].on_ref, cand[k].on_inc, cand[k].depth, cand[k].id);
    }
    return count;
}

/* ---------------- edge-edge contact ---------------- */

/* The edge of box parallel to axis that lies farthest along dir: its centre
 * (returned) and its id. */
static vx_vec3 support_edge(const vx_obb *box, int axis, vx_vec3 dir, int *id)
{
    int sign[3] = {0, 0, 0};
    vx_vec3 c = box->center;
    for (int k = 0; k < 3; k++) {
        if (k == axis) continue;
        sign[k] = vx_vec3_dot(box->axis[k], dir) < 0.0f ? -1 : 1;
        c = vx_vec3_add(c, vx_vec3_scale(box->axis[k], (float)sign[k] * box->half[k]));
    }
    *id = edge_id(axis, sign);
    return c;
}

/* One point between A's edge along axis i and B's edge along axis j. */
static bool edge_contact(const vx_obb *a, const vx_obb *b, int i, int j, float margin, vx_manifold *out)
{
    vx_vec3 n = vx_vec3_normalize(vx_vec3_cross(a->axis[i], b->axis[j]));
    if (vx_vec3_dot(n, vx_vec3_sub(b->center, a->center)) < 0.0f) n = vx_vec3_neg(n);

    int id_a, id_b;
    vx_vec3 ca = support_edge(a, i, n, &id_a);
    vx_vec3 cb = support_edge(b, j, vx_vec3_neg(n), &id_b);
    float s, t;
    vx_closest_segment_params(ca, a->axis[i], a->half[i], cb, b->axis[j], b->half[j], &s, &t);
    vx_vec3 pa = vx_vec3_add(ca, vx_vec3_scale(a->axis[i], s));
    vx_vec3 pb = vx_vec3_add(cb, vx_vec3_scale(b->axis[j], t));
    float depth = vx_vec3_dot(vx_vec3_sub(pa, pb), n);
    if (!(depth > -margin)) return false;

    /* Put the pair exactly along n around its midpoint, so that
     * point_a - point_b = n * depth even where an edge end was clamped. */
    vx_vec3 mid = vx_vec3_scale(vx_vec3_add(pa, pb), 0.5f);
    vx_vec3 half_gap = vx_vec3_scale(n, 0.5f * depth);
    out->normal = n;
    uint32_t feature = (VX_FEATURE_KIND_BOX_EDGE << VX_FEATURE_KIND_SHIFT) | ((uint32_t)id_a << 4) | (uint32_t)id_b;
    vx_manifold_push(out, vx_vec3_add(mid, half_gap), vx_vec3_sub(mid, half_gap), depth, feature);
    return true;
}

/* ---------------- the pair ---------------- */

bool vx_collide_box_box(const vx_transform *a, vx_vec3 half_a, const vx_transform *b, vx_vec3 half_b,
                        float margin, vx_manifold *out)
{
    vx_manifold_reset(out);
    margin = vx_collide_sanitize_margin(margin);
    vx_obb box_a = vx_obb_make(a, half_a);
    vx_obb box_b = vx_obb_make(b, half_b);

    sat_result sr;
    if (!sat(&box_a, &box_b, margin, &sr)) return false;

    float smallest = box_a.half[0];
    for (int k = 0; k < 3; k++) smallest = fminf(smallest, fminf(box_a.half[k], box_b.half[k]));
    float lin_tol = fminf(VX_SAT_LINEAR_TOL, VX_SAT_LINEAR_TOL_SIZE_FRACTION * smallest);

    float max_face = fmaxf(sr.face_a.sep, sr.face_b.sep);
    bool use_edge = sr.edge.valid && sr.edge.sep > max_face + VX_SAT_EDGE_REL_TOL * fabsf(max_face) + lin_tol;
    if (use_edge) {
        if (edge_contact(&box_a, &box_b, sr.edge.i, sr.edge.j, margin, out)) return true;
        /* The closest points of the two edges were clamped so far that they
         * are not within margin: let the best face try instead. */
        vx_manifold_reset(out);
    }

    bool ref_is_b = sr.face_b.sep > sr.face_a.sep + VX_SAT_FACE_REL_TOL * fabsf(sr.face_a.sep) + lin_tol;
    int count;
    if (!ref_is_b) {
        int axis = sr.face_a.axis;
        int sign = sr.ta[axis] < 0.0f ? -1 : 1; /* coincident centres: + */
        out->normal = vx_vec3_scale(box_a.axis[axis], (float)sign);
        count = face_contact(&box_a, axis, sign, &box_b, false, margin, out);
    } else {
        int axis = sr.face_b.axis;
        int sign = sr.tb[axis] < 0.0f ? -1 : 1; /* A->B along B's axis */
        out->normal = vx_vec3_scale(box_b.axis[axis], (float)sign);
        count = face_contact(&box_b, axis, -sign, &box_a, true, margin, out);
    }

    /* A face chosen by preference can clip away every point of a contact
     * that is really edge against edge: fall back to the best edge pair. */
    if (count == 0 && sr.edge.valid && !use_edge) {
        vx_manifold_reset(out);
        edge_contact(&box_a, &box_b, sr.edge.i, sr.edge.j, margin, out);
    }
    if (out->count == 0) {
        vx_manifold_reset(out);
        return false;
    }
    vx_manifold_sort_by_feature(out);
    return true;
}
