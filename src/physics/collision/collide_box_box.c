/* Oriented box against oriented box: the separating-axis test over 15 axes,
 * then a face contact (the incident face clipped against the reference
 * face's side planes, up to 4 points) or an edge-edge contact (1 point).
 * Feature ids are nonzero, differ from the sphere ids (< 27) and stay the
 * same while the same features touch. Results must stay bit for bit those
 * recorded in tests/physics/collision/fixtures/box_box_manifolds.txt
 * (test_collide_box_box.c). See docs/simulation.md, "Box-box contacts"
 * (feature id bits, points, cost). */
#include "physics/collision/collide_internal.h"

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

/* (k + 1) % 3 and (k + 2) % 3 for an axis k, without the divisions. */
static const int axis_after[3] = {1, 2, 0};
static const int axis_after2[3] = {2, 0, 1};

typedef struct {
    float sep;
    int axis;
} face_query;

typedef struct {
    float sep;
    int i, j; /* the axis is A.axis[i] x B.axis[j] */
    bool valid;
} edge_query;

/* The vertices of the polygon being clipped, in one pool for the whole face
 * contact (structure of arrays); the polygons are lists of pool indices, so
 * a pass copies a byte per vertex, not the vertex. */
#define VX_CLIP_POOL (4 + 4 * VX_CLIP_MAX) /* 4 incident vertices, <= 8 new per pass */

typedef struct {
    float x[VX_CLIP_POOL], y[VX_CLIP_POOL], z[VX_CLIP_POOL];
    /* The coordinate along the reference axis being clipped against,
     * dot(p - reference centre, axis): both side planes of that axis test
     * it, so it is computed once per vertex, not once per plane and edge. */
    float d[VX_CLIP_POOL];
    uint32_t id[VX_CLIP_POOL];
    int tag[VX_CLIP_POOL]; /* what the edge from this vertex to the next lies on */
    int count;
} clip_pool;

static vx_vec3 pool_point(const clip_pool *pool, int i) { return vx_vec3_make(pool->x[i], pool->y[i], pool->z[i]); }

/* dot(p_i - c, axis), as vx_vec3_dot(vx_vec3_sub(p, c), axis) computes it. */
static float pool_coordinate(const clip_pool *pool, int i, vx_vec3 c, vx_vec3 axis)
{
    return (pool->x[i] - c.x) * axis.x + (pool->y[i] - c.y) * axis.y + (pool->z[i] - c.z) * axis.z;
}

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
    return axis * 4 + (sign[axis_after[axis]] > 0 ? 1 : 0) + (sign[axis_after2[axis]] > 0 ? 2 : 0);
}

static uint32_t face_id(int axis, int sign) { return (uint32_t)(axis * 2 + (sign < 0 ? 1 : 0)); }

/* ---------------- separating axes ---------------- */

/* Everything is measured in A's frame (Gottschalk's formulation): B's axes
 * as the rotation c, the centre offset as ta. */
typedef struct {
    face_query face_a, face_b;
    edge_query edge;
    float ta[3];   /* B's centre minus A's along A's axes */
    float tb[3];   /* the same along B's axes */
    float c[3][3]; /* c[i][j] = A.axis[i] . B.axis[j] */
} sat_result;

/* The rotation and offsets of the pair (res->c, ta, tb) and |c|. */
static void sat_setup(const vx_obb *a, const vx_obb *b, sat_result *res, float abs_c[3][3])
{
    vx_vec3 d = vx_vec3_sub(b->center, a->center);
    float(*c)[3] = res->c;
    for (int i = 0; i < 3; i++) {
        res->ta[i] = vx_vec3_dot(d, a->axis[i]);
        res->tb[i] = vx_vec3_dot(d, b->axis[i]);
        for (int j = 0; j < 3; j++) {
            c[i][j] = vx_vec3_dot(a->axis[i], b->axis[j]);
            abs_c[i][j] = fabsf(c[i][j]);
        }
    }
}

static inline float face_a_sep(const vx_obb *a, const vx_obb *b, const sat_result *res, float abs_c[3][3], int i)
{
    float rb = b->half[0] * abs_c[i][0] + b->half[1] * abs_c[i][1] + b->half[2] * abs_c[i][2];
    return fabsf(res->ta[i]) - (a->half[i] + rb);
}

static inline float face_b_sep(const vx_obb *a, const vx_obb *b, const sat_result *res, float abs_c[3][3], int j)
{
    float ra = a->half[0] * abs_c[0][j] + a->half[1] * abs_c[1][j] + a->half[2] * abs_c[2][j];
    return fabsf(res->tb[j]) - (ra + b->half[j]);
}

/* Edge axes, in A's frame: L = e_i x C_j, where column j of C is B's axis j
 * seen from A. false when the edges are too near parallel to give one. */
static inline bool edge_sep(const vx_obb *a, const vx_obb *b, const sat_result *res, float abs_c[3][3], int i,
                            int j, float *sep)
{
    const float(*c)[3] = res->c;
    int i1 = axis_after[i], i2 = axis_after2[i];
    int j1 = axis_after[j], j2 = axis_after2[j];
    float len = sqrtf(c[i1][j] * c[i1][j] + c[i2][j] * c[i2][j]);
    if (!(len >= VX_SAT_EDGE_MIN_LENGTH)) return false;
    float proj = res->ta[i2] * c[i1][j] - res->ta[i1] * c[i2][j];
    float ra = a->half[i1] * (abs_c[i2][j] + VX_SAT_EDGE_EPSILON) + a->half[i2] * (abs_c[i1][j] + VX_SAT_EDGE_EPSILON);
    float rb = b->half[j1] * (abs_c[i][j2] + VX_SAT_EDGE_EPSILON) + b->half[j2] * (abs_c[i][j1] + VX_SAT_EDGE_EPSILON);
    *sep = (fabsf(proj) - (ra + rb)) / len;
    return true;
}

/* Whether the kept axis separates the boxes by margin or more, measured as
 * the loops of sat measure it (so they would find it too). */
static bool hint_separates(const vx_obb *a, const vx_obb *b, const sat_result *res, float abs_c[3][3],
                           vx_sat_axis hint, float margin)
{
    float sep;
    switch (hint.kind) {
    case VX_SAT_AXIS_FACE_A:
        return hint.a < 3 && !(face_a_sep(a, b, res, abs_c, hint.a) < margin);
    case VX_SAT_AXIS_FACE_B:
        return hint.a < 3 && !(face_b_sep(a, b, res, abs_c, hint.a) < margin);
    case VX_SAT_AXIS_EDGES:
        return hint.a < 3 && hint.b < 3 && edge_sep(a, b, res, abs_c, hint.a, hint.b, &sep) && !(sep < margin);
    default:
        return false;
    }
}

static vx_sat_axis make_axis(uint8_t kind, int a, int b)
{
    vx_sat_axis axis = {kind, (uint16_t)a, (uint16_t)b};
    return axis;
}

/* false when some axis separates the boxes by margin or more: the kept axis
 * (*axis, when not NULL) first, then the faces of A, of B, the edge pairs;
 * *axis becomes the one that did. */
static bool sat(const vx_obb *a, const vx_obb *b, float margin, vx_sat_axis *axis, sat_result *res)
{
    float abs_c[3][3];
    sat_setup(a, b, res, abs_c);
    res->edge.valid = false;
    res->edge.sep = 0.0f;
    res->edge.i = 0;
    res->edge.j = 0;
    if (axis && hint_separates(a, b, res, abs_c, *axis, margin)) return false;

    vx_sat_axis found;
    if (!axis) axis = &found;
    for (int i = 0; i < 3; i++) {
        float sep = face_a_sep(a, b, res, abs_c, i);
        if (!(sep < margin)) {
            *axis = make_axis(VX_SAT_AXIS_FACE_A, i, 0);
            return false;
        }
        if (i == 0 || sep > res->face_a.sep) {
            res->face_a.sep = sep;
            res->face_a.axis = i;
        }
    }
    for (int j = 0; j < 3; j++) {
        float sep = face_b_sep(a, b, res, abs_c, j);
        if (!(sep < margin)) {
            *axis = make_axis(VX_SAT_AXIS_FACE_B, j, 0);
            return false;
        }
        if (j == 0 || sep > res->face_b.sep) {
            res->face_b.sep = sep;
            res->face_b.axis = j;
        }
    }
    for (int i = 0; i < 3; i++) {
        for (int j = 0; j < 3; j++) {
            float sep;
            if (!edge_sep(a, b, res, abs_c, i, j, &sep)) continue;
            if (!(sep < margin)) {
                *axis = make_axis(VX_SAT_AXIS_EDGES, i, j);
                return false;
            }
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

/* Distance of a vertex outside the side plane (negative: inside):
 * dot(p - c, plane_sign * axis) - half is exactly plane_sign * d - half, as
 * negation is exact. dist <= 0 exactly when plane_sign * d <= half. */
static float plane_dist(float d, int plane_sign, float half) { return (plane_sign > 0 ? d : -d) - half; }

/* One Sutherland-Hodgman pass: keeps the part of the polygon in (n pool
 * indices) on the inner side of the side plane (plane_axis, plane_sign) of
 * the reference box, plane_dist <= 0, with d each vertex's coordinate along
 * that axis. A crossing vertex is named by the polygon edge it lies on and
 * the plane, so its id does not depend on the order of the passes. A pass
 * over a polygon all inside leaves it as it is (no edge crosses, no tag
 * changes): the caller skips those. need_d: the next pass tests the
 * opposite plane of the same axis, so new vertices get their d, and
 * *opposite_out is set when one lies outside that plane. */
static int clip_polygon(clip_pool *pool, const uint8_t *in, int n, const vx_obb *ref, int plane_axis, int plane_sign,
                        bool need_d, bool *opposite_out, const int ref_corner_sign[3], uint8_t *out)
{
    float half = ref->half[plane_axis];
    int plane_tag = TAG_PLANE + (int)face_id(plane_axis, plane_sign);
    int m = 0;
    float dq = plane_dist(pool->d[in[0]], plane_sign, half);
    for (int k = 0; k < n; k++) {
        int next = k + 1 < n ? k + 1 : 0;
        int p = in[k], q = in[next];
        float dp = dq;
        dq = plane_dist(pool->d[q], plane_sign, half);
        if (dp <= 0.0f && m < VX_CLIP_MAX) out[m++] = (uint8_t)p;
        bool crosses = (dp < 0.0f && dq > 0.0f) || (dp > 0.0f && dq < 0.0f);
        if (crosses) {
            if (m >= VX_CLIP_MAX || pool->count >= VX_CLIP_POOL) continue; /* not for a convex polygon */
            int x = pool->count++;
            /* p + (q - p) t, per coordinate */
            float t = dp / (dp - dq);
            pool->x[x] = pool->x[p] + (pool->x[q] - pool->x[p]) * t;
            pool->y[x] = pool->y[p] + (pool->y[q] - pool->y[p]) * t;
            pool->z[x] = pool->z[p] + (pool->z[q] - pool->z[p]) * t;
            pool->d[x] = 0.0f;
            if (need_d) {
                pool->d[x] = pool_coordinate(pool, x, ref->center, ref->axis[plane_axis]);
                if (!(plane_dist(pool->d[x], -plane_sign, half) <= 0.0f)) *opposite_out = true;
            }
            int p_tag = pool->tag[p];
            if (p_tag < TAG_PLANE) {
                pool->id[x] = (FEATURE_POINT_INCIDENT_EDGE << 8) | ((uint32_t)(plane_tag - TAG_PLANE) << 4) |
                              (uint32_t)p_tag;
            } else {
                /* The edge runs along an earlier side plane: a corner of the
                 * reference face. */
                int sign[3] = {ref_corner_sign[0], ref_corner_sign[1], ref_corner_sign[2]};
                int other = p_tag - TAG_PLANE;
                sign[other / 2] = (other % 2) ? -1 : 1;
                sign[plane_axis] = plane_sign;
                pool->id[x] = (FEATURE_POINT_REFERENCE_CORNER << 8) | vertex_id(sign);
            }
            /* Leaving the half space, the polygon continues along the plane;
             * entering it, along the edge it came in on. */
            pool->tag[x] = dp < 0.0f ? plane_tag : p_tag;
            out[m++] = (uint8_t)x;
        } else if (dp == 0.0f && dq > 0.0f && m > 0) {
            /* p sits on the plane: its edge now runs along it. p is the last
             * vertex out (dp <= 0), and the input polygon never reads its
             * tag again, so the pool entry changes in place. */
            pool->tag[out[m - 1]] = plane_tag;
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
    vx_vec3 tri_edge[3];
    for (int e = 0; e < 3; e++) tri_edge[e] = vx_vec3_sub(tri[e < 2 ? e + 1 : 0], tri[e]);
    best = -1;
    for (int k = 0; k < n; k++) {
        if (k == keep[0] || k == keep[1] || k == keep[2]) continue;
        float min_area = 0.0f;
        for (int e = 0; e < 3; e++) {
            float s = winding * vx_vec3_dot(vx_vec3_cross(tri_edge[e], vx_vec3_sub(cand[k].on_ref, tri[e])), normal);
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

/* ref's face (ref_axis, ref_sign) against the other box inc. inc_dot[k] is
 * inc's axis k dotted with ref's axis ref_axis (from the SAT's rotation).
 * Writes the points, in feature order, into out (empty, its normal already
 * set) and returns how many. */
static int face_contact(const vx_obb *ref, int ref_axis, int ref_sign, const vx_obb *inc, const float inc_dot[3],
                        bool ref_is_b, float margin, vx_manifold *out)
{
    vx_vec3 ref_normal = vx_vec3_scale(ref->axis[ref_axis], (float)ref_sign);

    /* Incident face: the face of inc most anti-parallel to ref_normal.
     * inc.axis[k] . ref_normal is ref_sign * inc_dot[k] exactly. */
    float sign_f = (float)ref_sign;
    int inc_axis = 0;
    float best_dot = sign_f * inc_dot[0];
    for (int k = 1; k < 3; k++) {
        float dk = sign_f * inc_dot[k];
        if (fabsf(dk) > fabsf(best_dot) + VX_INCIDENT_FACE_TOL) {
            inc_axis = k;
            best_dot = dk;
        }
    }
    int inc_sign = best_dot > 0.0f ? -1 : 1;

    /* Its 4 vertices, in order around the face ((u, v) signs (+,+), (-,+),
     * (-,-), (+,-)), tagged with box-wide ids. axis * (+-half) is
     * +-(axis * half) exactly, so each vertex is the centre plus or minus
     * the three scaled axes, in axis order, as vx_obb_to_world computes it. */
    int iu = axis_after[inc_axis], iv = axis_after2[inc_axis];
    vx_vec3 ext[3];
    for (int k = 0; k < 3; k++) ext[k] = vx_vec3_scale(inc->axis[k], inc->half[k]);
    static const int quad[4][2] = {{1, 1}, {-1, 1}, {-1, -1}, {1, -1}};
    clip_pool pool;
    pool.count = 4;
    uint32_t face_bit = inc_sign > 0 ? 1u << inc_axis : 0u;
    for (int k = 0; k < 4; k++) {
        int signs[3];
        signs[inc_axis] = inc_sign;
        signs[iu] = quad[k][0];
        signs[iv] = quad[k][1];
        vx_vec3 w = inc->center;
        for (int i = 0; i < 3; i++) w = signs[i] > 0 ? vx_vec3_add(w, ext[i]) : vx_vec3_sub(w, ext[i]);
        pool.x[k] = w.x;
        pool.y[k] = w.y;
        pool.z[k] = w.z;
        pool.id[k] = (FEATURE_POINT_INCIDENT_VERTEX << 8) | face_bit | (quad[k][0] > 0 ? 1u << iu : 0u) |
                     (quad[k][1] > 0 ? 1u << iv : 0u);
    }
    /* The edge from vertex k to the next runs along the axis whose sign
     * changes (u from 0 and 2, v from 1 and 3); edge_id of its start. */
    int face_plus = inc_sign > 0 ? 1 : 0;
    pool.tag[0] = iu * 4 + 1 + 2 * face_plus;
    pool.tag[1] = iv * 4 + face_plus;
    pool.tag[2] = iu * 4 + 2 * face_plus;
    pool.tag[3] = iv * 4 + face_plus + 2;

    /* Clip against the 4 side planes of the reference face: +u, -u, +v, -v.
     * Each vertex's coordinate along u (then v) is computed once, before
     * the two passes of that axis. */
    int corner_sign[3] = {0, 0, 0};
    corner_sign[ref_axis] = ref_sign;
    uint8_t poly_a[VX_CLIP_MAX] = {0, 1, 2, 3}, poly_b[VX_CLIP_MAX];
    uint8_t *src = poly_a, *dst = poly_b;
    int n = 4;
    for (int pass = 0; pass < 2 && n > 0; pass++) {
        int ax = pass == 0 ? axis_after[ref_axis] : axis_after2[ref_axis];
        vx_vec3 axis = ref->axis[ax];
        float half = ref->half[ax];
        bool out_plus = false, out_minus = false; /* some vertex outside the +, - plane */
        for (int k = 0; k < n; k++) {
            float d = pool_coordinate(&pool, src[k], ref->center, axis);
            pool.d[src[k]] = d;
            if (!(plane_dist(d, 1, half) <= 0.0f)) out_plus = true;
            if (!(plane_dist(d, -1, half) <= 0.0f)) out_minus = true;
        }
        for (int side = 0; side < 2 && n > 0; side++) {
            if (!(side == 0 ? out_plus : out_minus)) continue; /* all inside this plane */
            n = clip_polygon(&pool, src, n, ref, ax, side == 0 ? 1 : -1, side == 0, &out_minus, corner_sign, dst);
            uint8_t *tmp = src;
            src = dst;
            dst = tmp;
        }
    }

    /* Keep what lies below the reference face (or within margin above it). */
    uint32_t base = (VX_FEATURE_KIND_BOX_FACE << VX_FEATURE_KIND_SHIFT) | (ref_is_b ? (1u << 16) : 0u) |
                    (face_id(ref_axis, ref_sign) << 12);
    float ref_half = ref->half[ref_axis];
    int count = 0;
    if (n <= VX_MANIFOLD_MAX_POINTS) {
        /* No reduction: every kept vertex is a point. Visiting them in
         * feature order (a stable insertion sort, so the order
         * vx_manifold_sort_by_feature gives) writes them sorted. */
        uint8_t order[VX_MANIFOLD_MAX_POINTS];
        for (int k = 0; k < n; k++) {
            int j = k;
            while (j > 0 && pool.id[order[j - 1]] > pool.id[src[k]]) {
                order[j] = order[j - 1];
                j--;
            }
            order[j] = src[k];
        }
        for (int k = 0; k < n; k++) {
            int v = order[k];
            float depth = ref_half - pool_coordinate(&pool, v, ref->center, ref_normal);
            if (!(depth > -margin)) continue;
            vx_vec3 on_inc = pool_point(&pool, v);
            vx_vec3 on_ref = vx_vec3_add(on_inc, vx_vec3_scale(ref_normal, depth));
            vx_manifold_point *mp = &out->points[count++];
            mp->point_a = ref_is_b ? on_inc : on_ref;
            mp->point_b = ref_is_b ? on_ref : on_inc;
            mp->depth = depth;
            mp->feature = base | pool.id[v];
        }
        out->count = count;
        return count;
    }

    candidate cand[VX_CLIP_MAX];
    for (int k = 0; k < n; k++) {
        int v = src[k];
        float depth = ref_half - pool_coordinate(&pool, v, ref->center, ref_normal);
        if (!(depth > -margin)) continue;
        vx_vec3 p = pool_point(&pool, v);
        cand[count].on_inc = p;
        cand[count].on_ref = vx_vec3_add(p, vx_vec3_scale(ref_normal, depth));
        cand[count].depth = depth;
        cand[count].id = base | pool.id[v];
        count++;
    }
    if (count > VX_MANIFOLD_MAX_POINTS) count = reduce_candidates(cand, count, ref_normal);

    /* Out in feature order (a stable insertion sort of the indices, the
     * order vx_manifold_sort_by_feature would give the pushed points). */
    int order[VX_MANIFOLD_MAX_POINTS];
    for (int k = 0; k < count; k++) {
        int j = k;
        while (j > 0 && cand[order[j - 1]].id > cand[k].id) {
            order[j] = order[j - 1];
            j--;
        }
        order[j] = k;
    }
    for (int k = 0; k < count; k++) {
        const candidate *c = &cand[order[k]];
        vx_manifold_point *mp = &out->points[k];
        mp->point_a = ref_is_b ? c->on_inc : c->on_ref;
        mp->point_b = ref_is_b ? c->on_ref : c->on_inc;
        mp->depth = c->depth;
        mp->feature = c->id;
    }
    out->count = count;
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

/* kept: NULL, or the pair's kept axis (vx_collide_box_box_obb_cached). */
static bool collide_box_box(const vx_obb *box_a, const vx_obb *box_b, float margin, vx_sat_axis *kept,
                            vx_manifold *out)
{
    vx_manifold_reset(out);
    margin = vx_collide_sanitize_margin(margin);

    sat_result sr;
    if (!sat(box_a, box_b, margin, kept, &sr)) return false;

    float smallest = box_a->half[0];
    for (int k = 0; k < 3; k++)
        smallest = vx_collide_minf(smallest, vx_collide_minf(box_a->half[k], box_b->half[k]));
    float lin_tol = vx_collide_minf(VX_SAT_LINEAR_TOL, VX_SAT_LINEAR_TOL_SIZE_FRACTION * smallest);

    float max_face = vx_collide_maxf(sr.face_a.sep, sr.face_b.sep);
    bool use_edge = sr.edge.valid && sr.edge.sep > max_face + VX_SAT_EDGE_REL_TOL * fabsf(max_face) + lin_tol;
    bool ref_is_b = sr.face_b.sep > sr.face_a.sep + VX_SAT_FACE_REL_TOL * fabsf(sr.face_a.sep) + lin_tol;
    /* Touching, the pair keeps no axis: the full test measures every axis
     * anyway, and most touching pairs (a pile at rest) stay touching. */
    if (kept) kept->kind = VX_SAT_AXIS_NONE;
    if (use_edge) {
        if (edge_contact(box_a, box_b, sr.edge.i, sr.edge.j, margin, out)) return true;
        /* The closest points of the two edges were clamped so far that they
         * are not within margin: let the best face try instead. */
        vx_manifold_reset(out);
    }

    int count;
    float inc_dot[3];
    if (!ref_is_b) {
        int axis = sr.face_a.axis;
        int sign = sr.ta[axis] < 0.0f ? -1 : 1; /* coincident centres: + */
        out->normal = vx_vec3_scale(box_a->axis[axis], (float)sign);
        for (int k = 0; k < 3; k++) inc_dot[k] = sr.c[axis][k];
        count = face_contact(box_a, axis, sign, box_b, inc_dot, false, margin, out);
    } else {
        int axis = sr.face_b.axis;
        int sign = sr.tb[axis] < 0.0f ? -1 : 1; /* A->B along B's axis */
        out->normal = vx_vec3_scale(box_b->axis[axis], (float)sign);
        for (int k = 0; k < 3; k++) inc_dot[k] = sr.c[k][axis];
        count = face_contact(box_b, axis, -sign, box_a, inc_dot, true, margin, out);
    }

    /* A face chosen by preference can clip away every point of a contact
     * that is really edge against edge: fall back to the best edge pair. */
    if (count == 0 && sr.edge.valid && !use_edge) {
        vx_manifold_reset(out);
        edge_contact(box_a, box_b, sr.edge.i, sr.edge.j, margin, out);
    }
    if (out->count == 0) {
        vx_manifold_reset(out);
        return false;
    }
    return true; /* face contacts come sorted by feature, edge contacts have 1 point */
}

bool vx_collide_box_box_obb(const vx_obb *box_a, const vx_obb *box_b, float margin, vx_manifold *out)
{
    return collide_box_box(box_a, box_b, margin, NULL, out);
}

bool vx_collide_box_box_obb_cached(const vx_obb *a, const vx_obb *b, float margin, vx_sat_axis *axis,
                                   vx_manifold *out)
{
    return collide_box_box(a, b, margin, axis, out);
}

bool vx_collide_box_box(const vx_transform *a, vx_vec3 half_a, const vx_transform *b, vx_vec3 half_b,
                        float margin, vx_manifold *out)
{
    vx_obb box_a, box_b;
    vx_obb_init(&box_a, a, half_a);
    vx_obb_init(&box_b, b, half_b);
    return vx_collide_box_box_obb(&box_a, &box_b, margin, out);
}
