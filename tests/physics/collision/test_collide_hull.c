/* Hull narrow phase (src/physics/collision/collide_hull.c).
 *
 * The oracle: a hull built from a box's 8 corners must give the box-box
 * contact (vx_collide_box_box) for the same poses, through hull-hull and
 * hull-box: same hit, normal, depths and point set (as sets: the feature ids
 * differ) over thousands of random poses, resting stacks and brick rows,
 * quarter turns and edges across edges; hull-sphere against
 * vx_collide_sphere_box. Where
 * two answers are both right the comparison says why and counts it:
 * rounding decides between equally good axes or reduction candidates, a
 * contact patch flush with a side face has no stable shape, a pair at the
 * margin is in or out by a hair. Then a tetrahedron and an icosahedron
 * against each other and spheres, measured against brute-force distances,
 * the contract's invariants, points on both surfaces, feature ids that stay
 * under 1e-5 moves and when the incident face changes, no hit beyond the
 * margin, and the same bits twice. */
#include <criterion/criterion.h>
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "physics/body/hull.h"
#include "physics/collision/collide_internal.h"
#include "test_helpers.h"
#include "test_hull_helpers.h"
#include "voltex/collide.h"

#define PI_F 3.14159265358979f

static vx_vec3 v3(float x, float y, float z) { return vx_vec3_make(x, y, z); }
static float rnd(vx_test_rng *r, float lo, float hi) { return vx_test_rng_range(r, lo, hi); }

static vx_vec3 random_half(vx_test_rng *r, float lo, float hi)
{
    float x = rnd(r, lo, hi), y = rnd(r, lo, hi), z = rnd(r, lo, hi);
    return v3(x, y, z);
}

/* A small turn about a random axis: angles from 1e-6 to 1e-2 rad. */
static vx_quat small_turn(vx_test_rng *r)
{
    vx_vec3 axis = vx_test_random_unit(r);
    float angle = powf(10.0f, rnd(r, -6.0f, -2.0f));
    return vx_quat_from_axis_angle(axis, angle);
}

/* One of the 24 rotations of the cube, as a product of quarter turns. */
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

static float dist3(vx_vec3 a, vx_vec3 b) { return vx_vec3_length(vx_vec3_sub(a, b)); }

/* ================= the contract ================= */

/* 1..4 points, unit normal, depth > -margin, point_a - point_b = normal *
 * depth, ids distinct, sorted and of one of the hull kinds. */
static void assert_contract(const vx_manifold *m, float margin, float tol)
{
    cr_assert(m->count >= 1 && m->count <= VX_MANIFOLD_MAX_POINTS, "count %d", m->count);
    cr_assert(vx_vec3_is_finite(m->normal));
    VX_ASSERT_NEAR(vx_vec3_length(m->normal), 1.0f, 1e-5);
    for (int i = 0; i < m->count; i++) {
        const vx_manifold_point *p = &m->points[i];
        cr_assert(vx_vec3_is_finite(p->point_a) && vx_vec3_is_finite(p->point_b) && isfinite(p->depth));
        cr_assert_gt(p->depth, -margin, "point %d depth %g margin %g", i, (double)p->depth, (double)margin);
        vx_vec3 d = vx_vec3_sub(p->point_a, p->point_b);
        vx_vec3 nd = vx_vec3_scale(m->normal, p->depth);
        cr_assert_leq(dist3(d, nd), tol, "point %d: a - b is %g off normal * depth", i, (double)dist3(d, nd));
        uint32_t kind = p->feature >> VX_FEATURE_KIND_SHIFT;
        cr_assert(kind >= VX_FEATURE_KIND_HULL_FACE && kind <= VX_FEATURE_KIND_HULL_CAPSULE, "feature %x",
                  p->feature);
        if (i > 0) cr_assert_gt(p->feature, m->points[i - 1].feature, "ids not sorted or not distinct");
    }
}

/* How far p lies outside the hull at pose t: the largest signed distance to
 * its face planes (0 on the surface, negative inside). */
static double hull_plane_excess(const vx_hull *h, const vx_transform *t, vx_vec3 p)
{
    vx_quat q = vx_quat_normalize(t->rotation);
    vx_vec3 local = vx_quat_rotate(vx_quat_conjugate(q), vx_vec3_sub(p, t->position));
    double best = -DBL_MAX;
    for (int f = 0; f < h->face_count; f++) {
        vx_vec3 n = h->faces[f].normal;
        double s = (double)n.x * local.x + (double)n.y * local.y + (double)n.z * local.z - h->faces[f].offset;
        if (s > best) best = s;
    }
    return best;
}

/* ================= boxes in double, for the comparison ================= */

typedef struct {
    double c[3], ax[3][3], h[3];
} dbox;

static dbox dbox_of(const vx_transform *t, vx_vec3 half)
{
    dbox b;
    vx_quat q = vx_quat_is_finite(t->rotation) ? vx_quat_normalize(t->rotation) : vx_quat_identity();
    vx_mat3 r = vx_mat3_from_quat(q);
    for (int i = 0; i < 3; i++) {
        b.c[i] = vx_vec3_get(t->position, i);
        b.h[i] = vx_vec3_get(half, i);
        for (int k = 0; k < 3; k++) b.ax[i][k] = r.m[k][i];
    }
    return b;
}

static double dot3(const double a[3], const double b[3]) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }

/* Separation of b from a along the unit n (from a to b). */
static double dbox_sep(const dbox *a, const dbox *b, const double n[3])
{
    double d[3] = {b->c[0] - a->c[0], b->c[1] - a->c[1], b->c[2] - a->c[2]};
    double s = dot3(n, d);
    for (int i = 0; i < 3; i++) s -= a->h[i] * fabs(dot3(n, a->ax[i])) + b->h[i] * fabs(dot3(n, b->ax[i]));
    return s;
}

static double dbox_sep_f(const dbox *a, const dbox *b, vx_vec3 n)
{
    double nd[3] = {n.x, n.y, n.z};
    return dbox_sep(a, b, nd);
}

/* The SAT's answers in double: best face of a, of b, best edge axis (the
 * two signs of every axis; edges within 1e-3 of parallel skipped), and the
 * smallest sine of the edge axes taken. */
typedef struct {
    double face_a, face_b, edge, best, min_sine;
} dsat;

static double axis_sep(const dbox *a, const dbox *b, const double n[3])
{
    double m[3] = {-n[0], -n[1], -n[2]};
    return fmax(dbox_sep(a, b, n), dbox_sep(a, b, m));
}

static dsat dbox_sat(const dbox *a, const dbox *b)
{
    dsat s = {-DBL_MAX, -DBL_MAX, -DBL_MAX, 0.0, 1.0};
    for (int i = 0; i < 3; i++) {
        s.face_a = fmax(s.face_a, axis_sep(a, b, a->ax[i]));
        s.face_b = fmax(s.face_b, axis_sep(a, b, b->ax[i]));
        for (int j = 0; j < 3; j++) {
            const double *u = a->ax[i], *w = b->ax[j];
            double c[3] = {u[1] * w[2] - u[2] * w[1], u[2] * w[0] - u[0] * w[2], u[0] * w[1] - u[1] * w[0]};
            double len = sqrt(dot3(c, c));
            if (len < 1e-3) continue;
            for (int k = 0; k < 3; k++) c[k] /= len;
            s.edge = fmax(s.edge, axis_sep(a, b, c));
            s.min_sine = fmin(s.min_sine, len);
        }
    }
    s.best = fmax(fmax(s.face_a, s.face_b), s.edge);
    return s;
}

/* Smallest sine between an axis of a and one of b that are not parallel:
 * where nearly parallel edges cross, rounding moves the crossing by the
 * rounding over the sine. */
static double smallest_sine(const dbox *a, const dbox *b)
{
    double s_min = 1.0;
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) {
            const double *u = a->ax[i], *w = b->ax[j];
            double c[3] = {u[1] * w[2] - u[2] * w[1], u[2] * w[0] - u[0] * w[2], u[0] * w[1] - u[1] * w[0]};
            double s = sqrt(dot3(c, c));
            if (s > 1e-6 && s < s_min) s_min = s;
        }
    return s_min;
}

/* ================= comparing two manifolds as sets ================= */

/* Distinct locations of a manifold's points (closer than tol: one). */
static int locations(const vx_manifold *m, float tol, int *rep)
{
    int n = 0;
    for (int i = 0; i < m->count; i++) {
        bool seen = false;
        for (int j = 0; j < n && !seen; j++)
            seen = dist3(m->points[i].point_a, m->points[rep[j]].point_a) <= tol &&
                   dist3(m->points[i].point_b, m->points[rep[j]].point_b) <= tol;
        if (!seen) rep[n++] = i;
    }
    return n;
}

/* The same points (as sets, each within tol_p and its depth within tol). */
static bool same_points(const vx_manifold *w, const vx_manifold *g, float tol, float tol_p, float *max_point,
                        float *max_depth)
{
    if (w->count != g->count) return false;
    bool used[VX_MANIFOLD_MAX_POINTS] = {false};
    float mp = 0.0f, md = 0.0f;
    for (int i = 0; i < w->count; i++) {
        const vx_manifold_point *p = &w->points[i];
        int found = -1;
        float best = 0.0f;
        for (int j = 0; j < g->count; j++) {
            const vx_manifold_point *q = &g->points[j];
            float d = fmaxf(dist3(p->point_a, q->point_a), dist3(p->point_b, q->point_b));
            if (used[j] || d > tol_p || fabsf(p->depth - q->depth) > tol) continue;
            if (found < 0 || d < best) {
                found = j;
                best = d;
            }
        }
        if (found < 0) return false;
        used[found] = true;
        mp = fmaxf(mp, best);
        md = fmaxf(md, fabsf(p->depth - g->points[found].depth));
    }
    *max_point = mp;
    *max_depth = md;
    return true;
}

/* The reduction to 4 points (box-box's: deepest, farthest from it, largest
 * triangle, most area added) replayed on the union of both answers with
 * every near tie (1e-4 relative, plus tol) followed: true when both answers
 * are among its outcomes, i.e. they differ only by how rounding broke a tie.
 * on[] are the points on the reference face. */
typedef struct {
    vx_vec3 on[8];
    float depth[8];
    int n;
    vx_vec3 normal;
    float tol;
    unsigned outcomes[4096];
    int n_outcomes;
} replay;

static float replay_value(const replay *r, const int *kept, int step, int k)
{
    vx_vec3 p = r->on[k];
    if (step == 0) return r->depth[k];
    vx_vec3 p0 = r->on[kept[0]];
    if (step == 1) return vx_vec3_length_sq(vx_vec3_sub(p, p0));
    vx_vec3 p1 = r->on[kept[1]];
    vx_vec3 e01 = vx_vec3_sub(p1, p0);
    if (step == 2) return fabsf(vx_vec3_dot(vx_vec3_cross(e01, vx_vec3_sub(p, p0)), r->normal));
    vx_vec3 tri[3] = {p0, p1, r->on[kept[2]]};
    float s2 = vx_vec3_dot(vx_vec3_cross(e01, vx_vec3_sub(tri[2], p0)), r->normal);
    float winding = s2 < 0.0f ? -1.0f : 1.0f;
    float min_area = 0.0f;
    for (int e = 0; e < 3; e++) {
        vx_vec3 edge = vx_vec3_sub(tri[e < 2 ? e + 1 : 0], tri[e]);
        float s = winding * vx_vec3_dot(vx_vec3_cross(edge, vx_vec3_sub(p, tri[e])), r->normal);
        if (e == 0 || s < min_area) min_area = s;
    }
    return -min_area;
}

static void replay_step(replay *r, int *kept, int step, unsigned mask)
{
    if (step == 4) {
        if (r->n_outcomes < 4096) r->outcomes[r->n_outcomes++] = mask;
        return;
    }
    float best = -FLT_MAX;
    for (int k = 0; k < r->n; k++)
        if (!(mask & (1u << k))) best = fmaxf(best, replay_value(r, kept, step, k));
    float slack = 1e-4f * fabsf(best) + (step == 0 ? r->tol : step == 1 ? r->tol * r->tol * 4.0f : r->tol * 4.0f);
    for (int k = 0; k < r->n; k++) {
        if (mask & (1u << k)) continue;
        if (replay_value(r, kept, step, k) < best - slack) continue;
        kept[step] = k;
        replay_step(r, kept, step + 1, mask | (1u << k));
    }
}

static int union_index(replay *r, vx_vec3 p, float depth)
{
    for (int k = 0; k < r->n; k++)
        if (dist3(r->on[k], p) <= r->tol) return k;
    if (r->n >= 8) return -1;
    r->on[r->n] = p;
    r->depth[r->n] = depth;
    return r->n++;
}

static bool reduction_tie(const vx_manifold *w, bool w_ref_b, const vx_manifold *g, bool g_ref_b, float tol)
{
    if (w->count != 4 || g->count != 4 || w_ref_b != g_ref_b) return false;
    static replay r;
    memset(&r, 0, sizeof r);
    r.normal = w->normal;
    r.tol = tol;
    unsigned mw = 0, mg = 0;
    for (int i = 0; i < 4; i++) {
        int kw = union_index(&r, w_ref_b ? w->points[i].point_b : w->points[i].point_a, w->points[i].depth);
        int kg = union_index(&r, g_ref_b ? g->points[i].point_b : g->points[i].point_a, g->points[i].depth);
        if (kw < 0 || kg < 0) return false;
        mw |= 1u << kw;
        mg |= 1u << kg;
    }
    int kept[4];
    replay_step(&r, kept, 0, 0u);
    bool found_w = false, found_g = false;
    for (int i = 0; i < r.n_outcomes; i++) {
        found_w = found_w || r.outcomes[i] == mw;
        found_g = found_g || r.outcomes[i] == mg;
    }
    return found_w && found_g;
}

/* ================= box-box against hull-hull and hull-box ================= */

typedef struct {
    int calls, hits, same;
    int face4, edge;            /* of the exact agreements: 4-point face contacts, edge contacts */
    int near_margin;            /* in or out by a hair at the margin */
    int axis_tie;               /* two equally good axes, or a preference at its threshold */
    int reduction_tie;          /* the same candidates, a tie broken otherwise in the reduction */
    int flush;                  /* contact patch flush with a side face: no stable shape */
    int coincident;             /* the same locations, one side with two points at one */
    int incident_tie;           /* the incident box at 45 degrees: two faces equally incident */
    int edge_tie;               /* an edge contact along a face normal: which edges is a tie */
    float max_normal, max_depth; /* over the exact agreements */
    float max_point;            /* over the exact agreements with edges crossing at more than 3 degrees */
} agreement;

static bool feature_ref_b(const vx_manifold *m, bool box_box)
{
    uint32_t f = m->points[0].feature;
    if (box_box) return (f >> VX_FEATURE_KIND_SHIFT) == VX_FEATURE_KIND_BOX_FACE && (f & (1u << 16));
    return (f >> VX_FEATURE_KIND_SHIFT) == VX_FEATURE_KIND_HULL_FACE && (f & (1u << 23));
}

static bool on_box_surface(const dbox *b, vx_vec3 p, double tol)
{
    double d[3] = {p.x - b->c[0], p.y - b->c[1], p.z - b->c[2]};
    double excess = -DBL_MAX;
    for (int i = 0; i < 3; i++) excess = fmax(excess, fabs(dot3(d, b->ax[i])) - b->h[i]);
    return fabs(excess) <= tol;
}

/* An edge-edge contact not touching yet: its edges' closest points may be
 * clamped to their ends, and then (as box-box's) they are set along the
 * normal around their midpoint, off the surfaces. */
static bool speculative_edge(const vx_manifold *m)
{
    return (m->points[0].feature >> VX_FEATURE_KIND_SHIFT) == VX_FEATURE_KIND_HULL_EDGE && m->points[0].depth < 0.0f;
}

/* The manifold without its points at the margin (depth within tol of
 * -margin): rounding keeps or drops those. */
static vx_manifold without_margin_points(const vx_manifold *m, float margin, float tol)
{
    vx_manifold out = *m;
    out.count = 0;
    for (int i = 0; i < m->count; i++)
        if (m->points[i].depth > -margin + tol) out.points[out.count++] = m->points[i];
    return out;
}

/* The manifold with one point per location (closer than tol: one). */
static vx_manifold unique_locations(const vx_manifold *m, float tol)
{
    int rep[VX_MANIFOLD_MAX_POINTS];
    int n = locations(m, tol, rep);
    vx_manifold out = *m;
    out.count = n;
    for (int i = 0; i < n; i++) out.points[i] = m->points[rep[i]];
    return out;
}

/* Box-box's incident box has two faces within 2e-3 (cosine) of the most
 * anti-parallel to the normal: which one is incident is a tie. */
static bool incident_tie(const vx_manifold *w, const dbox *da, const dbox *db)
{
    uint32_t f = w->points[0].feature;
    if ((f >> VX_FEATURE_KIND_SHIFT) != VX_FEATURE_KIND_BOX_FACE) return false;
    const dbox *inc = (f & (1u << 16)) ? da : db;
    double n[3] = {w->normal.x, w->normal.y, w->normal.z};
    double d[3];
    for (int i = 0; i < 3; i++) d[i] = fabs(dot3(n, inc->ax[i]));
    double hi = fmax(d[0], fmax(d[1], d[2]));
    int close = 0;
    for (int i = 0; i < 3; i++) close += d[i] >= hi - 2e-3 ? 1 : 0;
    return close >= 2;
}

/* One answer of the hull side against box-box's. */
static void judge(const vx_transform *a, vx_vec3 ha, const vx_transform *b, vx_vec3 hb, float margin, bool hw,
                  const vx_manifold *w, bool hg, const vx_manifold *g, agreement *ag, const char *what)
{
    float scale = 1.0f + vx_vec3_length(a->position) + vx_vec3_length(ha) + vx_vec3_length(hb);
    float tol = 1e-5f * scale;
    dbox da = dbox_of(a, ha), db = dbox_of(b, hb);
    dsat s = dbox_sat(&da, &db);
    /* How far the epsilon of nearly parallel edges (both sides have one)
     * moves a separation, plus rounding. */
    double reach = ha.x + ha.y + ha.z + hb.x + hb.y + hb.z;
    double slack = tol + 2e-6 * reach / s.min_sine;
    double smallest = fmin(fmin(fmin(ha.x, ha.y), ha.z), fmin(fmin(hb.x, hb.y), hb.z));
    double lin = fmin(1e-3, 0.05 * smallest);
    char buf[512];
    snprintf(buf, sizeof buf,
             "%s: A p(%a %a %a) q(%a %a %a %a) h(%a %a %a) B p(%a %a %a) q(%a %a %a %a) h(%a %a %a) margin %a", what,
             (double)a->position.x, (double)a->position.y, (double)a->position.z, (double)a->rotation.x,
             (double)a->rotation.y, (double)a->rotation.z, (double)a->rotation.w, (double)ha.x, (double)ha.y,
             (double)ha.z, (double)b->position.x, (double)b->position.y, (double)b->position.z, (double)b->rotation.x,
             (double)b->rotation.y, (double)b->rotation.z, (double)b->rotation.w, (double)hb.x, (double)hb.y,
             (double)hb.z, (double)margin);

    ag->calls++;
    if (hw != hg) {
        /* Only a pair at the margin (or touching, margin 0) may go either way. */
        cr_assert(fabs(s.best - margin) <= slack, "hit %d, box-box %d; separation %g, margin %g: %s", hg, hw, s.best,
                  (double)margin, buf);
        ag->near_margin++;
        return;
    }
    if (!hw) return;
    ag->hits++;
    assert_contract(g, margin, tol);
    /* Edge contacts: their normal turns by the rounding over the edges'
     * sine, and the points with it. */
    bool edge_kind = (g->points[0].feature >> VX_FEATURE_KIND_SHIFT) == VX_FEATURE_KIND_HULL_EDGE;
    double surface_tol = 2.0 * tol / (edge_kind ? smallest_sine(&da, &db) : 1.0);
    for (int i = 0; i < g->count && !speculative_edge(g); i++) {
        cr_assert(on_box_surface(&da, g->points[i].point_a, surface_tol), "point_a %d off A: %s", i, buf);
        cr_assert(on_box_surface(&db, g->points[i].point_b, surface_tol), "point_b %d off B: %s", i, buf);
    }

    /* A face flush with a side face of the other box (beside the normal's
     * own axes): the patch's outline is decided by rounding. */
    bool flush = false;
    for (int i = 0; i < 3; i++) {
        if (fabs(fabs(dot3(da.ax[i], (double[3]){w->normal.x, w->normal.y, w->normal.z})) - 1.0) > 1e-6 &&
            fabs(axis_sep(&da, &db, da.ax[i])) <= slack)
            flush = true;
        if (fabs(fabs(dot3(db.ax[i], (double[3]){w->normal.x, w->normal.y, w->normal.z})) - 1.0) > 1e-6 &&
            fabs(axis_sep(&da, &db, db.ax[i])) <= slack)
            flush = true;
    }

    if (dist3(w->normal, g->normal) > tol) {
        double sw = dbox_sep_f(&da, &db, w->normal), sg = dbox_sep_f(&da, &db, g->normal);
        double face = fmax(s.face_a, s.face_b);
        bool tie = fabs(sw - sg) <= slack;
        bool edge_threshold = fabs(s.edge - (face + 0.05 * fabs(face) + lin)) <= slack;
        bool face_threshold = fabs(s.face_b - (s.face_a + 0.02 * fabs(s.face_a) + lin)) <= slack;
        /* Both must be axes the preferences may pick. */
        double worst = s.best - 0.05 * fabs(s.best) - lin - slack;
        cr_assert(sg >= worst, "normal along an axis %g (box-box %g) of best %g: %s", sg, sw, s.best,
                  buf);
        /* Box-box's face clipped to nothing and it fell back to an edge
         * pair the preferences would not pick; ours kept the face. */
        bool fallback = (w->points[0].feature >> VX_FEATURE_KIND_SHIFT) == VX_FEATURE_KIND_BOX_EDGE &&
                        s.edge <= face + 0.05 * fabs(face) + lin + slack;
        /* Ours fell back too, along the face normal, where box-box's edge
         * pair is a looser bound (its separation smaller). */
        bool ours_tighter = (g->points[0].feature >> VX_FEATURE_KIND_SHIFT) == VX_FEATURE_KIND_HULL_EDGE &&
                            sg >= sw - slack;
        fallback = fallback || ours_tighter;
        cr_assert(tie || edge_threshold || face_threshold || flush || fallback,
                  "other normal (%g %g %g), box-box (%g %g %g); separations %g, %g; faces %g %g edge %g: %s",
                  (double)g->normal.x, (double)g->normal.y, (double)g->normal.z, (double)w->normal.x,
                  (double)w->normal.y, (double)w->normal.z, sg, sw, s.face_a, s.face_b, s.edge, buf);
        ag->axis_tie++;
        return;
    }

    float tol_p = (float)(tol / smallest_sine(&da, &db));
    float mp, md;
    if (same_points(w, g, tol, tol_p, &mp, &md)) {
        ag->same++;
        if ((w->points[0].feature >> VX_FEATURE_KIND_SHIFT) == VX_FEATURE_KIND_BOX_EDGE) ag->edge++;
        else if (w->count == 4) ag->face4++;
        ag->max_normal = fmaxf(ag->max_normal, dist3(w->normal, g->normal) / scale);
        ag->max_depth = fmaxf(ag->max_depth, md / scale);
        if (smallest_sine(&da, &db) >= 0.05) ag->max_point = fmaxf(ag->max_point, mp / scale);
        return;
    }
    if (reduction_tie(w, feature_ref_b(w, true), g, feature_ref_b(g, false), tol_p)) {
        ag->reduction_tie++;
        return;
    }
    /* Points closer than tol_p are one (collide_hull.c merges points 1e-5
     * apart, box-box keeps both). */
    vx_manifold wl = unique_locations(w, tol_p), gl = unique_locations(g, tol_p);
    if ((wl.count < w->count || gl.count < g->count) && same_points(&wl, &gl, tol, tol_p, &mp, &md)) {
        ag->coincident++;
        return;
    }
    /* Box-box's edge axis is a face normal (boxes turned about one common
     * axis): its edges at the ends of their arcs, which edges is a tie. */
    if ((w->points[0].feature >> VX_FEATURE_KIND_SHIFT) == VX_FEATURE_KIND_BOX_EDGE && w->count == 1 &&
        g->count == 1 && fabsf(w->points[0].depth - g->points[0].depth) <= tol) {
        double n[3] = {w->normal.x, w->normal.y, w->normal.z};
        bool face_axis = false;
        for (int i = 0; i < 3; i++)
            face_axis = face_axis || fabs(fabs(dot3(n, da.ax[i])) - 1.0) <= 1e-6 ||
                        fabs(fabs(dot3(n, db.ax[i])) - 1.0) <= 1e-6;
        if (face_axis) {
            ag->edge_tie++;
            return;
        }
    }
    /* The incident face at a tie (a box at 45 degrees): either face. */
    if (incident_tie(w, &da, &db)) {
        float dw0 = -FLT_MAX, dg0 = -FLT_MAX;
        for (int i = 0; i < w->count; i++) dw0 = fmaxf(dw0, w->points[i].depth);
        for (int i = 0; i < g->count; i++) dg0 = fmaxf(dg0, g->points[i].depth);
        cr_assert(fabsf(dw0 - dg0) <= tol, "incident tie, deepest %g, box-box %g: %s", (double)dg0, (double)dw0, buf);
        ag->incident_tie++;
        return;
    }
    vx_manifold w2 = without_margin_points(w, margin, tol), g2 = without_margin_points(g, margin, tol);
    if (w2.count < w->count || g2.count < g->count) {
        if (w2.count == 0 && g2.count == 0) {
            ag->near_margin++;
            return;
        }
        if (w2.count > 0 && g2.count > 0 && same_points(&w2, &g2, tol, tol_p, &mp, &md)) {
            ag->near_margin++;
            return;
        }
    }
    int rw[4], rg[4];
    int nw = locations(w, tol_p, rw), ng = locations(g, tol_p, rg);
    float dw = -FLT_MAX, dg = -FLT_MAX;
    for (int i = 0; i < w->count; i++) dw = fmaxf(dw, w->points[i].depth);
    for (int i = 0; i < g->count; i++) dg = fmaxf(dg, g->points[i].depth);
    cr_assert(flush, "points differ (%d locations, box-box %d): %s", ng, nw, buf);
    cr_assert(fabsf(dw - dg) <= tol, "flush, deepest %g, box-box %g: %s", (double)dg, (double)dw, buf);
    ag->flush++;
}

static void check_boxes(const vx_transform *a, vx_vec3 ha, const vx_transform *b, vx_vec3 hb, float margin,
                        agreement *hh, agreement *hbx)
{
    vx_hull *hull_a = vx_test_box_hull(ha), *hull_b = vx_test_box_hull(hb);
    vx_manifold w, g, g2;
    memset(&g, 0x5A, sizeof g);
    bool hw = vx_collide_box_box(a, ha, b, hb, margin, &w);
    bool hg = vx_collide_hull_hull(hull_a, a, hull_b, b, margin, &g);
    bool hg2 = vx_collide_hull_box(hull_a, a, b, hb, margin, &g2);
    judge(a, ha, b, hb, margin, hw, &w, hg, &g, hh, "hull-hull");
    judge(a, ha, b, hb, margin, hw, &w, hg2, &g2, hbx, "hull-box");
    if (!hg) {
        vx_manifold z;
        memset(&z, 0, sizeof z);
        cr_assert(memcmp(&z, &g, sizeof z) == 0, "a miss leaves the manifold zeroed");
    }
    vx_hull_destroy(hull_a);
    vx_hull_destroy(hull_b);
}

static void report(const char *name, const agreement *ag)
{
    cr_log_info("%s: %d calls, %d hits, %d the same (%d 4-point faces, %d edges; normal %.2g, depth %.2g, point %.2g "
                "per m); ties: %d at the margin, %d axes, %d incident faces, %d edge pairs, %d reductions, "
                "%d coincident, %d flush",
                name, ag->calls, ag->hits, ag->same, ag->face4, ag->edge, (double)ag->max_normal,
                (double)ag->max_depth, (double)ag->max_point, ag->near_margin, ag->axis_tie, ag->incident_tie,
                ag->edge_tie, ag->reduction_tie, ag->coincident, ag->flush);
    printf("%s: %d calls, %d hits, %d the same (%d 4-point faces, %d edges; max normal %.2g, depth %.2g, point %.2g "
           "per m of scale); explained: %d at the margin, %d axes, %d incident faces, %d edge pairs, %d reductions, "
           "%d coincident, %d flush\n",
           name, ag->calls, ag->hits, ag->same, ag->face4, ag->edge, (double)ag->max_normal, (double)ag->max_depth,
           (double)ag->max_point, ag->near_margin, ag->axis_tie, ag->incident_tie, ag->edge_tie, ag->reduction_tie,
           ag->coincident, ag->flush);
    /* agreement within 1e-5 of the scale where the answer is defined */
    cr_assert_leq(ag->max_normal, 1e-5f);
    cr_assert_leq(ag->max_depth, 1e-5f);
    cr_assert_leq(ag->max_point, 1e-5f);
}

Test(collide_hull, box_hulls_match_box_box_random_poses)
{
    vx_test_rng rng = {0x1234567u};
    agreement hh, hbx;
    memset(&hh, 0, sizeof hh);
    memset(&hbx, 0, sizeof hbx);
    for (int k = 0; k < 6000; k++) {
        vx_vec3 ha = random_half(&rng, 0.05f, 1.5f), hb = random_half(&rng, 0.05f, 1.5f);
        vx_vec3 pa = v3(rnd(&rng, -1, 1), rnd(&rng, -1, 1), rnd(&rng, -1, 1));
        vx_transform a = vx_test_pose(pa, vx_test_random_rotation(&rng));
        float reach = vx_vec3_length(ha) + vx_vec3_length(hb);
        vx_vec3 off = v3(rnd(&rng, -reach, reach), rnd(&rng, -reach, reach), rnd(&rng, -reach, reach));
        vx_transform b = vx_test_pose(vx_vec3_add(a.position, off), vx_test_random_rotation(&rng));
        check_boxes(&a, ha, &b, hb, vx_test_random_margin(&rng), &hh, &hbx);
    }
    report("random poses, hull-hull", &hh);
    report("random poses, hull-box", &hbx);
    cr_assert_gt(hh.hits, 1000);
    cr_assert_gt(hh.edge, 200);
    cr_assert_gt(hh.face4, 100);
    cr_assert_geq(hh.same, hh.hits - hh.hits / 200, "fewer than 99.5 %% the same");
}

Test(collide_hull, box_hulls_match_box_box_resting_stacks_and_brick_rows)
{
    vx_test_rng rng = {0xC0FFEEu};
    agreement hh, hbx;
    memset(&hh, 0, sizeof hh);
    memset(&hbx, 0, sizeof hbx);
    for (int k = 0; k < 8000; k++) {
        bool same = (vx_test_rng_next(&rng) % 2u) == 0u;
        vx_vec3 ha = same ? v3(0.5f, 0.5f, 0.5f) : random_half(&rng, 0.2f, 1.0f);
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
        vx_vec3 pa = v3(rnd(&rng, -5, 5), rnd(&rng, 0, 10), rnd(&rng, -5, 5));
        vx_vec3 pb = vx_vec3_add(pa, v3(dx, ha.y + hb.y + gap, dz));
        unsigned tilt = vx_test_rng_next(&rng) % 4u;
        vx_quat qa = tilt & 1u ? small_turn(&rng) : vx_quat_identity();
        vx_quat qb = tilt & 2u ? small_turn(&rng) : vx_quat_identity();
        if (vx_test_rng_next(&rng) % 3u == 0u) { /* the whole stack turned about Y */
            vx_quat yaw = vx_quat_from_axis_angle(v3(0, 1, 0), rnd(&rng, -PI_F, PI_F));
            qa = vx_quat_mul(yaw, qa);
            qb = vx_quat_mul(yaw, qb);
            pb = vx_vec3_add(pa, vx_quat_rotate(yaw, vx_vec3_sub(pb, pa)));
        }
        vx_transform a = vx_test_pose(pa, qa), b = vx_test_pose(pb, qb);
        check_boxes(&a, ha, &b, hb, vx_test_random_margin(&rng), &hh, &hbx);
    }
    report("resting stacks, hull-hull", &hh);
    report("resting stacks, hull-box", &hbx);
    cr_assert_gt(hh.hits, 6000);
    cr_assert_gt(hh.face4, 2500);
    cr_assert_geq(hh.same + hh.reduction_tie, hh.hits * 9 / 10, "fewer than 90 %% the same");
}

Test(collide_hull, box_hulls_match_box_box_quarter_turns)
{
    vx_test_rng rng = {0xBADC0DEu};
    agreement hh, hbx;
    memset(&hh, 0, sizeof hh);
    memset(&hbx, 0, sizeof hbx);
    for (int k = 0; k < 3000; k++) {
        float e[6];
        for (int i = 0; i < 6; i++) e[i] = 0.25f * (float)(1 + vx_test_rng_next(&rng) % 4u);
        vx_vec3 ha = v3(e[0], e[1], e[2]), hb = v3(e[3], e[4], e[5]);
        float ox = 0.25f * (float)((int)(vx_test_rng_next(&rng) % 17u) - 8);
        float oy = 0.25f * (float)((int)(vx_test_rng_next(&rng) % 17u) - 8);
        float oz = 0.25f * (float)((int)(vx_test_rng_next(&rng) % 17u) - 8);
        vx_transform a = vx_test_pose(v3(1.0f, 2.0f, -3.0f), cube_turn(&rng));
        vx_transform b = vx_test_pose(vx_vec3_add(a.position, v3(ox, oy, oz)), cube_turn(&rng));
        check_boxes(&a, ha, &b, hb, vx_test_random_margin(&rng), &hh, &hbx);
    }
    report("quarter turns, hull-hull", &hh);
    report("quarter turns, hull-box", &hbx);
    cr_assert_gt(hh.hits, 700);
}

Test(collide_hull, box_hulls_match_box_box_edges_across_edges)
{
    vx_test_rng rng = {0xE1D6Eu};
    static const vx_vec3 axes[3] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
    agreement hh, hbx;
    memset(&hh, 0, sizeof hh);
    memset(&hbx, 0, sizeof hbx);
    for (int k = 0; k < 4000; k++) {
        vx_vec3 ha = random_half(&rng, 0.3f, 1.0f), hb = random_half(&rng, 0.3f, 1.0f);
        int i = (int)(vx_test_rng_next(&rng) % 3u), j = (int)(vx_test_rng_next(&rng) % 3u);
        float jitter = vx_test_rng_next(&rng) % 2u ? rnd(&rng, -1e-3f, 1e-3f) : 0.0f;
        vx_quat qa = vx_quat_from_axis_angle(axes[i], 0.25f * PI_F + jitter);
        vx_quat qb = vx_quat_from_axis_angle(axes[j], 0.25f * PI_F - jitter);
        if (vx_test_rng_next(&rng) % 2u) qb = vx_quat_mul(qb, vx_quat_from_axis_angle(axes[i], 0.25f * PI_F));
        vx_vec3 dir = vx_test_random_unit(&rng);
        float dist = rnd(&rng, 0.6f, 1.1f) * (vx_vec3_length(ha) + vx_vec3_length(hb));
        vx_transform a = vx_test_pose(vx_vec3_zero(), qa);
        vx_transform b = vx_test_pose(vx_vec3_scale(dir, dist), qb);
        check_boxes(&a, ha, &b, hb, vx_test_random_margin(&rng), &hh, &hbx);
    }
    report("edges across edges, hull-hull", &hh);
    report("edges across edges, hull-box", &hbx);
    cr_assert_gt(hh.edge, 300);
}

/* ================= hull-sphere against sphere-box ================= */

Test(collide_hull, box_hull_sphere_matches_sphere_box)
{
    vx_test_rng rng = {0x5EEDu};
    int hits = 0, inside = 0, same = 0;
    float max_normal = 0.0f, max_depth = 0.0f, max_point = 0.0f;
    for (int k = 0; k < 6000; k++) {
        vx_vec3 h = random_half(&rng, 0.1f, 1.5f);
        vx_hull *hull = vx_test_box_hull(h);
        vx_transform t = vx_test_pose(v3(rnd(&rng, -3, 3), rnd(&rng, -3, 3), rnd(&rng, -3, 3)), vx_test_random_rotation(&rng));
        float r = rnd(&rng, 0.05f, 1.0f);
        /* around the box: inside it, near faces, edges and corners */
        vx_vec3 local = v3(rnd(&rng, -1.3f, 1.3f) * (h.x + r), rnd(&rng, -1.3f, 1.3f) * (h.y + r),
                           rnd(&rng, -1.3f, 1.3f) * (h.z + r));
        vx_vec3 c = vx_vec3_add(t.position, vx_quat_rotate(vx_quat_normalize(t.rotation), local));
        float margin = vx_test_random_margin(&rng);
        vx_manifold w, g;
        bool hw = vx_collide_sphere_box(c, r, &t, h, margin, &w);
        bool hg = vx_collide_hull_sphere(hull, &t, c, r, margin, &g);
        float scale = 1.0f + vx_vec3_length(t.position) + vx_vec3_length(h);
        float tol = 1e-5f * scale;
        if (hw != hg) {
            /* only at the margin */
            float d = hw ? w.points[0].depth : g.points[0].depth;
            cr_assert_leq(fabsf(d + margin), tol, "case %d: hit %d, sphere-box %d, depth %g", k, hg, hw, (double)d);
            vx_hull_destroy(hull);
            continue;
        }
        if (hw) {
            hits++;
            assert_contract(&g, margin, tol);
            cr_assert_eq(g.count, 1);
            vx_manifold_flip(&w); /* sphere-box has the sphere as A */
            bool in = fabsf(local.x) < h.x && fabsf(local.y) < h.y && fabsf(local.z) < h.z;
            inside += in ? 1 : 0;
            float dn = dist3(w.normal, g.normal), dd = fabsf(w.points[0].depth - g.points[0].depth);
            float dp = fmaxf(dist3(w.points[0].point_a, g.points[0].point_a),
                             dist3(w.points[0].point_b, g.points[0].point_b));
            if (dn > tol) {
                /* inside, two faces equally near: either way out */
                cr_assert(in && dd <= tol, "case %d: normal differs by %g", k, (double)dn);
            } else {
                cr_assert_leq(dd, tol, "case %d: depth %g, sphere-box %g", k, (double)g.points[0].depth,
                              (double)w.points[0].depth);
                cr_assert_leq(dp, tol, "case %d: points differ by %g", k, (double)dp);
                same++;
                max_normal = fmaxf(max_normal, dn / scale);
                max_depth = fmaxf(max_depth, dd / scale);
                max_point = fmaxf(max_point, dp / scale);
            }
            cr_assert_leq(fabs(hull_plane_excess(hull, &t, g.points[0].point_a)), tol, "case %d: point_a off the hull",
                          k);
        }
        vx_hull_destroy(hull);
    }
    printf("hull-sphere: %d hits (%d inside), %d the same (max normal %.2g, depth %.2g, point %.2g per m)\n", hits,
           inside, same, (double)max_normal, (double)max_depth, (double)max_point);
    cr_assert_gt(hits, 2000);
    cr_assert_gt(inside, 300);
    cr_assert_geq(same, hits - hits / 100);
}

/* ================= tetrahedra and icosahedra ================= */

static vx_hull *tetrahedron(void)
{
    const vx_vec3 pts[4] = {{0.0f, 0.0f, 0.0f}, {1.0f, 0.0f, 0.0f}, {0.2f, 0.9f, 0.1f}, {0.3f, 0.2f, 0.8f}};
    return vx_test_hull(pts, 4);
}

static vx_hull *icosahedron(float r)
{
    const float p = 1.6180339887f;
    vx_vec3 pts[12];
    int n = 0;
    for (int s1 = -1; s1 <= 1; s1 += 2)
        for (int s2 = -1; s2 <= 1; s2 += 2) {
            pts[n++] = v3(0.0f, (float)s1, (float)s2 * p);
            pts[n++] = v3((float)s1, (float)s2 * p, 0.0f);
            pts[n++] = v3((float)s2 * p, 0.0f, (float)s1);
        }
    float k = r / sqrtf(1.0f + p * p);
    for (int i = 0; i < 12; i++) pts[i] = vx_vec3_scale(pts[i], k);
    return vx_test_hull(pts, 12);
}

/* ---- brute force in double: distances of points, segments and hulls ---- */

static d3 closest_on_segment(d3 p, d3 a, d3 b)
{
    d3 ab = d3_sub(b, a);
    double t = d3_dot(d3_sub(p, a), ab) / d3_dot(ab, ab);
    t = t < 0.0 ? 0.0 : (t > 1.0 ? 1.0 : t);
    return d3_add(a, d3_scale(ab, t));
}

/* Distance from p outside the hull: the faces it projects into, else the edges. */
static double whull_point_distance(const whull *w, d3 p)
{
    const vx_hull *h = w->h;
    double best = DBL_MAX;
    for (int f = 0; f < h->face_count; f++) {
        double s = d3_dot(w->n[f], p) - w->d[f];
        if (s <= 0.0) continue;
        d3 q = d3_sub(p, d3_scale(w->n[f], s));
        bool in = true;
        int e = h->faces[f].first_edge;
        for (int i = 0; i < h->faces[f].edge_count; i++) {
            d3 a = w->v[h->edges[e].origin], b = w->v[h->edges[e ^ 1].origin];
            if (d3_dot(d3_cross(d3_sub(b, a), w->n[f]), d3_sub(q, a)) > 0.0) in = false;
            e = h->edges[e].next;
        }
        if (in) best = fmin(best, s);
    }
    for (int e = 0; e < h->edge_count; e += 2) {
        d3 a = w->v[h->edges[e].origin], b = w->v[h->edges[e + 1].origin];
        best = fmin(best, d3_len(d3_sub(p, closest_on_segment(p, a, b))));
    }
    return best;
}

/* Signed distance of a point: outside the distance, inside minus the depth
 * under the nearest face plane. */
static double whull_signed_distance(const whull *w, d3 p)
{
    double e = whull_excess(w, p);
    return e <= 0.0 ? e : whull_point_distance(w, p);
}

static double segment_distance(d3 p1, d3 q1, d3 p2, d3 q2)
{
    /* a fine search plus the end points: exact enough for a test margin */
    double best = DBL_MAX;
    d3 d1 = d3_sub(q1, p1), d2 = d3_sub(q2, p2), r = d3_sub(p1, p2);
    double a = d3_dot(d1, d1), e = d3_dot(d2, d2), f = d3_dot(d2, r), c = d3_dot(d1, r), b = d3_dot(d1, d2);
    double denom = a * e - b * b;
    double s = denom > 1e-12 * a * e ? (b * f - c * e) / denom : 0.0;
    for (int pass = 0; pass < 3; pass++) {
        s = s < 0.0 ? 0.0 : (s > 1.0 ? 1.0 : s);
        double t = (b * s + f) / e;
        t = t < 0.0 ? 0.0 : (t > 1.0 ? 1.0 : t);
        s = (b * t - c) / a;
        s = s < 0.0 ? 0.0 : (s > 1.0 ? 1.0 : s);
        d3 x = d3_add(p1, d3_scale(d1, s)), y = d3_add(p2, d3_scale(d2, t));
        best = fmin(best, d3_len(d3_sub(x, y)));
    }
    best = fmin(best, d3_len(d3_sub(closest_on_segment(p1, p2, q2), p1)));
    best = fmin(best, d3_len(d3_sub(closest_on_segment(q1, p2, q2), q1)));
    best = fmin(best, d3_len(d3_sub(closest_on_segment(p2, p1, q1), p2)));
    best = fmin(best, d3_len(d3_sub(closest_on_segment(q2, p1, q1), q2)));
    return best;
}

/* The separating-axis value over every face normal and every edge pair (no
 * Gauss-map pruning): negative exactly when the hulls overlap. */
static double whull_sat(const whull *a, const whull *b)
{
    double best = -DBL_MAX;
    for (int pass = 0; pass < 2; pass++) {
        const whull *p = pass ? b : a, *q = pass ? a : b;
        for (int f = 0; f < p->h->face_count; f++) {
            double lo = DBL_MAX;
            for (int i = 0; i < q->h->vertex_count; i++) lo = fmin(lo, d3_dot(p->n[f], q->v[i]));
            best = fmax(best, lo - p->d[f]);
        }
    }
    for (int i = 0; i < a->h->edge_count; i += 2) {
        d3 ea = d3_sub(a->v[a->h->edges[i + 1].origin], a->v[a->h->edges[i].origin]);
        for (int j = 0; j < b->h->edge_count; j += 2) {
            d3 eb = d3_sub(b->v[b->h->edges[j + 1].origin], b->v[b->h->edges[j].origin]);
            d3 n = d3_cross(ea, eb);
            double len = d3_len(n);
            if (len < 1e-9 * d3_len(ea) * d3_len(eb)) continue;
            n = d3_scale(n, 1.0 / len);
            double amin = DBL_MAX, amax = -DBL_MAX, bmin = DBL_MAX, bmax = -DBL_MAX;
            for (int k = 0; k < a->h->vertex_count; k++) {
                amin = fmin(amin, d3_dot(n, a->v[k]));
                amax = fmax(amax, d3_dot(n, a->v[k]));
            }
            for (int k = 0; k < b->h->vertex_count; k++) {
                bmin = fmin(bmin, d3_dot(n, b->v[k]));
                bmax = fmax(bmax, d3_dot(n, b->v[k]));
            }
            best = fmax(best, fmax(bmin - amax, amin - bmax));
        }
    }
    return best;
}

/* The same over the face normals only. */
static double whull_sat_faces(const whull *a, const whull *b)
{
    double best = -DBL_MAX;
    for (int pass = 0; pass < 2; pass++) {
        const whull *p = pass ? b : a, *q = pass ? a : b;
        for (int f = 0; f < p->h->face_count; f++) {
            double lo = DBL_MAX;
            for (int i = 0; i < q->h->vertex_count; i++) lo = fmin(lo, d3_dot(p->n[f], q->v[i]));
            best = fmax(best, lo - p->d[f]);
        }
    }
    return best;
}

/* The distance between two hulls that do not overlap: vertex against hull
 * both ways, edge against edge. */
static double whull_distance(const whull *a, const whull *b)
{
    double best = DBL_MAX;
    for (int i = 0; i < a->h->vertex_count; i++) best = fmin(best, whull_point_distance(b, a->v[i]));
    for (int i = 0; i < b->h->vertex_count; i++) best = fmin(best, whull_point_distance(a, b->v[i]));
    for (int i = 0; i < a->h->edge_count; i += 2)
        for (int j = 0; j < b->h->edge_count; j += 2)
            best = fmin(best, segment_distance(a->v[a->h->edges[i].origin], a->v[a->h->edges[i + 1].origin],
                                               b->v[b->h->edges[j].origin], b->v[b->h->edges[j + 1].origin]));
    return best;
}

/* A pose for b near a: its centroid at a's plus dir times dist. */
static vx_transform near_pose(const vx_hull *ha, const vx_transform *ta, const vx_hull *hb, vx_quat qb, vx_vec3 off)
{
    vx_vec3 ca = vx_vec3_add(ta->position, vx_quat_rotate(vx_quat_normalize(ta->rotation), ha->centroid));
    vx_vec3 cb = vx_vec3_add(ca, off);
    return vx_test_pose(vx_vec3_sub(cb, vx_quat_rotate(qb, hb->centroid)), qb);
}

typedef struct {
    uint32_t digest;
    int hits, overlaps, beyond, stable, moved;
    double max_gap_excess;      /* reported gap beyond the distance */
    double max_edge_gap_excess; /* the same for edge-edge contacts */
    int edge_gap_checked;
} hull_pair_stats;

static uint32_t fnv(uint32_t h, const void *p, size_t n)
{
    const unsigned char *b = p;
    for (size_t i = 0; i < n; i++) {
        h ^= b[i];
        h *= 16777619u;
    }
    return h;
}

/* Random poses of b around a: the contract, points on both surfaces, the
 * deepest depth no more than the overlap along the normal, hits exactly
 * when closer than the margin (brute force), ids kept under 1e-5 moves. */
static void hull_pairs(const vx_hull *ha, const vx_hull *hb, uint32_t seed, int cases, hull_pair_stats *st)
{
    vx_test_rng rng = {seed};
    static whull wa, wb;
    memset(st, 0, sizeof *st);
    st->digest = 2166136261u;
    float size = 0.5f * (vx_vec3_length(vx_vec3_sub(ha->bounds.max, ha->bounds.min)) +
                         vx_vec3_length(vx_vec3_sub(hb->bounds.max, hb->bounds.min)));
    for (int k = 0; k < cases; k++) {
        vx_transform ta = vx_test_pose(v3(rnd(&rng, -2, 2), rnd(&rng, -2, 2), rnd(&rng, -2, 2)), vx_test_random_rotation(&rng));
        vx_quat qb = vx_test_random_rotation(&rng);
        vx_vec3 off = vx_vec3_scale(vx_test_random_unit(&rng), rnd(&rng, 0.0f, 1.1f) * size);
        vx_transform tb = near_pose(ha, &ta, hb, qb, off);
        float margin = vx_test_random_margin(&rng);
        vx_manifold m;
        bool hit = vx_collide_hull_hull(ha, &ta, hb, &tb, margin, &m);
        st->digest = fnv(st->digest, &hit, sizeof hit);
        st->digest = fnv(st->digest, &m, sizeof m);

        whull_init(&wa, ha, &ta);
        whull_init(&wb, hb, &tb);
        double sat = whull_sat(&wa, &wb);
        double dist = sat < 0.0 ? sat : whull_distance(&wa, &wb);
        double tol = 2e-5 * (1.0 + vx_vec3_length(ta.position) + size);
        if (dist >= margin + tol) st->beyond += hit ? 1 : 0;
        if (whull_sat_faces(&wa, &wb) >= margin + tol)
            cr_assert(!hit,
                      "case %d: a hit with the hulls %g apart along an axis (margin %g): %d points, normal (%g %g %g), "
                      "depth %g, feature %x",
                      k, sat, (double)margin, m.count, (double)m.normal.x, (double)m.normal.y, (double)m.normal.z,
                      (double)m.points[0].depth, m.points[0].feature);
        if (dist <= margin - tol) cr_assert(hit, "case %d: no hit at distance %g, margin %g", k, dist, (double)margin);
        if (!hit) continue;
        st->hits++;
        if (sat < 0.0) st->overlaps++;
        assert_contract(&m, margin, (float)tol);
        d3 n = d3_of(m.normal);
        double amax = -DBL_MAX, bmin = DBL_MAX;
        for (int i = 0; i < ha->vertex_count; i++) amax = fmax(amax, d3_dot(n, wa.v[i]));
        for (int i = 0; i < hb->vertex_count; i++) bmin = fmin(bmin, d3_dot(n, wb.v[i]));
        for (int i = 0; i < m.count && !speculative_edge(&m); i++) {
            double ea = whull_excess(&wa, d3_of(m.points[i].point_a));
            double eb = whull_excess(&wb, d3_of(m.points[i].point_b));
            cr_assert_leq(fabs(ea), tol, "case %d point %d: point_a %g off A's surface", k, i, ea);
            cr_assert_leq(fabs(eb), tol, "case %d point %d: point_b %g off B's surface", k, i, eb);
            cr_assert_leq(m.points[i].depth, amax - bmin + tol, "case %d: deeper than the overlap along n", k);
        }
        /* The normal's separation is SAT's best within the preferences. */
        /* The gap a point reports is never more than the distance: the
         * solver may close it and no more. */
        float deepest = -FLT_MAX;
        for (int i = 0; i < m.count; i++) deepest = fmaxf(deepest, m.points[i].depth);
        if (dist > 0.0) {
            /* An edge pair's gap is a separation along its axis: never more
             * than the distance. A face contact's kept points can sit
             * farther than a corner the clipping took away: measured. */
            if ((m.points[0].feature >> VX_FEATURE_KIND_SHIFT) == VX_FEATURE_KIND_HULL_EDGE && m.count == 1 &&
                st->edge_gap_checked >= 0) {
                st->edge_gap_checked++;
                st->max_edge_gap_excess = fmax(st->max_edge_gap_excess, -deepest - dist);
            }
            st->max_gap_excess = fmax(st->max_gap_excess, -deepest - dist);
        }

        /* ids under a 1e-5 move (of B, then of A by a tiny turn) */
        vx_transform tb2 = tb;
        tb2.position = vx_vec3_add(tb.position, vx_vec3_scale(vx_test_random_unit(&rng), 1e-5f));
        vx_transform ta2 = ta;
        ta2.rotation = vx_quat_normalize(vx_quat_mul(ta.rotation, vx_quat_from_axis_angle(vx_test_random_unit(&rng), 1e-5f)));
        vx_manifold m2;
        bool hit2 = vx_collide_hull_hull(ha, &ta2, hb, &tb2, margin, &m2);
        st->moved++;
        bool same = hit2 && m2.count == m.count;
        for (int i = 0; same && i < m.count; i++) same = m.points[i].feature == m2.points[i].feature;
        if (same) st->stable++;
    }
}

Test(collide_hull, tetrahedra_and_icosahedra_against_brute_force)
{
    vx_hull *tet = tetrahedron(), *ico = icosahedron(0.7f);
    cr_assert_eq(tet->face_count, 4);
    cr_assert_eq(ico->face_count, 20);
    const vx_hull *pairs[4][2] = {{tet, tet}, {tet, ico}, {ico, tet}, {ico, ico}};
    for (int p = 0; p < 4; p++) {
        hull_pair_stats st, again;
        hull_pairs(pairs[p][0], pairs[p][1], 0x7E7u + (uint32_t)p, 3000, &st);
        hull_pairs(pairs[p][0], pairs[p][1], 0x7E7u + (uint32_t)p, 3000, &again);
        cr_assert_eq(st.digest, again.digest, "not the same bits twice");
        printf("hull pair %d: %d hits (%d overlapping, %d farther apart than the margin, gap at most %.2g beyond the "
               "distance, %.2g for edge pairs), ids kept under 1e-5 moves in %d of %d\n",
               p, st.hits, st.overlaps, st.beyond, st.max_gap_excess, st.max_edge_gap_excess, st.stable, st.moved);
        cr_assert_gt(st.hits, 1000);
        cr_assert_gt(st.overlaps, 500);
        cr_assert_leq(st.max_edge_gap_excess, 1e-5, "an edge pair's gap beyond the distance");
        cr_assert_geq(st.stable, st.moved - st.moved / 50, "ids changed under 1e-5 moves in %d of %d",
                      st.moved - st.stable, st.moved);
    }
    vx_hull_destroy(tet);
    vx_hull_destroy(ico);
}

Test(collide_hull, resting_hulls_keep_their_ids)
{
    /* An icosahedron resting on a face of another, a tetrahedron on a face of
     * the icosahedron: 1e-5 moves (and tiny turns) keep every id. */
    vx_hull *tet = tetrahedron(), *ico = icosahedron(0.7f);
    vx_test_rng rng = {0xAB1Eu};
    const vx_hull *tops[2] = {ico, tet};
    for (int t = 0; t < 2; t++) {
        const vx_hull *top = tops[t];
        for (int f = 0; f < ico->face_count; f++) {
            /* top's face 0 against ico's face f: turn top so its face 0 faces -n_f */
            vx_vec3 nf = ico->faces[f].normal, n0 = top->faces[0].normal;
            vx_vec3 axis = vx_vec3_cross(n0, vx_vec3_neg(nf));
            float s = vx_vec3_length(axis), c = vx_vec3_dot(n0, vx_vec3_neg(nf));
            vx_vec3 other = fabsf(n0.x) < 0.9f ? v3(1, 0, 0) : v3(0, 1, 0); /* for a half turn */
            vx_quat q = s > 1e-6f ? vx_quat_from_axis_angle(vx_vec3_scale(axis, 1.0f / s), atan2f(s, c))
                                  : (c > 0.0f ? vx_quat_identity()
                                              : vx_quat_from_axis_angle(
                                                    vx_vec3_normalize(vx_vec3_cross(n0, other)),
                                                    PI_F));
            /* the top face's centre onto the face's centre, sunk 1 mm */
            vx_vec3 fc = vx_vec3_zero(), tc = vx_vec3_zero();
            int e = ico->faces[f].first_edge;
            for (int i = 0; i < ico->faces[f].edge_count; i++, e = ico->edges[e].next)
                fc = vx_vec3_add(fc, vx_vec3_scale(ico->vertices[ico->edges[e].origin], 1.0f / 3.0f));
            e = top->faces[0].first_edge;
            for (int i = 0; i < top->faces[0].edge_count; i++, e = top->edges[e].next)
                tc = vx_vec3_add(tc, vx_vec3_scale(top->vertices[top->edges[e].origin], 1.0f / 3.0f));
            vx_quat spin = vx_quat_from_axis_angle(nf, rnd(&rng, 0.1f, 0.4f));
            q = vx_quat_mul(spin, q);
            vx_vec3 pos = vx_vec3_sub(vx_vec3_add(fc, vx_vec3_scale(nf, -1e-3f)), vx_quat_rotate(q, tc));
            vx_transform ta = vx_test_pose(vx_vec3_zero(), vx_quat_identity()), tb = vx_test_pose(pos, q);
            vx_manifold m;
            cr_assert(vx_collide_hull_hull(ico, &ta, top, &tb, 0.01f, &m));
            assert_contract(&m, 0.01f, 1e-5f);
            cr_assert_geq(m.count, 3, "face %d: a resting face gives %d points", f, m.count);
            for (int i = 0; i < m.count; i++)
                cr_assert(fabsf(m.points[i].depth - 1e-3f) <= 1e-5f, "top %d face %d: depth %g, feature %x", t, f,
                          (double)m.points[i].depth, m.points[i].feature);
            for (int k = 0; k < 20; k++) {
                vx_transform tb2 = tb;
                tb2.position = vx_vec3_add(tb.position, vx_vec3_scale(vx_test_random_unit(&rng), 1e-5f));
                tb2.rotation = vx_quat_normalize(vx_quat_mul(vx_quat_from_axis_angle(vx_test_random_unit(&rng), 1e-5f), q));
                vx_manifold m2;
                cr_assert(vx_collide_hull_hull(ico, &ta, top, &tb2, 0.01f, &m2));
                cr_assert_eq(m2.count, m.count);
                for (int i = 0; i < m.count; i++)
                    cr_assert_eq(m2.points[i].feature, m.points[i].feature, "top %d face %d: id %d changed", t, f, i);
            }
        }
    }
    vx_hull_destroy(tet);
    vx_hull_destroy(ico);
}

Test(collide_hull, spheres_against_brute_force_signed_distance)
{
    vx_hull *tet = tetrahedron(), *ico = icosahedron(0.7f);
    const vx_hull *hulls[2] = {tet, ico};
    vx_test_rng rng = {0x5F1Eu};
    static whull w;
    int hits = 0, inside = 0;
    for (int k = 0; k < 6000; k++) {
        const vx_hull *h = hulls[k % 2];
        vx_transform t = vx_test_pose(v3(rnd(&rng, -2, 2), rnd(&rng, -2, 2), rnd(&rng, -2, 2)), vx_test_random_rotation(&rng));
        whull_init(&w, h, &t);
        float r = rnd(&rng, 0.05f, 0.6f);
        vx_vec3 c0 = vx_vec3_add(t.position, vx_quat_rotate(vx_quat_normalize(t.rotation), h->centroid));
        vx_vec3 c = vx_vec3_add(c0, vx_vec3_scale(vx_test_random_unit(&rng), rnd(&rng, 0.0f, 1.2f) + r));
        float margin = vx_test_random_margin(&rng);
        vx_manifold m, m2;
        bool hit = vx_collide_hull_sphere(h, &t, c, r, margin, &m);
        bool hit2 = vx_collide_hull_sphere(h, &t, c, r, margin, &m2);
        cr_assert(hit == hit2 && memcmp(&m, &m2, sizeof m) == 0, "not the same bits twice");
        double sd = whull_signed_distance(&w, d3_of(c));
        double depth = r - sd, tol = 1e-5 * (2.0 + vx_vec3_length(c));
        if (depth <= -margin - tol) cr_assert(!hit, "case %d: hit at signed distance %g", k, sd);
        if (depth >= -margin + tol) cr_assert(hit, "case %d: no hit at signed distance %g", k, sd);
        if (!hit) continue;
        hits++;
        inside += sd < 0.0 ? 1 : 0;
        assert_contract(&m, margin, (float)tol);
        cr_assert_eq(m.count, 1);
        cr_assert_leq(fabs(m.points[0].depth - depth), tol, "case %d: depth %g, brute force %g", k,
                      (double)m.points[0].depth, depth);
        cr_assert_leq(fabs(whull_excess(&w, d3_of(m.points[0].point_a))), tol, "case %d: point_a off the hull", k);
        cr_assert_leq(fabs(d3_len(d3_sub(d3_of(m.points[0].point_b), d3_of(c))) - r), tol, "case %d: point_b", k);
    }
    printf("hull-sphere brute force: %d hits, %d with the centre inside\n", hits, inside);
    cr_assert_gt(hits, 2000);
    cr_assert_gt(inside, 300);
    vx_hull_destroy(tet);
    vx_hull_destroy(ico);
}

Test(collide_hull, an_edge_keeps_its_ids_when_the_incident_face_changes)
{
    /* A long bar balanced on one edge across a plate: 2e-3 rad either side
     * of 45 degrees (beyond the incident face's 1e-3 preference) the
     * incident face is one or the other face at that edge, and the points
     * where the edge crosses the plate's rim keep their ids. */
    vx_hull *plate = vx_test_box_hull(v3(1.0f, 0.1f, 0.5f)), *bar = vx_test_box_hull(v3(0.2f, 0.2f, 2.0f));
    vx_transform tp = vx_test_pose(v3(0.0f, 0.0f, 0.0f), vx_quat_identity());
    uint32_t ids[2][VX_MANIFOLD_MAX_POINTS];
    vx_vec3 at[2][VX_MANIFOLD_MAX_POINTS];
    int counts[2];
    for (int side = 0; side < 2; side++) {
        float angle = 0.25f * PI_F + (side ? 2e-3f : -2e-3f);
        float drop = 0.2f * sqrtf(2.0f) - 1e-3f; /* the edge 1 mm into the plate */
        vx_transform tb = vx_test_pose(v3(0.1f, 0.1f + drop, 0.0f), vx_quat_from_axis_angle(v3(0, 0, 1), angle));
        vx_manifold m;
        cr_assert(vx_collide_hull_hull(plate, &tp, bar, &tb, 0.01f, &m));
        assert_contract(&m, 0.01f, 1e-5f);
        counts[side] = m.count;
        for (int i = 0; i < m.count; i++) {
            ids[side][i] = m.points[i].feature;
            at[side][i] = m.points[i].point_b;
            cr_assert_eq((m.points[i].feature >> 12) & 3u, 2u, "a crossing of the plate's rim: %x",
                         m.points[i].feature);
        }
    }
    cr_assert_eq(counts[0], 2);
    cr_assert_eq(counts[1], 2);
    /* the same ids, each at the same end of the edge (the ends are 1 m apart) */
    for (int i = 0; i < 2; i++) {
        cr_assert_eq(ids[0][i], ids[1][i], "id %d: %x, then %x", i, ids[0][i], ids[1][i]);
        cr_assert_lt(dist3(at[0][i], at[1][i]), 0.05f, "id %x moved to the other end", ids[0][i]);
    }
    vx_hull_destroy(plate);
    vx_hull_destroy(bar);
}

/* A hexagonal (and an octagonal) prism resting on a box face, tilted a
 * little in every direction: the 4 points kept of its 6 (8) corners stand
 * around the face's centre, not on one side of it. */
Test(collide_hull, reduced_face_patch_is_centred)
{
    for (int sides = 6; sides <= 8; sides += 2) {
        vx_vec3 pts[16];
        for (int k = 0; k < sides; k++)
            for (int s = 0; s < 2; s++)
                pts[2 * k + s] = v3(0.5f * cosf(2.0f * PI_F * (float)k / (float)sides), s ? 0.2f : -0.2f,
                                    0.5f * sinf(2.0f * PI_F * (float)k / (float)sides));
        vx_hull *prism = vx_test_hull(pts, (size_t)(2 * sides));
        vx_transform floor = vx_test_pose(v3(0, -0.5f, 0), vx_quat_identity());
        for (int dir = 0; dir < 36; dir++) {
            float phi = 2.0f * PI_F * (float)dir / 36.0f;
            vx_quat tilt = vx_quat_from_axis_angle(v3(cosf(phi), 0, sinf(phi)), 0.5e-3f);
            vx_transform pose = vx_test_pose(v3(0.3f, 0.2f - 1e-3f, -0.2f), tilt);
            vx_manifold m;
            cr_assert(vx_collide_hull_box(prism, &pose, &floor, v3(5, 0.5f, 5), 0.01f, &m));
            cr_assert_eq(m.count, 4, "%d sides, tilt %d: %d points", sides, dir, m.count);
            float cx = 0.0f, cz = 0.0f;
            for (int i = 0; i < 4; i++) {
                cx += 0.25f * m.points[i].point_a.x;
                cz += 0.25f * m.points[i].point_a.z;
            }
            float off = hypotf(cx - 0.3f, cz + 0.2f);
            cr_assert_lt(off, 0.02f, "%d sides, tilt towards %d: the points' centre %.3f m off the face's", sides, dir,
                         (double)off);
        }
        vx_hull_destroy(prism);
    }
}
