/* Oriented narrow phase: a convex hull (A, body/hull.h) against a capsule
 * (B), worked in the hull's frame and turned into the world at the end. The
 * method and every choice are capsule-box's (collide_capsule_box.c), so that
 * a hull of a box's corners gives capsule-box's contact:
 *
 * 1. Segment clear of the hull by more than a tolerance: the closest points
 *    of the capsule's segment and the hull, region by region (over each
 *    face, beside each edge, nearest each vertex; a face wins near ties
 *    over an edge, an edge over a vertex). Over a face, the face's normal,
 *    and a capsule lying along the face (within about 1.1 degrees) gets two
 *    points, its segment clipped to the face's side planes; beside an edge
 *    or a vertex the normal runs from the hull's point to the segment's,
 *    and a capsule lying along the edge gets two points clipped to its
 *    length.
 * 2. Touching or inside: the separating-axis test over the hull's face
 *    normals and the axes segment x edge of the edges whose Gauss-map arc
 *    crosses the segment's great circle (the only edges that make a face of
 *    the Minkowski difference); faces preferred by 5 % plus a linear
 *    tolerance. A face gives the deepest end of the segment clipped to it
 *    (or two points lying flat), an edge one point beside its closest
 *    approach to the segment.
 *
 * Feature ids: kind 14 in bits 24..27; the capsule feature in bits 12..14
 * (collide_capsule.c's: 0 / 1 the -Y / +Y end, 2 the side, 3 / 4 the ends of
 * a two-point contact); the hull feature in bits 10..11 (1 face, 2 edge, 3
 * vertex, as hull-sphere's) and its index in bits 0..9 (edges undirected:
 * k for half-edges 2k and 2k + 1). See docs/simulation.md, "Hull contacts". */
#include "physics/collision/collide_internal.h"

/* m per m of hull size (half its largest bounds extent, at least 1 m): a
 * segment this close counts as touching (the separating-axis test
 * decides), a point this far beyond a face's side plane as over the face. */
#define HC_TOL 1e-5f
/* sin of the angle (about 1.1 degrees) within which a capsule lies along a
 * face or an edge and gets two points. */
#define HC_FLAT_SIN 0.02f
/* m: a clipped segment shorter than this gives one point, not two nearly
 * coincident ones. */
#define HC_MIN_SPAN 1e-3f
/* |axis x unit edge|^2 below this: the segment is parallel to the edge and
 * their cross product is no axis. */
#define HC_EDGE_AXIS_MIN_SQ 1e-6f
/* m per m of hull size (as HC_TOL): a face no farther than this beyond the
 * nearest edge or vertex, or an edge beyond the nearest vertex, still
 * counts as the closest feature (a few times the rounding of coordinates
 * that size). */
#define HC_TIE 2e-7f
/* An edge axis must be shallower than the best face by this fraction plus a
 * linear tolerance (1 mm, at most 5 % of the hull's inner radius). */
#define HC_EDGE_REL_TOL 0.05f
#define HC_EDGE_LINEAR_TOL 1e-3f
#define HC_EDGE_LINEAR_TOL_SIZE_FRACTION 0.05f

#define HC_HULL_FACE 1u
#define HC_HULL_EDGE 2u
#define HC_HULL_VERTEX 3u
#define HC_HULL_TYPE_SHIFT 10u
#define HC_HULL_INDEX_MASK 0x3ffu
#define HC_CAPSULE_SHIFT 12u

#define HC_CAPSULE_END0 0u
#define HC_CAPSULE_END1 1u
#define HC_CAPSULE_SIDE 2u
#define HC_CAPSULE_LINE_END0 3u
#define HC_CAPSULE_LINE_END1 4u

/* The pair in the hull's frame: the segment centre + u s, s in [-half,
 * half], u unit. */
typedef struct {
    const vx_hull *h;
    vx_vec3 centre, u;
    float half, radius, margin, tol, tie;
} pair;

/* Up to two points (on the hull) with the normal from the hull to the
 * capsule, in the hull's frame. */
typedef struct {
    vx_vec3 normal;
    int count;
    vx_vec3 on_hull[2], on_capsule[2];
    float depth[2];
    uint32_t id[2];
} contact;

/* The exact closest points of the segment (parameter s, point p) and the
 * hull (point q and its feature, type << HC_HULL_TYPE_SHIFT | index). */
typedef struct {
    float dist_sq, s;
    vx_vec3 p, q;
    uint32_t feature;
} closest;

static float clampf(float v, float lo, float hi) { return v < lo ? lo : (v > hi ? hi : v); }

static vx_vec3 seg_at(const pair *c, float s) { return vx_vec3_add(c->centre, vx_vec3_scale(c->u, s)); }

static vx_vec3 vertex(const vx_hull *h, int half_edge) { return h->vertices[h->edges[half_edge].origin]; }

static uint32_t hull_feature(uint32_t type, int index) { return (type << HC_HULL_TYPE_SHIFT) | (uint32_t)index; }

static uint32_t feature_id(uint32_t on_capsule, uint32_t on_hull)
{
    return (VX_FEATURE_KIND_HULL_CAPSULE << VX_FEATURE_KIND_SHIFT) | (on_capsule << HC_CAPSULE_SHIFT) | on_hull;
}

static uint32_t segment_feature(float s, float half)
{
    if (s <= -half) return HC_CAPSULE_END0;
    if (s >= half) return HC_CAPSULE_END1;
    return HC_CAPSULE_SIDE;
}

/* Keeps of [*lo, *hi] the parameters s with a + b s <= 0; false when
 * nothing is left. */
static bool clip_halfspace(float a, float b, float *lo, float *hi)
{
    if (b == 0.0f) {
        if (a > 0.0f) return false;
    } else if (b > 0.0f) {
        *hi = vx_collide_minf(*hi, -a / b);
    } else {
        *lo = vx_collide_maxf(*lo, -a / b);
    }
    return *lo <= *hi;
}

/* The outward unit normal of the side plane through the face edge from
 * half-edge he (its origin is on the plane). */
static vx_vec3 side_normal(const vx_hull *h, int he, vx_vec3 face_normal)
{
    vx_vec3 edge = vx_vec3_sub(vertex(h, h->edges[he].twin), vertex(h, he));
    return vx_vec3_normalize(vx_vec3_cross(edge, face_normal));
}

/* How far p lies outside the polygon of face f seen along its normal: the
 * largest distance beyond its side planes (negative inside). */
static float face_excess(const vx_hull *h, int f, vx_vec3 p)
{
    const vx_hull_face *face = &h->faces[f];
    float excess = -INFINITY;
    int he = face->first_edge;
    for (int k = 0; k < face->edge_count; k++, he = h->edges[he].next) {
        vx_vec3 sn = side_normal(h, he, face->normal);
        excess = vx_collide_maxf(excess, vx_vec3_dot(sn, vx_vec3_sub(p, vertex(h, he))));
    }
    return excess;
}

/* The point of the segment [a, b] nearest p. */
static vx_vec3 closest_on_edge(vx_vec3 a, vx_vec3 b, vx_vec3 p)
{
    vx_vec3 d = vx_vec3_sub(b, a);
    float dd = vx_vec3_length_sq(d);
    float t = dd > 0.0f ? clampf(vx_vec3_dot(vx_vec3_sub(p, a), d) / dd, 0.0f, 1.0f) : 0.0f;
    return vx_vec3_add(a, vx_vec3_scale(d, t));
}

/* q (on face f's plane) moved to the nearest point of the face's polygon
 * when it lies outside it; the lowest edge on ties. */
static vx_vec3 clamp_to_face(const vx_hull *h, int f, vx_vec3 q)
{
    if (!(face_excess(h, f, q) > 0.0f)) return q;
    const vx_hull_face *face = &h->faces[f];
    vx_vec3 best = q;
    float best_sq = INFINITY;
    int he = face->first_edge;
    for (int k = 0; k < face->edge_count; k++, he = h->edges[he].next) {
        vx_vec3 on = closest_on_edge(vertex(h, he), vertex(h, h->edges[he].twin), q);
        float dsq = vx_vec3_length_sq(vx_vec3_sub(on, q));
        if (dsq < best_sq) {
            best_sq = dsq;
            best = on;
        }
    }
    return best;
}

/* The part [*lo, *hi] of the segment within face f's side planes moved out
 * by tol; false when there is none. */
static bool clip_to_face(const pair *c, int f, float *lo, float *hi)
{
    const vx_hull *h = c->h;
    const vx_hull_face *face = &h->faces[f];
    *lo = -c->half;
    *hi = c->half;
    bool any = true;
    int he = face->first_edge;
    for (int k = 0; k < face->edge_count && any; k++, he = h->edges[he].next) {
        vx_vec3 sn = side_normal(h, he, face->normal);
        float a = vx_vec3_dot(sn, vx_vec3_sub(c->centre, vertex(h, he))) - c->tol;
        any = clip_halfspace(a, vx_vec3_dot(sn, c->u), lo, hi);
    }
    return any;
}

static void add_point(const pair *c, contact *ct, vx_vec3 on_hull, float depth, uint32_t id)
{
    if (!(depth > -c->margin) || ct->count >= 2) return;
    ct->on_hull[ct->count] = on_hull;
    ct->on_capsule[ct->count] = vx_vec3_sub(on_hull, vx_vec3_scale(ct->normal, depth));
    ct->depth[ct->count] = depth;
    ct->id[ct->count] = id;
    ct->count++;
}

/* Height of the segment point at s above face f's plane. */
static float face_height(const pair *c, int f, float s)
{
    return vx_vec3_dot(c->h->faces[f].normal, seg_at(c, s)) - c->h->faces[f].offset;
}

/* The point of face f under the segment point at s (on the face's polygon)
 * with the radius less the height as its depth. */
static void add_face_point(const pair *c, int f, float s, uint32_t on_capsule, contact *ct)
{
    float height = face_height(c, f, s);
    vx_vec3 below = vx_vec3_sub(seg_at(c, s), vx_vec3_scale(c->h->faces[f].normal, height));
    add_point(c, ct, clamp_to_face(c->h, f, below), c->radius - height,
              feature_id(on_capsule, hull_feature(HC_HULL_FACE, f)));
}

/* Contact with face f, normal its outward one. A capsule lying along the
 * face gives the ends of its segment clipped to the face's side planes;
 * otherwise one point at s_single, or (deepest) at the deeper end of the
 * clipped segment (of the whole one when nothing is left). Each point's
 * depth is the radius less its own height above the plane; its hull point
 * is on the face. */
static void face_contact(const pair *c, int f, float s_single, bool deepest, contact *ct)
{
    ct->normal = c->h->faces[f].normal;
    float lo, hi;
    bool clipped = clip_to_face(c, f, &lo, &hi);
    if (clipped && fabsf(vx_vec3_dot(c->u, ct->normal)) <= HC_FLAT_SIN && hi - lo >= HC_MIN_SPAN) {
        add_face_point(c, f, lo, HC_CAPSULE_LINE_END0, ct);
        add_face_point(c, f, hi, HC_CAPSULE_LINE_END1, ct);
        return;
    }
    if (deepest) {
        float a = clipped ? lo : -c->half;
        float b = clipped ? hi : c->half;
        s_single = face_height(c, f, a) <= face_height(c, f, b) ? a : b;
    }
    add_face_point(c, f, s_single, segment_feature(s_single, c->half), ct);
}

/* The parameter in [lo, hi] of the segment point nearest the line of edge
 * k (the middle when they are parallel). */
static float nearest_to_edge_line(const pair *c, int k, float lo, float hi)
{
    vx_vec3 v0 = vertex(c->h, 2 * k);
    vx_vec3 w = vx_vec3_normalize(vx_vec3_sub(vertex(c->h, 2 * k + 1), v0));
    vx_vec3 u_perp = vx_vec3_sub(c->u, vx_vec3_scale(w, vx_vec3_dot(w, c->u)));
    vx_vec3 r = vx_vec3_sub(c->centre, v0);
    vx_vec3 r_perp = vx_vec3_sub(r, vx_vec3_scale(w, vx_vec3_dot(w, r)));
    float den = vx_vec3_dot(u_perp, u_perp);
    return den > 0.0f ? clampf(-vx_vec3_dot(u_perp, r_perp) / den, lo, hi) : 0.5f * (lo + hi);
}

/* The part [*lo, *hi] of the segment beside edge k: between the planes
 * through its ends perpendicular to it, moved out by tol. */
static bool clip_to_edge(const pair *c, int k, float *lo, float *hi)
{
    vx_vec3 v0 = vertex(c->h, 2 * k);
    vx_vec3 e = vx_vec3_sub(vertex(c->h, 2 * k + 1), v0);
    float len = vx_vec3_length(e);
    if (!(len > 0.0f)) return false;
    vx_vec3 w = vx_vec3_scale(e, 1.0f / len);
    float along = vx_vec3_dot(c->u, w);
    float at = vx_vec3_dot(w, vx_vec3_sub(c->centre, v0));
    *lo = -c->half;
    *hi = c->half;
    return clip_halfspace(-at - c->tol, -along, lo, hi) && clip_halfspace(at - len - c->tol, along, lo, hi);
}

/* The point of edge k nearest the segment point at s, with the radius less
 * their distance as its depth. */
static void add_edge_point(const pair *c, int k, float s, uint32_t on_capsule, contact *ct)
{
    vx_vec3 p = seg_at(c, s);
    vx_vec3 q = closest_on_edge(vertex(c->h, 2 * k), vertex(c->h, 2 * k + 1), p);
    add_point(c, ct, q, c->radius - vx_vec3_length(vx_vec3_sub(p, q)),
              feature_id(on_capsule, hull_feature(HC_HULL_EDGE, k)));
}

/* A capsule lying along edge k, beside it: its segment clipped to the
 * edge's length (plus tol) gives two points, each with its own distance to
 * the edge, under the normal already in ct. Nothing when it is not along. */
static void edge_line_contact(const pair *c, int k, contact *ct)
{
    vx_vec3 v0 = vertex(c->h, 2 * k), v1 = vertex(c->h, 2 * k + 1);
    float along = vx_vec3_dot(c->u, vx_vec3_normalize(vx_vec3_sub(v1, v0)));
    float across_sq = vx_vec3_length_sq(c->u) - along * along;
    if (!(across_sq <= HC_FLAT_SIN * HC_FLAT_SIN)) return;
    float lo, hi;
    if (!clip_to_edge(c, k, &lo, &hi) || hi - lo < HC_MIN_SPAN) return;
    add_edge_point(c, k, lo, HC_CAPSULE_LINE_END0, ct);
    add_edge_point(c, k, hi, HC_CAPSULE_LINE_END1, ct);
}

/* Whether the segment meets the solid hull (is below every face plane
 * somewhere). */
static bool segment_meets_hull(const pair *c)
{
    const vx_hull *h = c->h;
    float lo = -c->half, hi = c->half;
    for (int f = 0; f < h->face_count; f++) {
        vx_vec3 n = h->faces[f].normal;
        if (!clip_halfspace(vx_vec3_dot(n, c->centre) - h->faces[f].offset, vx_vec3_dot(n, c->u), &lo, &hi))
            return false;
    }
    return true;
}

static void consider(closest *best, float s, vx_vec3 p, vx_vec3 q, uint32_t feature)
{
    float dsq = vx_vec3_length_sq(vx_vec3_sub(p, q));
    if (!(dsq < best->dist_sq)) return;
    best->dist_sq = dsq;
    best->s = s;
    best->p = p;
    best->q = q;
    best->feature = feature;
}

static closest no_points(const pair *c)
{
    closest none;
    none.dist_sq = INFINITY;
    none.s = 0.0f;
    none.p = none.q = c->centre;
    none.feature = hull_feature(HC_HULL_VERTEX, 0);
    return none;
}

/* The closest points of a segment clear of the hull, region by region (the
 * hull's features' Voronoi regions, widened by tol): over a face, the
 * lowest point of the segment clipped to its side planes; beside an edge,
 * the point of the segment clipped to the edge's length nearest its line;
 * a vertex, the segment point nearest it. The nearest of the three kinds,
 * where an edge must beat a face, and a vertex both, by more than tie: a
 * capsule lying over a face's rim is about as near the rim as the face (a
 * tilt of 1e-3 makes the rim nearer by 5e-7 of the distance), and the face
 * is the contact that stays. In a kind, lower indices win ties. */
static closest closest_points(const pair *c)
{
    const vx_hull *h = c->h;
    closest by[3] = {no_points(c), no_points(c), no_points(c)};
    for (int f = 0; f < h->face_count; f++) {
        float lo, hi;
        if (!clip_to_face(c, f, &lo, &hi)) continue;
        float s = face_height(c, f, lo) <= face_height(c, f, hi) ? lo : hi;
        float height = face_height(c, f, s);
        if (!(height > 0.0f)) continue;
        vx_vec3 p = seg_at(c, s);
        consider(&by[0], s, p, vx_vec3_sub(p, vx_vec3_scale(h->faces[f].normal, height)),
                 hull_feature(HC_HULL_FACE, f));
    }
    for (int k = 0; k < h->edge_count / 2; k++) {
        float lo, hi;
        if (!clip_to_edge(c, k, &lo, &hi)) continue;
        float s = nearest_to_edge_line(c, k, lo, hi);
        vx_vec3 p = seg_at(c, s);
        consider(&by[1], s, p, closest_on_edge(vertex(h, 2 * k), vertex(h, 2 * k + 1), p),
                 hull_feature(HC_HULL_EDGE, k));
    }
    for (int v = 0; v < h->vertex_count; v++) {
        vx_vec3 q = h->vertices[v];
        float s = clampf(vx_vec3_dot(c->u, vx_vec3_sub(q, c->centre)), -c->half, c->half);
        consider(&by[2], s, seg_at(c, s), q, hull_feature(HC_HULL_VERTEX, v));
    }
    closest best = by[0];
    for (int kind = 1; kind < 3; kind++)
        if (sqrtf(by[kind].dist_sq) + c->tie < sqrtf(best.dist_sq)) best = by[kind];
    return best;
}

/* Depth of the capsule into the hull along the unit n (from the hull to the
 * capsule), given the hull's reach along n. */
static float sat_depth(const pair *c, vx_vec3 n, float hull_reach)
{
    float a = vx_vec3_dot(n, seg_at(c, -c->half));
    float b = vx_vec3_dot(n, seg_at(c, c->half));
    return hull_reach + c->radius - vx_collide_minf(a, b);
}

/* Touching or overlapping: the least penetration over the face normals and
 * the edge axes, faces preferred. */
static void sat_contact(const pair *c, contact *ct)
{
    const vx_hull *h = c->h;
    int best_face = 0;
    float face_depth = 0.0f;
    for (int f = 0; f < h->face_count; f++) {
        float depth = sat_depth(c, h->faces[f].normal, h->faces[f].offset);
        if (f == 0 || depth < face_depth) {
            best_face = f;
            face_depth = depth;
        }
    }

    int best_edge = -1;
    vx_vec3 edge_n = vx_vec3_zero();
    float edge_depth = 0.0f;
    for (int k = 0; k < h->edge_count / 2; k++) {
        vx_vec3 v0 = vertex(h, 2 * k);
        vx_vec3 w = vx_vec3_normalize(vx_vec3_sub(vertex(h, 2 * k + 1), v0));
        vx_vec3 axis = vx_vec3_cross(c->u, w);
        float len_sq = vx_vec3_length_sq(axis);
        if (!(len_sq >= HC_EDGE_AXIS_MIN_SQ)) continue;
        /* The edge's arc (between its faces' normals) must cross the great
         * circle of directions perpendicular to the segment. */
        vx_vec3 na = h->faces[h->edges[2 * k].face].normal, nb = h->faces[h->edges[2 * k + 1].face].normal;
        if (!(vx_vec3_dot(na, c->u) * vx_vec3_dot(nb, c->u) < 0.0f)) continue;
        axis = vx_vec3_scale(axis, 1.0f / sqrtf(len_sq));
        if (vx_vec3_dot(axis, vx_vec3_add(na, nb)) < 0.0f) axis = vx_vec3_neg(axis);
        float depth = sat_depth(c, axis, vx_vec3_dot(axis, v0));
        if (best_edge < 0 || depth < edge_depth) {
            best_edge = k;
            edge_n = axis;
            edge_depth = depth;
        }
    }

    float lin_tol = vx_collide_minf(HC_EDGE_LINEAR_TOL, HC_EDGE_LINEAR_TOL_SIZE_FRACTION * h->inner_radius);
    bool use_edge = best_edge >= 0 && edge_depth + HC_EDGE_REL_TOL * fabsf(face_depth) + lin_tol < face_depth;
    if (!use_edge) {
        face_contact(c, best_face, 0.0f, true, ct);
        return;
    }

    /* The segment point nearest the edge's line, and the edge point beside
     * it. */
    float s = nearest_to_edge_line(c, best_edge, -c->half, c->half);
    vx_vec3 v0 = vertex(h, 2 * best_edge), v1 = vertex(h, 2 * best_edge + 1);
    ct->normal = edge_n;
    add_point(c, ct, closest_on_edge(v0, v1, seg_at(c, s)), edge_depth,
              feature_id(segment_feature(s, c->half), hull_feature(HC_HULL_EDGE, best_edge)));
}

bool vx_collide_hull_capsule(const vx_hull *hull, const vx_transform *pose, const vx_transform *capsule_pose,
                             float radius, float half_height, float margin, vx_manifold *out)
{
    vx_manifold_reset(out);

    vx_obb frame;
    vx_obb_init(&frame, pose, vx_vec3_zero());
    vx_vec3 axis = vx_collide_axis_y(vx_collide_rotation(capsule_pose));
    vx_vec3 bounds = vx_vec3_sub(hull->bounds.max, hull->bounds.min);
    float size = 0.5f * vx_collide_maxf(bounds.x, vx_collide_maxf(bounds.y, bounds.z));

    pair c;
    c.h = hull;
    c.centre = vx_obb_to_local(&frame, capsule_pose->position);
    c.u = vx_vec3_make(vx_vec3_dot(axis, frame.axis[0]), vx_vec3_dot(axis, frame.axis[1]),
                       vx_vec3_dot(axis, frame.axis[2]));
    c.half = half_height > 0.0f ? half_height : 0.0f;
    c.radius = radius;
    c.margin = vx_collide_sanitize_margin(margin);
    c.tol = HC_TOL * vx_collide_maxf(1.0f, size);
    c.tie = HC_TIE * vx_collide_maxf(1.0f, size);

    contact ct;
    memset(&ct, 0, sizeof ct);
    bool done = false;
    if (!segment_meets_hull(&c)) {
        closest cl = closest_points(&c);
        if (cl.dist_sq > c.tol * c.tol) {
            float dist = sqrtf(cl.dist_sq);
            if (!(radius - dist > -c.margin)) return false;
            uint32_t type = cl.feature >> HC_HULL_TYPE_SHIFT;
            int index = (int)(cl.feature & HC_HULL_INDEX_MASK);
            if (type == HC_HULL_FACE) {
                face_contact(&c, index, cl.s, false, &ct);
            } else {
                /* Beside an edge or a vertex: from the hull's point to the
                 * segment's. */
                ct.normal = vx_vec3_scale(vx_vec3_sub(cl.p, cl.q), 1.0f / dist);
                if (type == HC_HULL_EDGE) edge_line_contact(&c, index, &ct);
                if (ct.count == 0)
                    add_point(&c, &ct, cl.q, radius - dist, feature_id(segment_feature(cl.s, c.half), cl.feature));
            }
            done = true;
        }
    }
    if (!done) sat_contact(&c, &ct);
    if (ct.count == 0) return false;

    vx_vec3 n = vx_vec3_zero();
    for (int i = 0; i < 3; i++) n = vx_vec3_add(n, vx_vec3_scale(frame.axis[i], vx_vec3_get(ct.normal, i)));
    out->normal = n;
    for (int i = 0; i < ct.count; i++)
        vx_manifold_push(out, vx_obb_to_world(&frame, ct.on_hull[i]), vx_obb_to_world(&frame, ct.on_capsule[i]),
                         ct.depth[i], ct.id[i]);
    vx_manifold_sort_by_feature(out);
    return true;
}
