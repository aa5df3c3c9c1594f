/* Convex hulls (body/hull.h) against every convex shape: hull-hull by the
 * separating-axis test over both hulls' face normals and the edge pairs that
 * make a face of the Minkowski difference (Gregorius, GDC 2013), measuring
 * only the axes that bounds from the other hull's inner ball cannot rule out
 * (the same values and winners as measuring them all), then a face contact
 * (the incident face clipped against the reference face's side planes, up
 * to 4 points) or an edge-edge contact (1 point); a box is a hull of 8
 * vertices; a sphere against the closest feature of the hull, or the face of
 * least penetration when its centre is inside. The choices (face
 * preferences, incident face, reduction to 4 points) are box-box's, so a hull
 * of a box's corners gives box-box's contact. Everything is worked in the
 * hull's (A's) frame and turned into the world at the end. See
 * docs/simulation.md, "Hull contacts" (method, feature id bits). */
#include <float.h>

#include "physics/collision/collide_internal.h"

/* Faces and undirected edges of a hull at most (Euler, hull.h). */
#define HULL_MAX_FACES (2 * VX_HULL_MAX_POINTS - 4)
#define HULL_MAX_EDGES (3 * VX_HULL_MAX_POINTS - 6)

/* The preferences of collide_box_box.c, for the same reasons: B's face wins
 * over A's by 2 % plus the linear tolerance, an edge over both faces by 5 %
 * plus it; the linear tolerance is 1 mm, at most a twentieth of the smaller
 * inner radius. Edge pairs within about 0.06 degrees of parallel are no axis. */
#define HULL_FACE_REL_TOL 0.02f
#define HULL_EDGE_REL_TOL 0.05f
#define HULL_LINEAR_TOL 0.001f
#define HULL_LINEAR_TOL_SIZE_FRACTION 0.05f
#define HULL_EDGE_MIN_SIN 1e-3f
/* Per m of the hulls' reach and over the sine of the edges' angle: taken
 * off an edge pair's separation, as collide_box_box.c adds its epsilon to
 * every |R_ij| (Gottschalk), so a noisy axis of nearly parallel edges
 * cannot separate touching hulls. */
#define HULL_EDGE_EPSILON 1e-6f
/* Incident face: a later face replaces the best so far only when it is more
 * anti-parallel by this much (cosine), so near ties keep the lower index. */
#define HULL_INCIDENT_FACE_TOL 1e-3f

/* Points of a face contact closer than this per m of hull size (at least
 * 1 m) are one point. */
#define HULL_MERGE_TOL 1e-5f

/* Feature ids (docs/simulation.md, "Hull contacts"). Face contact: */
#define FACE_REF_IS_B_SHIFT 23u
#define FACE_REF_SHIFT 14u
#define FACE_TYPE_SHIFT 12u
#define POINT_INCIDENT_VERTEX 1u
#define POINT_INCIDENT_EDGE 2u
#define POINT_REFERENCE_CORNER 3u
/* Edge-edge contact: A's edge in bits 10..19, B's in 0..9. Sphere: the hull
 * feature as a type (bits 10..11) and an index (bits 0..9). */
#define EDGE_A_SHIFT 10u
#define HULL_FEATURE_FACE 1u
#define HULL_FEATURE_EDGE 2u
#define HULL_FEATURE_VERTEX 3u
#define HULL_FEATURE_TYPE_SHIFT 10u
#define HULL_FEATURE_INDEX_MASK 0x3ffu

/* Polygon edge tags while clipping: below it an incident half-edge, from it
 * on (plus the local index) a side plane of the reference face. */
#define TAG_PLANE 0x4000
/* A convex polygon clipped by n planes gains at most 2 vertices per plane;
 * the pool holds the incident face's vertices and everything made. */
#define CLIP_POLY_MAX (2 * VX_HULL_MAX_POINTS)
#define CLIP_POOL_MAX (3 * VX_HULL_MAX_POINTS)

/* A hull in the frame the pair is worked in: its vertices, faces (planes)
 * and centroid there; the edges are the hull's. */
typedef struct {
    const vx_hull *h;
    const vx_vec3 *v;
    const vx_hull_face *f;
    vx_vec3 centroid;
} placed_hull;

/* The pair's points in the working frame, before they are turned. */
typedef struct {
    vx_vec3 normal;
    int count;
    vx_vec3 pa[VX_MANIFOLD_MAX_POINTS], pb[VX_MANIFOLD_MAX_POINTS];
    float depth[VX_MANIFOLD_MAX_POINTS];
    uint32_t id[VX_MANIFOLD_MAX_POINTS];
} local_manifold;

static int edge_origin(const vx_hull *h, int half) { return h->edges[half].origin; }
static int edge_dest(const vx_hull *h, int half) { return h->edges[half ^ 1].origin; }

/* The largest half extent of the hull's bounds. */
static float hull_size(const vx_hull *h)
{
    vx_vec3 e = vx_vec3_sub(h->bounds.max, h->bounds.min);
    return 0.5f * vx_collide_maxf(e.x, vx_collide_maxf(e.y, e.z));
}

/* The sum of the half extents of the hull's bounds. */
static float hull_reach(const vx_hull *h)
{
    vx_vec3 e = vx_vec3_sub(h->bounds.max, h->bounds.min);
    return 0.5f * (e.x + e.y + e.z);
}

/* ---------------- frames ---------------- */

typedef struct {
    vx_mat3 r; /* local -> world rotation */
    vx_vec3 p;
} frame;

static frame frame_of(const vx_transform *t)
{
    frame f;
    f.r = vx_collide_rotation_matrix(t);
    f.p = t->position;
    return f;
}

/* frame_of, with the rotation matrix given when r is not NULL. */
static frame frame_with(const vx_transform *t, const vx_mat3 *r)
{
    if (!r) return frame_of(t);
    frame f;
    f.r = *r;
    f.p = t->position;
    return f;
}

static vx_vec3 frame_to_world(const frame *f, vx_vec3 local)
{
    return vx_vec3_add(vx_mat3_mul_vec3(&f->r, local), f->p);
}

static vx_vec3 frame_dir_to_world(const frame *f, vx_vec3 local) { return vx_mat3_mul_vec3(&f->r, local); }

/* R^T v: world direction -> local. */
static vx_vec3 frame_dir_to_local(const frame *f, vx_vec3 v)
{
    const float(*m)[3] = f->r.m;
    return vx_vec3_make(m[0][0] * v.x + m[1][0] * v.y + m[2][0] * v.z, m[0][1] * v.x + m[1][1] * v.y + m[2][1] * v.z,
                        m[0][2] * v.x + m[1][2] * v.y + m[2][2] * v.z);
}

static vx_vec3 frame_to_local(const frame *f, vx_vec3 world) { return frame_dir_to_local(f, vx_vec3_sub(world, f->p)); }

/* The local manifold turned into the world, sorted by feature. */
static bool emit(const frame *f, const local_manifold *lm, vx_manifold *out)
{
    vx_manifold_reset(out);
    if (lm->count == 0) return false;
    out->normal = frame_dir_to_world(f, lm->normal);
    for (int k = 0; k < lm->count; k++)
        vx_manifold_push(out, frame_to_world(f, lm->pa[k]), frame_to_world(f, lm->pb[k]), lm->depth[k], lm->id[k]);
    vx_manifold_sort_by_feature(out);
    return true;
}

static void local_push(local_manifold *lm, vx_vec3 pa, vx_vec3 pb, float depth, uint32_t id)
{
    if (lm->count >= VX_MANIFOLD_MAX_POINTS) return;
    lm->pa[lm->count] = pa;
    lm->pb[lm->count] = pb;
    lm->depth[lm->count] = depth;
    lm->id[lm->count] = id;
    lm->count++;
}

/* ---------------- separating axes ----------------
 *
 * The queries find what testing every face against every vertex and every
 * edge pair would (the same values, the same winners), but skip the axes
 * that an upper bound of their separation shows cannot matter. The bounds
 * come from the other hull's inner ball (its centroid and inner radius):
 * every point of that ball is in the hull, so along a direction u the hull
 * reaches at least inner_radius below u . centroid. An axis is skipped only
 * when its bound is below what it would have to beat by prune_guard, which
 * covers the rounding of the bounds and vertices off their faces' planes by
 * up to the hulls' tolerances. */

typedef struct {
    float sep;
    int face;
} face_query;

typedef struct {
    float sep;
    int ea, eb; /* undirected edges of A and B */
    bool valid;
} edge_query;

/* The slack of the bounds: 1e-4 of the pair's size and distance from the
 * working frame's origin, plus 64 hull tolerances. */
static float prune_guard(const placed_hull *a, const placed_hull *b)
{
    float size = vx_vec3_length(a->centroid) + vx_vec3_length(b->centroid) + hull_reach(a->h) + hull_reach(b->h);
    return 1e-4f * size + 64.0f * (a->h->tolerance + b->h->tolerance);
}

/* The separation of other from ref's face f: other's lowest vertex along
 * the face normal, over the face's plane. The minimum as vx_collide_minf
 * takes it (which passes over NaN), in a plain loop unless a NaN is met. */
static float face_separation(const placed_hull *ref, int f, const placed_hull *other)
{
    vx_vec3 n = ref->f[f].normal;
    const vx_vec3 *v = other->v;
    int count = other->h->vertex_count;
    float lo = vx_vec3_dot(n, v[0]);
    bool nan = isnan(lo);
    for (int k = 1; k < count; k++) {
        float s = vx_vec3_dot(n, v[k]);
        nan = nan || isnan(s);
        lo = lo < s ? lo : s;
    }
    if (nan) {
        lo = vx_vec3_dot(n, v[0]);
        for (int k = 1; k < count; k++) lo = vx_collide_minf(lo, vx_vec3_dot(n, v[k]));
    }
    return lo - ref->f[f].offset;
}

/* The vertex of ph lowest along n (the first of equals; 0 when the values
 * are not numbers). */
static int lowest_vertex(const placed_hull *ph, vx_vec3 n)
{
    int best = 0;
    float lo = vx_vec3_dot(n, ph->v[0]);
    for (int k = 1; k < ph->h->vertex_count; k++) {
        float s = vx_vec3_dot(n, ph->v[k]);
        if (s < lo) {
            lo = s;
            best = k;
        }
    }
    return best;
}

/* The largest separation of other from ref's face planes (the lowest face on
 * ties); false when some face separates them by margin or more. A face's
 * separation is at most its plane's height under other's inner ball,
 * bound[f]: the face with the highest bound is measured first, and then
 * only the faces whose bound comes within guard of the best so far. bound
 * is kept for the edges (edge_candidates). When false, q is the face that
 * separates them. known is a face whose separation was measured already
 * (face -1: none): its value is taken instead of measuring it again. */
static bool query_faces(const placed_hull *ref, const placed_hull *other, float margin, float guard, float *bound,
                        const face_query *known, face_query *q)
{
    const vx_hull *rh = ref->h;
    vx_vec3 c = other->centroid;
    float inner = other->h->inner_radius;
    int first = 0;
    float highest = -INFINITY;
    for (int f = 0; f < rh->face_count; f++) {
        float b = vx_vec3_dot(ref->f[f].normal, c) - ref->f[f].offset - inner;
        bound[f] = b;
        if (b > highest) {
            highest = b;
            first = f;
        }
    }
    q->face = first;
    q->sep = first == known->face ? known->sep : face_separation(ref, first, other);
    if (!(q->sep < margin)) return false;
    float floor = q->sep - guard;
    for (int f = 0; f < rh->face_count; f++) {
        if (f == first || bound[f] < floor) continue;
        float sep = f == known->face ? known->sep : face_separation(ref, f, other);
        if (!(sep < margin)) {
            q->sep = sep;
            q->face = f;
            return false;
        }
        if (sep > q->sep || (sep == q->sep && f < q->face)) {
            q->sep = sep;
            q->face = f;
            floor = sep - guard;
        }
    }
    return true;
}

/* What the Gauss-map test and the separation need of an edge: its faces'
 * normals (negated for B: the arc of B's edge on A - B's map), the cross
 * product of those two normals (face of 2k + 1 x face of 2k, A's before or
 * B's after the negation: the same vector), its direction (from the origin
 * of 2k to that of 2k + 1), the origin of 2k and the direction's squared
 * length. */
typedef struct {
    vx_vec3 n0[HULL_MAX_EDGES], n1[HULL_MAX_EDGES], arc[HULL_MAX_EDGES], dir[HULL_MAX_EDGES], p[HULL_MAX_EDGES];
    float len_sq[HULL_MAX_EDGES];
    int index[HULL_MAX_EDGES]; /* the undirected edge */
    int count;
} edge_set;

/* Undirected edge k of ph as entry n of out. */
static void edge_set_put(const placed_hull *ph, int k, bool negate, edge_set *out, int n)
{
    const vx_hull *h = ph->h;
    int f0 = h->edges[2 * k].face, f1 = h->edges[2 * k + 1].face;
    vx_vec3 n0 = ph->f[f0].normal, n1 = ph->f[f1].normal;
    vx_vec3 p = ph->v[edge_origin(h, 2 * k)];
    vx_vec3 dir = vx_vec3_sub(ph->v[edge_dest(h, 2 * k)], p);
    out->arc[n] = vx_vec3_cross(n1, n0);
    out->n0[n] = negate ? vx_vec3_neg(n0) : n0;
    out->n1[n] = negate ? vx_vec3_neg(n1) : n1;
    out->dir[n] = dir;
    out->p[n] = p;
    out->len_sq[n] = vx_vec3_length_sq(dir);
    out->index[n] = k;
}

/* The undirected edges of ph that can be in a pair separating by floor or
 * more (all of them for floor -infinity), in increasing order. An edge
 * pair's axis u lies on the edge's arc (between its faces' normals n0 and
 * n1) and the edge is its hull's extreme along u, so the pair separates by
 * at most u . w less the other hull's inner radius, w from the edge to the
 * other's centroid; over the arc u . w is at most the larger of n0 . w and
 * n1 . w (the faces' bounds, face_bound, plus that inner radius) plus
 * |w| (1 - n0 . n1) / 2. The same holds with w from the edge to any vertex
 * of the other hull, deep (no inner radius then): an edge is left out when
 * either bound is below floor. */
static void edge_candidates(const placed_hull *ph, const float *face_bound, vx_vec3 other_centroid, vx_vec3 deep,
                            float floor, bool negate, edge_set *out)
{
    const vx_hull *h = ph->h;
    /* deep's height over each face's plane (n . (deep - p) for the face's
     * vertices p, as face_bound takes it), and a length no |deep - p| can
     * exceed: the centroid's distance plus the bounds' diagonal */
    float height[HULL_MAX_FACES];
    for (int f = 0; f < h->face_count; f++) height[f] = vx_vec3_dot(ph->f[f].normal, deep) - ph->f[f].offset;
    float far = vx_vec3_length(vx_vec3_sub(deep, ph->centroid)) + 2.0f * hull_reach(h);
    int n = 0;
    for (int k = 0; k < h->edge_count / 2; k++) {
        int f0 = h->edges[2 * k].face, f1 = h->edges[2 * k + 1].face;
        vx_vec3 n0 = ph->f[f0].normal, n1 = ph->f[f1].normal;
        float arc_gain = 0.5f * (1.0f - vx_vec3_dot(n0, n1));
        /* how much the arc must add to the bound from deep, then to the
         * faces' bound */
        float need_deep = floor - vx_collide_maxf(height[f0], height[f1]);
        if (need_deep > far * arc_gain) continue;
        float need = floor - vx_collide_maxf(face_bound[f0], face_bound[f1]);
        vx_vec3 p = ph->v[edge_origin(h, 2 * k)];
        if (need > 0.0f) {
            vx_vec3 w = vx_vec3_sub(other_centroid, p);
            if (need * need > vx_vec3_length_sq(w) * (arc_gain * arc_gain)) continue;
        }
        if (need_deep > 0.0f) {
            vx_vec3 wd = vx_vec3_sub(deep, p);
            if (need_deep * need_deep > vx_vec3_length_sq(wd) * (arc_gain * arc_gain)) continue;
        }
        edge_set_put(ph, k, negate, out, n);
        n++;
    }
    out->count = n;
}

/* Entry s of sa (A's edges) and entry t of sb (B's): false when they make
 * no axis (their arcs do not cross, or they are nearly parallel), else
 * *sep, the separation along their cross product oriented away from A's
 * centroid ca, less the slack of the rounding. */
static inline bool edge_pair_separation(const edge_set *sa, int s, const edge_set *sb, int t, vx_vec3 ca,
                                        float reach, float *sep)
{
    vx_vec3 bxa = sa->arc[s];
    float cba = vx_vec3_dot(sb->n0[t], bxa), dba = vx_vec3_dot(sb->n1[t], bxa);
    if (!(cba * dba < 0.0f)) return false;
    vx_vec3 dxc = sb->arc[t];
    float adc = vx_vec3_dot(sa->n0[s], dxc), bdc = vx_vec3_dot(sa->n1[s], dxc);
    if (!(adc * bdc < 0.0f && cba * bdc > 0.0f)) return false;

    vx_vec3 axis = vx_vec3_cross(sa->dir[s], sb->dir[t]);
    float len_sq = vx_vec3_length_sq(axis);
    float lens_sq = sa->len_sq[s] * sb->len_sq[t];
    if (!(len_sq >= HULL_EDGE_MIN_SIN * HULL_EDGE_MIN_SIN * lens_sq) || !(len_sq > 0.0f)) return false;
    float len = sqrtf(len_sq);
    axis = vx_vec3_scale(axis, 1.0f / len);
    vx_vec3 pa = sa->p[s];
    if (vx_vec3_dot(axis, vx_vec3_sub(pa, ca)) < 0.0f) axis = vx_vec3_neg(axis);
    /* The axis of nearly parallel edges turns by the rounding over its
     * sine: the separation is taken that much smaller. */
    float slack = HULL_EDGE_EPSILON * reach * (sqrtf(lens_sq) / len);
    *sep = vx_vec3_dot(axis, vx_vec3_sub(sb->p[t], pa)) - slack;
    return true;
}

/* The edge pairs whose Gauss-map arcs cross (A's arc between its faces'
 * normals a, b; B's between the negated normals c, d): only those make a
 * face of the Minkowski difference A - B, so only their cross products can
 * separate. The separation along the cross product oriented away from A's
 * centroid; false when one separates by margin or more. Pairs whose bound
 * (edge_candidates) is below floor are left out: q is then the best of the
 * others, which is the best of all whenever that is floor or more. When
 * false, q is the pair that separates them. */
static bool query_edges(const placed_hull *a, const float *bound_a, vx_vec3 deep_b, const placed_hull *b,
                        const float *bound_b, vx_vec3 deep_a, float margin, float floor, edge_query *q)
{
    edge_set set_a, set_b;
    q->valid = false;
    q->sep = 0.0f;
    q->ea = q->eb = 0;
    edge_candidates(a, bound_a, b->centroid, deep_b, floor, false, &set_a);
    if (set_a.count == 0) return true;
    edge_candidates(b, bound_b, a->centroid, deep_a, floor, true, &set_b);
    float reach = hull_reach(a->h) + hull_reach(b->h);
    const edge_set *sa = &set_a, *sb = &set_b;
    for (int s = 0; s < sa->count; s++) {
        for (int t = 0; t < sb->count; t++) {
            float sep;
            if (!edge_pair_separation(sa, s, sb, t, a->centroid, reach, &sep)) continue;
            if (!(sep < margin)) {
                q->valid = true;
                q->sep = sep;
                q->ea = sa->index[s];
                q->eb = sb->index[t];
                return false;
            }
            if (!q->valid || sep > q->sep) {
                q->valid = true;
                q->sep = sep;
                q->ea = sa->index[s];
                q->eb = sb->index[t];
            }
        }
    }
    return true;
}

/* ---------------- face contact ---------------- */

typedef struct {
    float x[CLIP_POOL_MAX], y[CLIP_POOL_MAX], z[CLIP_POOL_MAX];
    float d[CLIP_POOL_MAX];     /* distance outside the plane being clipped against */
    uint32_t id[CLIP_POOL_MAX]; /* point type and index (bits 0..13 of the feature) */
    int tag[CLIP_POOL_MAX];     /* what the edge from this vertex to the next lies on */
    int count;
} clip_pool;

static vx_vec3 pool_point(const clip_pool *pool, int i) { return vx_vec3_make(pool->x[i], pool->y[i], pool->z[i]); }

typedef vx_contact_candidate candidate;

/* The reference face's side plane j: through its edge j, outward, unit. */
typedef struct {
    vx_vec3 n;
    float d;
    int from, to; /* the edge's vertices (reference hull indices) */
} side_plane;

/* The id of a point where the clipped polygon's edge tagged p_tag crosses
 * side plane j. An incident edge: the edge and which end of its clipped part
 * (entering the plane's inside or leaving it, counted along half-edge 2k, so
 * the id does not depend on which of its faces is incident). An earlier side
 * plane: the corner the two side planes share. */
static uint32_t crossing_id(int p_tag, bool entering, int j, const side_plane *sides, int n_sides)
{
    if (p_tag < TAG_PLANE) {
        uint32_t end = (entering ? 1u : 0u) ^ (uint32_t)(p_tag & 1);
        return (POINT_INCIDENT_EDGE << FACE_TYPE_SHIFT) | ((uint32_t)(p_tag >> 1) << 1) | end;
    }
    int other = p_tag - TAG_PLANE;
    int corner = sides[j].from; /* non-adjacent planes meet outside the face: clipped later */
    if (other == (j + 1) % n_sides) corner = sides[j].to;
    else if (j == (other + 1) % n_sides) corner = sides[j].from;
    return (POINT_REFERENCE_CORNER << FACE_TYPE_SHIFT) | (uint32_t)corner;
}

/* One Sutherland-Hodgman pass against side plane j (pool->d holds each
 * polygon vertex's distance outside it), as collide_box_box.c clips. */
static int clip_polygon(clip_pool *pool, const uint16_t *in, int n, int j, const side_plane *sides, int n_sides,
                        uint16_t *out)
{
    int plane_tag = TAG_PLANE + j;
    int m = 0;
    for (int k = 0; k < n; k++) {
        int p = in[k], q = in[k + 1 < n ? k + 1 : 0];
        float dp = pool->d[p], dq = pool->d[q];
        if (dp <= 0.0f && m < CLIP_POLY_MAX) out[m++] = (uint16_t)p;
        bool crosses = (dp < 0.0f && dq > 0.0f) || (dp > 0.0f && dq < 0.0f);
        if (crosses) {
            if (m >= CLIP_POLY_MAX || pool->count >= CLIP_POOL_MAX) continue; /* not for a convex polygon */
            int x = pool->count++;
            float t = dp / (dp - dq);
            pool->x[x] = pool->x[p] + (pool->x[q] - pool->x[p]) * t;
            pool->y[x] = pool->y[p] + (pool->y[q] - pool->y[p]) * t;
            pool->z[x] = pool->z[p] + (pool->z[q] - pool->z[p]) * t;
            pool->d[x] = 0.0f;
            int p_tag = pool->tag[p];
            pool->id[x] = crossing_id(p_tag, dp > 0.0f, j, sides, n_sides);
            /* Leaving the half space, the polygon continues along the plane;
             * entering it, along the edge it came in on. */
            pool->tag[x] = dp < 0.0f ? plane_tag : p_tag;
            out[m++] = (uint16_t)x;
        } else if (dp == 0.0f && dq > 0.0f && m > 0) {
            pool->tag[out[m - 1]] = plane_tag;
        }
    }
    return m;
}

/* The polygon (n pool indices in a) clipped by every side plane moved out
 * by slack, passes alternating between a and b; *result is the one holding
 * the final polygon. A pass whose vertices are all inside is skipped: it
 * would change nothing. */
static int clip_to_sides(clip_pool *pool, uint16_t *a, uint16_t *b, int n, const side_plane *sides, int n_sides,
                         float slack, uint16_t **result)
{
    uint16_t *src = a, *dst = b;
    for (int j = 0; j < n_sides && n > 0; j++) {
        bool outside = false;
        for (int k = 0; k < n; k++) {
            int v = src[k];
            float dist = (vx_vec3_dot(sides[j].n, pool_point(pool, v)) - sides[j].d) - slack;
            pool->d[v] = dist;
            if (!(dist <= 0.0f)) outside = true;
        }
        if (!outside) continue;
        n = clip_polygon(pool, src, n, j, sides, n_sides, dst);
        uint16_t *tmp = src;
        src = dst;
        dst = tmp;
    }
    *result = src;
    return n;
}

/* ref's face ref_face against the hull inc: the incident face (inc's face
 * most anti-parallel to the reference normal) clipped to the reference face,
 * the points below it (or within margin above) into cand (*count_out of
 * them, at most CLIP_POLY_MAX); returns the incident face. */
static int face_candidates(const placed_hull *ref, int ref_face, const placed_hull *inc, bool ref_is_b, float margin,
                           float merge, candidate *cand, int *count_out)
{
    const vx_hull *rh = ref->h, *ih = inc->h;
    vx_vec3 ref_n = ref->f[ref_face].normal;
    float ref_d = ref->f[ref_face].offset;

    int inc_face = 0;
    float best_dot = vx_vec3_dot(inc->f[0].normal, ref_n);
    for (int f = 1; f < ih->face_count; f++) {
        float dk = vx_vec3_dot(inc->f[f].normal, ref_n);
        if (dk < best_dot - HULL_INCIDENT_FACE_TOL) {
            inc_face = f;
            best_dot = dk;
        }
    }

    clip_pool pool;
    uint16_t poly_a[CLIP_POLY_MAX], poly_b[CLIP_POLY_MAX];
    int n = 0;
    const vx_hull_face *iface = &ih->faces[inc_face];
    int half = iface->first_edge;
    for (int k = 0; k < iface->edge_count && n < CLIP_POLY_MAX; k++) {
        int vi = edge_origin(ih, half);
        vx_vec3 p = inc->v[vi];
        pool.x[n] = p.x;
        pool.y[n] = p.y;
        pool.z[n] = p.z;
        pool.id[n] = (POINT_INCIDENT_VERTEX << FACE_TYPE_SHIFT) | (uint32_t)vi;
        pool.tag[n] = half;
        poly_a[n] = (uint16_t)n;
        n++;
        half = ih->edges[half].next;
    }
    pool.count = n;

    const vx_hull_face *rface = &rh->faces[ref_face];
    int n_sides = rface->edge_count;
    side_plane sides[VX_HULL_MAX_POINTS];
    half = rface->first_edge;
    for (int j = 0; j < n_sides; j++) {
        int from = edge_origin(rh, half), to = edge_dest(rh, half);
        vx_vec3 s = vx_vec3_normalize(vx_vec3_cross(vx_vec3_sub(ref->v[to], ref->v[from]), ref_n));
        sides[j].n = s;
        sides[j].d = vx_vec3_dot(s, ref->v[from]);
        sides[j].from = from;
        sides[j].to = to;
        half = rh->edges[half].next;
    }

    int n_inc = n;
    int inc_tag[CLIP_POLY_MAX];
    for (int k = 0; k < n_inc; k++) inc_tag[k] = pool.tag[k];
    uint16_t *src = poly_a;
    n = clip_to_sides(&pool, poly_a, poly_b, n_inc, sides, n_sides, 0.0f, &src);
    if (n == 0) {
        /* Rounding can put an incident face that only touches the reference
         * face's rim (flush side faces) a hair outside: clipped again with
         * the side planes moved out by the merge distance. */
        pool.count = n_inc;
        for (int k = 0; k < n_inc; k++) {
            poly_a[k] = (uint16_t)k;
            pool.tag[k] = inc_tag[k];
        }
        n = clip_to_sides(&pool, poly_a, poly_b, n_inc, sides, n_sides, merge, &src);
    }

    uint32_t base = (VX_FEATURE_KIND_HULL_FACE << VX_FEATURE_KIND_SHIFT) |
                    (ref_is_b ? 1u << FACE_REF_IS_B_SHIFT : 0u) | ((uint32_t)ref_face << FACE_REF_SHIFT);
    int count = 0;
    for (int k = 0; k < n; k++) {
        int v = src[k];
        vx_vec3 p = pool_point(&pool, v);
        float depth = ref_d - vx_vec3_dot(ref_n, p);
        if (!(depth > -margin)) continue;
        uint32_t id = base | pool.id[v];
        /* Points closer than merge (a vertex on a side plane and the crossing
         * rounding made next to it), or two with one id (degenerate
         * rounding), are one point: the first is kept. */
        bool seen = false;
        for (int i = 0; i < count && !seen; i++)
            seen = cand[i].id == id || vx_vec3_length_sq(vx_vec3_sub(cand[i].on_inc, p)) <= merge * merge;
        if (seen) continue;
        cand[count].on_inc = p;
        cand[count].on_ref = vx_vec3_add(p, vx_vec3_scale(ref_n, depth));
        cand[count].depth = depth;
        cand[count].id = id;
        count++;
    }
    *count_out = count;
    return inc_face;
}

/* ref's face ref_face against the hull inc: the points of face_candidates,
 * at most 4 (vx_contact_reduce). The normal of lm is already set. */
static int face_contact(const placed_hull *ref, int ref_face, const placed_hull *inc, bool ref_is_b, float margin,
                        float merge, local_manifold *lm)
{
    candidate cand[CLIP_POLY_MAX];
    int count = 0;
    int inc_face = face_candidates(ref, ref_face, inc, ref_is_b, margin, merge, cand, &count);
    vx_vec3 ref_n = ref->f[ref_face].normal;
    if (count > VX_MANIFOLD_MAX_POINTS) count = vx_contact_reduce(cand, count, ref_n, merge);
    for (int k = 0; k < count; k++) {
        const candidate *c = &cand[k];
        local_push(lm, ref_is_b ? c->on_inc : c->on_ref, ref_is_b ? c->on_ref : c->on_inc, c->depth, c->id);
    }
    return inc_face;
}

/* The last resort of a face contact whose faces do not overlap seen along
 * the normal (their corners pass each other) and that no edge pair stands
 * for: the closest points of the two faces' edges, placed along the normal
 * of lm around their midpoint (as edge_contact does), as an edge-edge
 * contact of those edges. Ties go to the lowest edges. */
static void face_edges_contact(const placed_hull *a, int face_a, const placed_hull *b, int face_b, float margin,
                               local_manifold *lm)
{
    const vx_hull *ha = a->h, *hb = b->h;
    float best = -1.0f;
    int best_ea = 0, best_eb = 0;
    vx_vec3 best_pa = vx_vec3_zero(), best_pb = vx_vec3_zero();
    int ea = ha->faces[face_a].first_edge;
    for (int i = 0; i < ha->faces[face_a].edge_count; i++, ea = ha->edges[ea].next) {
        vx_vec3 a0 = a->v[edge_origin(ha, ea)], a1 = a->v[edge_dest(ha, ea)];
        vx_vec3 da = vx_vec3_sub(a1, a0);
        float len_a = vx_vec3_length(da);
        vx_vec3 ca = vx_vec3_scale(vx_vec3_add(a0, a1), 0.5f);
        int eb = hb->faces[face_b].first_edge;
        for (int j = 0; j < hb->faces[face_b].edge_count; j++, eb = hb->edges[eb].next) {
            vx_vec3 b0 = b->v[edge_origin(hb, eb)], b1 = b->v[edge_dest(hb, eb)];
            vx_vec3 db = vx_vec3_sub(b1, b0);
            float len_b = vx_vec3_length(db);
            vx_vec3 cb = vx_vec3_scale(vx_vec3_add(b0, b1), 0.5f);
            float s, t;
            vx_closest_segment_params(ca, vx_vec3_scale(da, 1.0f / len_a), 0.5f * len_a, cb,
                                      vx_vec3_scale(db, 1.0f / len_b), 0.5f * len_b, &s, &t);
            vx_vec3 pa = vx_vec3_add(ca, vx_vec3_scale(da, s / len_a));
            vx_vec3 pb = vx_vec3_add(cb, vx_vec3_scale(db, t / len_b));
            float d = vx_vec3_length_sq(vx_vec3_sub(pa, pb));
            int ka = ea >> 1, kb = eb >> 1;
            if (best < 0.0f || d < best || (d == best && (ka < best_ea || (ka == best_ea && kb < best_eb)))) {
                best = d;
                best_ea = ka;
                best_eb = kb;
                best_pa = pa;
                best_pb = pb;
            }
        }
    }
    vx_vec3 n = lm->normal;
    float depth = vx_vec3_dot(vx_vec3_sub(best_pa, best_pb), n);
    if (!(depth > -margin)) return;
    vx_vec3 mid = vx_vec3_scale(vx_vec3_add(best_pa, best_pb), 0.5f);
    vx_vec3 half_gap = vx_vec3_scale(n, 0.5f * depth);
    uint32_t id = (VX_FEATURE_KIND_HULL_EDGE << VX_FEATURE_KIND_SHIFT) | ((uint32_t)best_ea << EDGE_A_SHIFT) |
                  (uint32_t)best_eb;
    local_push(lm, vx_vec3_add(mid, half_gap), vx_vec3_sub(mid, half_gap), depth, id);
}

/* ---------------- edge-edge contact ---------------- */

/* One point between A's edge ea and B's edge eb, as collide_box_box.c's
 * edge contact: the closest points of the two edges, placed along the normal
 * around their midpoint. */
static bool edge_contact(const placed_hull *a, int ea, const placed_hull *b, int eb, float margin, local_manifold *lm)
{
    vx_vec3 a0 = a->v[edge_origin(a->h, 2 * ea)], a1 = a->v[edge_dest(a->h, 2 * ea)];
    vx_vec3 b0 = b->v[edge_origin(b->h, 2 * eb)], b1 = b->v[edge_dest(b->h, 2 * eb)];
    vx_vec3 da = vx_vec3_sub(a1, a0), db = vx_vec3_sub(b1, b0);
    vx_vec3 n = vx_vec3_normalize(vx_vec3_cross(da, db));
    if (vx_vec3_dot(n, vx_vec3_sub(a0, a->centroid)) < 0.0f) n = vx_vec3_neg(n);

    float len_a = vx_vec3_length(da), len_b = vx_vec3_length(db);
    vx_vec3 ua = vx_vec3_scale(da, 1.0f / len_a), ub = vx_vec3_scale(db, 1.0f / len_b);
    vx_vec3 ca = vx_vec3_scale(vx_vec3_add(a0, a1), 0.5f), cb = vx_vec3_scale(vx_vec3_add(b0, b1), 0.5f);
    float s, t;
    vx_closest_segment_params(ca, ua, 0.5f * len_a, cb, ub, 0.5f * len_b, &s, &t);
    vx_vec3 pa = vx_vec3_add(ca, vx_vec3_scale(ua, s));
    vx_vec3 pb = vx_vec3_add(cb, vx_vec3_scale(ub, t));
    float depth = vx_vec3_dot(vx_vec3_sub(pa, pb), n);
    if (!(depth > -margin)) return false;

    vx_vec3 mid = vx_vec3_scale(vx_vec3_add(pa, pb), 0.5f);
    vx_vec3 half_gap = vx_vec3_scale(n, 0.5f * depth);
    lm->normal = n;
    uint32_t id = (VX_FEATURE_KIND_HULL_EDGE << VX_FEATURE_KIND_SHIFT) | ((uint32_t)ea << EDGE_A_SHIFT) | (uint32_t)eb;
    local_push(lm, vx_vec3_add(mid, half_gap), vx_vec3_sub(mid, half_gap), depth, id);
    return true;
}

/* ---------------- hull against hull ---------------- */

static vx_sat_axis make_axis(uint8_t kind, int a, int b)
{
    vx_sat_axis axis = {kind, (uint16_t)a, (uint16_t)b};
    return axis;
}

/* A and B both in the working frame. known_a and known_b: a face of A and
 * of B whose separation is measured already (face -1: none). *axis (when
 * not NULL): the axis that separates them by margin or more, else the best
 * one (the contact's). */
static void collide_placed(const placed_hull *a, const placed_hull *b, float margin, const face_query *known_a,
                           const face_query *known_b, vx_sat_axis *axis, local_manifold *lm)
{
    memset(lm, 0, sizeof *lm);
    float guard = prune_guard(a, b);
    face_query fa, fb;
    edge_query eq;
    float bound_a[HULL_MAX_FACES], bound_b[HULL_MAX_FACES];
    vx_sat_axis found;
    if (!axis) axis = &found;
    if (!query_faces(a, b, margin, guard, bound_a, known_a, &fa)) {
        *axis = make_axis(VX_SAT_AXIS_FACE_A, fa.face, 0);
        return;
    }
    if (!query_faces(b, a, margin, guard, bound_b, known_b, &fb)) {
        *axis = make_axis(VX_SAT_AXIS_FACE_B, fb.face, 0);
        return;
    }

    float inner = vx_collide_minf(a->h->inner_radius, b->h->inner_radius);
    float lin_tol = vx_collide_minf(HULL_LINEAR_TOL, HULL_LINEAR_TOL_SIZE_FRACTION * inner);

    /* m: points this close are one (1e-5 per m of the larger hull, at least
     * 1 m: the rounding of crossings made near a vertex). */
    float merge = HULL_MERGE_TOL * vx_collide_maxf(1.0f, vx_collide_maxf(hull_size(a->h), hull_size(b->h)));

    float max_face = vx_collide_maxf(fa.sep, fb.sep);
    /* An edge pair matters when it separates by margin or more (then there
     * is no contact) or beats the faces by the preference: the pairs that
     * can do neither are not measured. */
    float edge_wins = max_face + HULL_EDGE_REL_TOL * fabsf(max_face) + lin_tol;
    /* B's vertex deepest below A's best face and A's below B's: points of
     * the other hull for the edges' bounds, closer to the contact than its
     * ball (any vertex would do). */
    vx_vec3 deep_b = b->v[lowest_vertex(b, a->f[fa.face].normal)];
    vx_vec3 deep_a = a->v[lowest_vertex(a, b->f[fb.face].normal)];
    if (!query_edges(a, bound_a, deep_b, b, bound_b, deep_a, margin, vx_collide_minf(margin, edge_wins) - guard,
                     &eq)) {
        *axis = make_axis(VX_SAT_AXIS_EDGES, eq.ea, eq.eb);
        return;
    }
    bool use_edge = eq.valid && eq.sep > edge_wins;
    bool ref_is_b = fb.sep > fa.sep + HULL_FACE_REL_TOL * fabsf(fa.sep) + lin_tol;
    if (use_edge)
        *axis = make_axis(VX_SAT_AXIS_EDGES, eq.ea, eq.eb);
    else
        *axis = ref_is_b ? make_axis(VX_SAT_AXIS_FACE_B, fb.face, 0) : make_axis(VX_SAT_AXIS_FACE_A, fa.face, 0);
    if (use_edge) {
        if (edge_contact(a, eq.ea, b, eq.eb, margin, lm)) return;
        /* The closest points were clamped beyond margin: the best face tries. */
        memset(lm, 0, sizeof *lm);
    }

    vx_vec3 normal;
    int face_a, face_b;
    if (!ref_is_b) {
        normal = lm->normal = a->f[fa.face].normal;
        face_a = fa.face;
        face_b = face_contact(a, fa.face, b, false, margin, merge, lm);
    } else {
        normal = lm->normal = vx_vec3_neg(b->f[fb.face].normal);
        face_b = fb.face;
        face_a = face_contact(b, fb.face, a, true, margin, merge, lm);
    }
    if (lm->count > 0) return;
    /* A face chosen by preference can clip away every point of a contact
     * that is really edge against edge: the best edge pair then (of all the
     * pairs: the query above may have left the lesser ones out), or the
     * faces' closest edges along the face normal (edges meeting only at the
     * ends of their arcs, as boxes turned about one common axis do, are no
     * pair), whichever finds the pair farther apart: the larger gap is the
     * closer bound of the distance. */
    local_manifold by_edge, by_faces;
    memset(&by_edge, 0, sizeof by_edge);
    memset(&by_faces, 0, sizeof by_faces);
    if (!use_edge) {
        /* No pair separates by margin (the first query would have seen it),
         * so this query runs to the end. */
        query_edges(a, bound_a, deep_b, b, bound_b, deep_a, margin, -INFINITY, &eq);
        if (eq.valid) edge_contact(a, eq.ea, b, eq.eb, margin, &by_edge);
    }
    by_faces.normal = normal;
    face_edges_contact(a, face_a, b, face_b, margin, &by_faces);
    bool faces_farther = by_faces.count > 0 && (by_edge.count == 0 || by_faces.depth[0] < by_edge.depth[0]);
    *lm = faces_farther ? by_faces : by_edge;
}

/* Face k of B placed in A's frame by the rotation r and translation t. */
static void place_face(const vx_hull *h, const vx_mat3 *r, vx_vec3 t, int k, vx_hull_face *f)
{
    vx_vec3 n = vx_mat3_mul_vec3(r, h->faces[k].normal);
    f[k].normal = n;
    f[k].offset = h->faces[k].offset + vx_vec3_dot(n, t);
    f[k].first_edge = h->faces[k].first_edge;
    f[k].edge_count = h->faces[k].edge_count;
}

/* A pair in A's frame, the working frame: A as it is, B turned (rel =
 * Ra^T Rb) and moved (t = Ra^T (pb - pa)). */
typedef struct {
    frame fa;
    vx_mat3 rel;
    vx_vec3 t;
    vx_hull_face faces_b[HULL_MAX_FACES];
    vx_vec3 verts_b[VX_HULL_MAX_POINTS];
    placed_hull ha, hb;
    bool verts_placed; /* all of verts_b */
} placed_pair;

/* B's vertex k placed, as the full test places them all. */
static void place_vertex(placed_pair *pp, int k)
{
    pp->verts_b[k] = vx_vec3_add(vx_mat3_mul_vec3(&pp->rel, pp->hb.h->vertices[k]), pp->t);
}

/* The frames of the pair (ra, rb: the rotation matrices when made already,
 * else NULL): neither B's vertices nor its faces placed yet. */
static void place_frames(const vx_hull *a, const vx_transform *pa, const vx_mat3 *ra, const vx_hull *b,
                         const vx_transform *pb, const vx_mat3 *rb, placed_pair *pp)
{
    pp->fa = frame_with(pa, ra);
    frame fb = frame_with(pb, rb);
    vx_mat3 ra_t = vx_mat3_transpose(&pp->fa.r);
    pp->rel = vx_mat3_mul(&ra_t, &fb.r);
    pp->t = frame_to_local(&pp->fa, fb.p);
    placed_hull ha = {a, a->vertices, a->faces, a->centroid};
    placed_hull hb = {b, pp->verts_b, pp->faces_b, vx_vec3_add(vx_mat3_mul_vec3(&pp->rel, b->centroid), pp->t)};
    pp->ha = ha;
    pp->hb = hb;
    pp->verts_placed = false;
}

static void place_vertices(placed_pair *pp)
{
    if (pp->verts_placed) return;
    for (int k = 0; k < pp->hb.h->vertex_count; k++) place_vertex(pp, k);
    pp->verts_placed = true;
}

/* B's vertices placed (its faces are not yet). */
static void place_pair(const vx_hull *a, const vx_transform *pa, const vx_hull *b, const vx_transform *pb,
                       placed_pair *pp)
{
    place_frames(a, pa, NULL, b, pb, NULL, pp);
    place_vertices(pp);
}

/* The distance from the origin of the hull's frame to its farthest bounds
 * corner: no vertex is farther. */
static float hull_radius(const vx_hull *h)
{
    vx_vec3 lo = h->bounds.min, hi = h->bounds.max;
    vx_vec3 far = vx_vec3_make(vx_collide_maxf(fabsf(lo.x), fabsf(hi.x)), vx_collide_maxf(fabsf(lo.y), fabsf(hi.y)),
                               vx_collide_maxf(fabsf(lo.z), fabsf(hi.z)));
    return vx_vec3_length(far);
}

/* Whether A's face f separates the pair by margin or more, judged without
 * placing B's vertices: the face normal is turned into B's frame instead
 * (rel^T n . v + n . t, where the full test takes n . (rel v + t)). The two
 * roundings differ by a few units in the last place of the numbers
 * involved, ~40 ulp of |t| plus both hulls' radii at most; the answer is yes
 * only when the face clears margin by 1e-5 of that sum (some 170 ulp), so
 * the full test would find the face separating too. */
static bool face_a_clears(const placed_pair *pp, int f, float margin)
{
    const vx_hull *ha = pp->ha.h, *hb = pp->hb.h;
    vx_vec3 n = ha->faces[f].normal;
    const float(*r)[3] = pp->rel.m;
    vx_vec3 nb = vx_vec3_make(r[0][0] * n.x + r[1][0] * n.y + r[2][0] * n.z,
                              r[0][1] * n.x + r[1][1] * n.y + r[2][1] * n.z,
                              r[0][2] * n.x + r[1][2] * n.y + r[2][2] * n.z);
    float lo = vx_vec3_dot(nb, hb->vertices[0]);
    for (int k = 1; k < hb->vertex_count; k++) {
        float s = vx_vec3_dot(nb, hb->vertices[k]);
        lo = lo < s ? lo : s;
    }
    float sep = lo + vx_vec3_dot(n, pp->t) - ha->faces[f].offset;
    float guard = 1e-5f * (vx_vec3_length(pp->t) + hull_radius(ha) + hull_radius(hb));
    return isfinite(guard) && isfinite(sep) && sep >= margin + guard;
}

/* Whether the axis kept from an earlier step separates A and B by margin
 * or more (B neither placed nor its faces). It is one of the axes the full
 * test measures, and the answer is the full test's arithmetic on it (or,
 * for a face of A, a cheaper one with a guard: face_a_clears), so the full
 * test would find them apart too. Otherwise a face's separation is put into
 * *known_a or *known_b for the full test. What it needs of B is placed:
 * all of B's vertices for a face of A that does not clearly separate, the
 * face for a face of B (A's vertices are where they are), an edge's two
 * vertices and two faces. */
static bool hint_separates(placed_pair *pp, float margin, vx_sat_axis hint, face_query *known_a,
                           face_query *known_b)
{
    const placed_hull *a = &pp->ha, *b = &pp->hb;
    const vx_hull *ha = a->h, *hb = b->h;
    switch (hint.kind) {
    case VX_SAT_AXIS_FACE_A: {
        if (hint.a >= ha->face_count) return false;
        if (face_a_clears(pp, hint.a, margin)) return true;
        place_vertices(pp);
        float sep = face_separation(a, hint.a, b);
        if (!(sep < margin)) return true;
        known_a->face = hint.a;
        known_a->sep = sep;
        return false;
    }
    case VX_SAT_AXIS_FACE_B: {
        if (hint.a >= hb->face_count) return false;
        place_face(hb, &pp->rel, pp->t, hint.a, pp->faces_b);
        float sep = face_separation(b, hint.a, a);
        if (!(sep < margin)) return true;
        known_b->face = hint.a;
        known_b->sep = sep;
        return false;
    }
    case VX_SAT_AXIS_EDGES: {
        if (2 * hint.a >= ha->edge_count || 2 * hint.b >= hb->edge_count) return false;
        place_face(hb, &pp->rel, pp->t, hb->edges[2 * hint.b].face, pp->faces_b);
        place_face(hb, &pp->rel, pp->t, hb->edges[2 * hint.b + 1].face, pp->faces_b);
        place_vertex(pp, edge_origin(hb, 2 * hint.b));
        place_vertex(pp, edge_dest(hb, 2 * hint.b));
        edge_set ea, eb;
        edge_set_put(a, hint.a, false, &ea, 0);
        edge_set_put(b, hint.b, true, &eb, 0);
        float sep;
        float reach = hull_reach(ha) + hull_reach(hb);
        return edge_pair_separation(&ea, 0, &eb, 0, a->centroid, reach, &sep) && !(sep < margin);
    }
    default:
        return false;
    }
}

static bool collide_hull_hull(const vx_hull *a, const vx_transform *pa, const vx_mat3 *ra, const vx_hull *b,
                              const vx_transform *pb, const vx_mat3 *rb, float margin, vx_sat_axis *axis,
                              vx_manifold *out)
{
    vx_manifold_reset(out);
    margin = vx_collide_sanitize_margin(margin);
    VX_ASSERT(a->face_count <= HULL_MAX_FACES && b->face_count <= HULL_MAX_FACES);

    placed_pair pp;
    place_frames(a, pa, ra, b, pb, rb, &pp);

    face_query known_a = {0.0f, -1}, known_b = {0.0f, -1};
    if (axis && hint_separates(&pp, margin, *axis, &known_a, &known_b)) return false;
    place_vertices(&pp);
    for (int k = 0; k < b->face_count; k++) place_face(b, &pp.rel, pp.t, k, pp.faces_b);

    local_manifold lm;
    collide_placed(&pp.ha, &pp.hb, margin, &known_a, &known_b, axis, &lm);
    return emit(&pp.fa, &lm, out);
}

bool vx_hull_contact_b_feature(uint32_t feature, uint32_t *b)
{
    uint32_t kind = (feature >> VX_FEATURE_KIND_SHIFT) & 0xfu;
    if (kind == VX_FEATURE_KIND_HULL_SPHERE) {
        *b = 0u;
        return true;
    }
    if (kind != VX_FEATURE_KIND_HULL_FACE) return false;
    uint32_t type = (feature >> FACE_TYPE_SHIFT) & 3u;
    bool ref_is_b = (feature >> FACE_REF_IS_B_SHIFT) & 1u;
    /* B's vertex: B incident (its vertex), or B the reference (its corner) */
    if ((!ref_is_b && type == POINT_INCIDENT_VERTEX) || (ref_is_b && type == POINT_REFERENCE_CORNER)) {
        *b = feature & ((1u << FACE_TYPE_SHIFT) - 1u);
        return true;
    }
    return false;
}

bool vx_collide_hull_hull(const vx_hull *a, const vx_transform *pa, const vx_hull *b, const vx_transform *pb,
                          float margin, vx_manifold *out)
{
    return collide_hull_hull(a, pa, NULL, b, pb, NULL, margin, NULL, out);
}

bool vx_collide_hull_hull_cached(const vx_hull *a, const vx_transform *pa, const vx_hull *b,
                                 const vx_transform *pb, float margin, vx_sat_axis *axis, vx_manifold *out)
{
    return collide_hull_hull(a, pa, NULL, b, pb, NULL, margin, axis, out);
}

bool vx_collide_hull_hull_rotated(const vx_hull *a, const vx_transform *pa, const vx_mat3 *ra, const vx_hull *b,
                                  const vx_transform *pb, const vx_mat3 *rb, float margin, vx_sat_axis *axis,
                                  vx_manifold *out)
{
    return collide_hull_hull(a, pa, ra, b, pb, rb, margin, axis, out);
}

/* ---------------- hull against box ---------------- */

/* The box as a hull: vertex i has bit k set when it is on the + side of
 * axis k; face axis * 2 + (outward along -axis); each face's edges counter-
 * clockwise seen from outside, twins side by side. */
static const vx_hull_edge box_edges[24] = {
    {1, 1, 2, 0},   {3, 0, 23, 5},  {3, 3, 4, 0},   {7, 2, 18, 2},  {7, 5, 6, 0},   {5, 4, 17, 4},
    {5, 7, 0, 0},   {1, 6, 20, 3},  {4, 9, 10, 1},  {6, 8, 21, 4},  {6, 11, 12, 1}, {2, 10, 16, 2},
    {2, 13, 14, 1}, {0, 12, 19, 5}, {0, 15, 8, 1},  {4, 14, 22, 3}, {6, 17, 3, 2},  {7, 16, 9, 4},
    {3, 19, 11, 2}, {2, 18, 1, 5},  {5, 21, 15, 3}, {4, 20, 5, 4},  {0, 23, 7, 3},  {1, 22, 13, 5},
};
static const uint16_t box_first_edge[6] = {0, 8, 11, 7, 21, 19};

typedef struct {
    vx_hull hull;
    vx_vec3 vertices[8];
    vx_hull_face faces[6];
    vx_hull_edge edges[24];
} box_hull;

static void box_hull_init(box_hull *bh, vx_vec3 half_extents)
{
    memset(bh, 0, sizeof *bh);
    float e[3] = {half_extents.x, half_extents.y, half_extents.z};
    for (int i = 0; i < 8; i++)
        bh->vertices[i] = vx_vec3_make(i & 1 ? e[0] : -e[0], i & 2 ? e[1] : -e[1], i & 4 ? e[2] : -e[2]);
    for (int f = 0; f < 6; f++) {
        vx_vec3 n = vx_vec3_zero();
        vx_vec3_set(&n, f / 2, f % 2 ? -1.0f : 1.0f);
        bh->faces[f].normal = n;
        bh->faces[f].offset = e[f / 2];
        bh->faces[f].first_edge = box_first_edge[f];
        bh->faces[f].edge_count = 4;
    }
    memcpy(bh->edges, box_edges, sizeof box_edges);
    vx_hull *h = &bh->hull;
    vx_hull_view(h, bh->vertices, 8, bh->edges, 24, bh->faces, 6);
    h->centroid = vx_vec3_zero();
    h->volume = 8.0f * e[0] * e[1] * e[2];
    h->bounds = vx_aabb_new(bh->vertices[0], bh->vertices[7]);
    h->inner_radius = vx_collide_minf(e[0], vx_collide_minf(e[1], e[2]));
}

bool vx_collide_hull_box(const vx_hull *hull, const vx_transform *pose, const vx_transform *box,
                         vx_vec3 half_extents, float margin, vx_manifold *out)
{
    box_hull bh;
    box_hull_init(&bh, half_extents);
    return vx_collide_hull_hull(hull, pose, &bh.hull, box, margin, out);
}

bool vx_collide_hull_box_cached(const vx_hull *hull, const vx_transform *pose, const vx_transform *box,
                                vx_vec3 half_extents, float margin, vx_sat_axis *axis, vx_manifold *out)
{
    return vx_collide_hull_box_rotated(hull, pose, NULL, box, NULL, half_extents, margin, axis, out);
}

bool vx_collide_hull_box_rotated(const vx_hull *hull, const vx_transform *pose, const vx_mat3 *r,
                                 const vx_transform *box, const vx_mat3 *r_box, vx_vec3 half_extents, float margin,
                                 vx_sat_axis *axis, vx_manifold *out)
{
    box_hull bh;
    box_hull_init(&bh, half_extents);
    return collide_hull_hull(hull, pose, r, &bh.hull, box, r_box, margin, axis, out);
}

static int hull_face_patch(const vx_hull *a, const vx_transform *pa, int face, const vx_hull *b,
                           const vx_transform *pb, float margin, vx_contact_candidate *out, int max)
{
    VX_ASSERT(face >= 0 && face < a->face_count && b->face_count <= HULL_MAX_FACES);
    placed_pair pp;
    place_pair(a, pa, b, pb, &pp);
    for (int k = 0; k < b->face_count; k++) place_face(b, &pp.rel, pp.t, k, pp.faces_b);
    float merge = HULL_MERGE_TOL * vx_collide_maxf(1.0f, vx_collide_maxf(hull_size(a), hull_size(b)));
    candidate cand[CLIP_POLY_MAX];
    int count = 0;
    face_candidates(&pp.ha, face, &pp.hb, false, vx_collide_sanitize_margin(margin), merge, cand, &count);
    if (count > max) count = vx_contact_reduce(cand, count, a->faces[face].normal, merge);
    for (int k = 0; k < count; k++) {
        out[k].on_ref = frame_to_world(&pp.fa, cand[k].on_ref);
        out[k].on_inc = frame_to_world(&pp.fa, cand[k].on_inc);
        out[k].depth = cand[k].depth;
        out[k].id = cand[k].id;
    }
    return count;
}

int vx_collide_hull_face(const vx_hull *a, const vx_transform *pa, int face, const vx_collider *b,
                         const vx_transform *pb, float margin, vx_contact_candidate *out, int max)
{
    VX_ASSERT(max >= VX_MANIFOLD_MAX_POINTS);
    if (b->type == VX_SHAPE_HULL) return hull_face_patch(a, pa, face, b->hull, pb, margin, out, max);
    VX_ASSERT(b->type == VX_SHAPE_BOX);
    box_hull bh;
    box_hull_init(&bh, b->half_extents);
    return hull_face_patch(a, pa, face, &bh.hull, pb, margin, out, max);
}

/* ---------------- closest points of a hull ---------------- */

/* The closest point of the hull to p (in the hull's frame), its feature
 * (type << HULL_FEATURE_TYPE_SHIFT | index) and squared distance, for p
 * outside: a face whose plane p is above and whose polygon holds p's
 * projection (the projection is then the closest point: p - q lies in the
 * face's normal cone), else the nearest point of the edges (an edge's inside
 * or one of its ends, a vertex). Ties go to the lowest index. */
static vx_vec3 closest_on_hull(const vx_hull *h, vx_vec3 p, uint32_t *feature, float *dist_sq)
{
    const vx_hull_face *f = h->faces;
    for (int k = 0; k < h->face_count; k++) {
        float s = vx_vec3_dot(f[k].normal, p) - f[k].offset;
        if (!(s > 0.0f)) continue;
        vx_vec3 q = vx_vec3_sub(p, vx_vec3_scale(f[k].normal, s));
        const vx_hull_face *face = &h->faces[k];
        int half = face->first_edge;
        bool inside = true;
        for (int j = 0; j < face->edge_count && inside; j++) {
            vx_vec3 v0 = h->vertices[edge_origin(h, half)], v1 = h->vertices[edge_dest(h, half)];
            vx_vec3 side = vx_vec3_cross(vx_vec3_sub(v1, v0), f[k].normal);
            if (vx_vec3_dot(side, vx_vec3_sub(q, v0)) > 0.0f) inside = false;
            half = h->edges[half].next;
        }
        if (inside) {
            *feature = (HULL_FEATURE_FACE << HULL_FEATURE_TYPE_SHIFT) | (uint32_t)k;
            *dist_sq = s * s;
            return q;
        }
    }
    vx_vec3 best_q = h->vertices[0];
    float best = -1.0f;
    uint32_t best_feature = HULL_FEATURE_VERTEX << HULL_FEATURE_TYPE_SHIFT;
    for (int k = 0; k < h->edge_count / 2; k++) {
        int i0 = edge_origin(h, 2 * k), i1 = edge_dest(h, 2 * k);
        vx_vec3 v0 = h->vertices[i0];
        vx_vec3 d = vx_vec3_sub(h->vertices[i1], v0);
        float dd = vx_vec3_length_sq(d);
        float t = dd > 0.0f ? vx_vec3_dot(vx_vec3_sub(p, v0), d) / dd : 0.0f;
        uint32_t feat;
        vx_vec3 q;
        if (t <= 0.0f) {
            q = v0;
            feat = (HULL_FEATURE_VERTEX << HULL_FEATURE_TYPE_SHIFT) | (uint32_t)i0;
        } else if (t >= 1.0f) {
            q = h->vertices[i1];
            feat = (HULL_FEATURE_VERTEX << HULL_FEATURE_TYPE_SHIFT) | (uint32_t)i1;
        } else {
            q = vx_vec3_add(v0, vx_vec3_scale(d, t));
            feat = (HULL_FEATURE_EDGE << HULL_FEATURE_TYPE_SHIFT) | (uint32_t)k;
        }
        float dsq = vx_vec3_length_sq(vx_vec3_sub(p, q));
        if (best < 0.0f || dsq < best) {
            best = dsq;
            best_q = q;
            best_feature = feat;
        }
    }
    *feature = best_feature;
    *dist_sq = best;
    return best_q;
}

/* The face plane p is least deep under (the largest signed distance, the
 * lowest face on ties): the way out of a point inside. */
static int least_penetration_face(const vx_hull *h, vx_vec3 p, float *signed_dist)
{
    const vx_hull_face *f = h->faces;
    int best = 0;
    float best_s = vx_vec3_dot(f[0].normal, p) - f[0].offset;
    for (int k = 1; k < h->face_count; k++) {
        float s = vx_vec3_dot(f[k].normal, p) - f[k].offset;
        if (s > best_s) {
            best = k;
            best_s = s;
        }
    }
    *signed_dist = best_s;
    return best;
}

/* ---------------- hull against sphere ---------------- */

bool vx_collide_hull_sphere(const vx_hull *hull, const vx_transform *pose, vx_vec3 sphere_pos, float radius,
                            float margin, vx_manifold *out)
{
    vx_manifold_reset(out);
    margin = vx_collide_sanitize_margin(margin);
    VX_ASSERT(hull->face_count <= HULL_MAX_FACES);

    frame fr = frame_of(pose);
    vx_vec3 c = frame_to_local(&fr, sphere_pos);

    local_manifold lm;
    memset(&lm, 0, sizeof lm);
    float s;
    int face = least_penetration_face(hull, c, &s);
    uint32_t kind = VX_FEATURE_KIND_HULL_SPHERE << VX_FEATURE_KIND_SHIFT;
    bool outside = false;
    if (s > 0.0f) {
        uint32_t feature;
        float dist_sq;
        vx_vec3 q = closest_on_hull(hull, c, &feature, &dist_sq);
        /* Below FLT_MIN the direction is lost: the centre is on the surface. */
        if (dist_sq >= FLT_MIN) {
            outside = true;
            float dist = sqrtf(dist_sq);
            float depth = radius - dist;
            if (!(depth > -margin)) return false;
            /* Over a face the way out is its normal (c - q has lost the
             * direction's bits when c is near the face). */
            vx_vec3 n = feature >> HULL_FEATURE_TYPE_SHIFT == HULL_FEATURE_FACE
                            ? hull->faces[feature & HULL_FEATURE_INDEX_MASK].normal
                            : vx_vec3_scale(vx_vec3_sub(c, q), 1.0f / dist);
            lm.normal = n;
            local_push(&lm, q, vx_vec3_sub(c, vx_vec3_scale(n, radius)), depth, kind | feature);
        }
    }
    if (!outside) {
        /* Inside (or on the surface): out through the face of least
         * penetration, whose outward normal points from the hull to the sphere. */
        float dist = vx_collide_maxf(-s, 0.0f);
        float depth = radius + dist;
        if (!(depth > -margin)) return false;
        vx_vec3 n = hull->faces[face].normal;
        lm.normal = n;
        vx_vec3 on_hull = vx_vec3_add(c, vx_vec3_scale(n, dist));
        local_push(&lm, on_hull, vx_vec3_sub(c, vx_vec3_scale(n, radius)), depth,
                   kind | (HULL_FEATURE_FACE << HULL_FEATURE_TYPE_SHIFT) | (uint32_t)face);
    }
    return emit(&fr, &lm, out);
}
