/* Convex hull builder (hull.h): quickhull on triangles, then the triangles
 * grown into planar polygons, then the mass properties of the solid.
 *
 * Everything runs in double on the points sorted (x, then y, then z) with
 * exact duplicates removed and -0 made +0: the hull is a function of the
 * point set, whatever the input order, and the same set gives the same bits.
 *
 * Tolerance: tol = max(3 FLT_EPSILON (max|x| + max|y| + max|z|), 1e-5 size),
 * size the largest side of the points' box. The first term is the rounding of
 * float coordinates far from the origin (Gregorius's quickhull tolerance for
 * floats: the vertices are stored as floats and read in float by the narrow
 * phase); the second makes features smaller than 1e-5 of the hull noise, so
 * that points scattered 1e-6 off a face still give one face and not slivers.
 * A point within tol of a face counts as on it.
 *
 * 1. Quickhull (Barber, Dobkin, Huhdanpaa 1996): a tetrahedron from extreme
 *    points, each other point in the conflict list of the face it is farthest
 *    above (by more than tol), then the farthest conflict point of all added
 *    one at a time: the faces it sees go, a cone of triangles from it to their
 *    horizon comes. "Sees" is decided at the rounding of double, not at tol
 *    (HULL_SEEN_ROUNDING says why), so the triangles stay convex and the
 *    tolerance is left to the faces. Once no conflict is left, points more
 *    than tol above a triangle go back in (run_quickhull says why).
 * 2. Faces: triangles are grown into regions, the largest first, a neighbour
 *    joining when it faces the same side, every vertex of the region stays
 *    within tol of the region's plane (the sum of its triangles' area vectors
 *    through their area-weighted centroid), no point ends more than tol above
 *    that plane, and the region stays a disk. Vertices inside a region are
 *    dropped: they lie on its plane within tol. Two regions meeting at a
 *    vertex with no third are grown again with a triangle there on its own
 *    (mark_lonely says why).
 * 3. Corners: on each polygon, a vertex less than tol out of the chord between
 *    its two neighbours (or reflex) is no corner: it lies within tol of the
 *    hull of the other points (on an edge, or between two faces that are one
 *    plane). The worst such point is taken out and the hull built again
 *    without it, until every vertex is a corner; each build drops a point, so
 *    this ends.
 * A horizon or boundary that is not one simple loop (none is in exact
 * arithmetic, none was seen in the tests) makes the build start again with
 * twice the tolerance, a few times at most.
 *
 * Mass properties: the polyhedron cut into tetrahedra from an inner point to
 * each face's fan of triangles, integrated exactly (divergence theorem, as in
 * Mirtich 1996 and Eberly's "Polyhedral Mass Properties"), in double. */
#include "physics/body/hull.h"

#include <float.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "common/array.h"
#include "common/assert.h"

#define HULL_RELATIVE_TOLERANCE 1e-5
/* Visibility from a new point is decided at the rounding of double (times
 * this), not at tol: with tol, a point seeing a face by more than tol and its
 * sliver neighbour by less would fold the cone over the neighbour by up to
 * tol times the ratio of their areas. */
#define HULL_SEEN_ROUNDING 64.0
/* Builds again with a doubled tolerance after a topological failure: a few
 * times at most, then the input is refused. */
#define HULL_MAX_RETRIES 6

typedef struct {
    double x, y, z;
} dvec3;

static dvec3 dv(double x, double y, double z)
{
    dvec3 v = {x, y, z};
    return v;
}
static dvec3 dv_add(dvec3 a, dvec3 b) { return dv(a.x + b.x, a.y + b.y, a.z + b.z); }
static dvec3 dv_sub(dvec3 a, dvec3 b) { return dv(a.x - b.x, a.y - b.y, a.z - b.z); }
static dvec3 dv_scale(dvec3 a, double s) { return dv(a.x * s, a.y * s, a.z * s); }
static double dv_dot(dvec3 a, dvec3 b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
static dvec3 dv_cross(dvec3 a, dvec3 b)
{
    return dv(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x);
}
static double dv_length(dvec3 a) { return sqrt(dv_dot(a, a)); }

/* ---- the working hull: triangles, three half-edges each ---- */

/* Triangle t owns half-edges 3t, 3t + 1, 3t + 2, in order around it. */
typedef struct {
    dvec3 normal;   /* unit, outwards */
    dvec3 centroid; /* distances are measured from it: less cancellation than an offset */
    double area;
    int conflict; /* first point of its conflict list, -1 for none */
    int mark;     /* the add_point pass that found it visible */
    int group;    /* its polygon, while the faces are made */
    bool alone;   /* a polygon of its own (make_faces says why) */
    bool alive;
} qh_tri;

typedef struct {
    /* the points, sorted, distinct */
    dvec3 *pts;
    int npts;
    double tol;
    double seen; /* a triangle is seen from a point above it by more than this */
    /* per point */
    int *conflict_next;
    double *conflict_dist;
    int *horizon_from; /* the horizon edge leaving each point, -1 for none */
    int *stamp;        /* scratch marks */
    bool *excluded;    /* taken out: no corner */
    /* triangles and their half-edges */
    qh_tri *tris;
    size_t tri_cap;
    int ntris;
    int *origin;
    int *twin;
    size_t edge_cap;
    /* scratch lists */
    int *list_a;
    int *list_b;
    int *list_c;
    size_t list_cap;
    int pass;
} qh;

typedef enum { QH_OK, QH_NOMEM, QH_RETRY } qh_result;

static int edge_next(int e) { return e % 3 == 2 ? e - 2 : e + 1; }
static int edge_tri(int e) { return e / 3; }
static int edge_dest(const qh *q, int e) { return q->origin[edge_next(e)]; }

static double tri_distance(const qh *q, int t, dvec3 p)
{
    return dv_dot(q->tris[t].normal, dv_sub(p, q->tris[t].centroid));
}

/* Room for one more triangle and its half-edges. */
static bool reserve_tri(qh *q)
{
    vx_status st = VX_OK;
    size_t need = (size_t)q->ntris + 1u;
    VX_RESERVE(st, q->tris, q->tri_cap, need, 64u);
    size_t edges = q->edge_cap;
    VX_RESERVE(st, q->origin, edges, 3u * need, 192u);
    size_t twins = q->edge_cap;
    VX_RESERVE(st, q->twin, twins, 3u * need, 192u);
    if (st == VX_OK) q->edge_cap = edges < twins ? edges : twins;
    return st == VX_OK;
}

/* Room for n ints in each scratch list. */
static bool reserve_lists(qh *q, size_t n)
{
    vx_status st = VX_OK;
    size_t cap_a = q->list_cap, cap_b = q->list_cap, cap_c = q->list_cap;
    VX_RESERVE(st, q->list_a, cap_a, n, 64u);
    VX_RESERVE(st, q->list_b, cap_b, n, 64u);
    VX_RESERVE(st, q->list_c, cap_c, n, 64u);
    if (st == VX_OK) {
        size_t m = cap_a < cap_b ? cap_a : cap_b;
        q->list_cap = m < cap_c ? m : cap_c;
    }
    return st == VX_OK;
}

/* A new triangle a, b, c (counter-clockwise seen from outside), twins unset;
 * -1 when out of memory. */
static int new_tri(qh *q, int a, int b, int c)
{
    if (!reserve_tri(q)) return -1;
    int t = q->ntris++;
    q->origin[3 * t] = a;
    q->origin[3 * t + 1] = b;
    q->origin[3 * t + 2] = c;
    q->twin[3 * t] = q->twin[3 * t + 1] = q->twin[3 * t + 2] = -1;
    dvec3 pa = q->pts[a], pb = q->pts[b], pc = q->pts[c];
    dvec3 n = dv_cross(dv_sub(pb, pa), dv_sub(pc, pa));
    double len = dv_length(n);
    qh_tri *tri = &q->tris[t];
    memset(tri, 0, sizeof *tri);
    tri->normal = len > 0.0 ? dv_scale(n, 1.0 / len) : n;
    tri->centroid = dv_scale(dv_add(dv_add(pa, pb), pc), 1.0 / 3.0);
    tri->area = 0.5 * len;
    tri->conflict = -1;
    tri->mark = -1;
    tri->group = -1;
    tri->alive = true;
    return t;
}

static void link_twins(qh *q, int e, int f)
{
    q->twin[e] = f;
    q->twin[f] = e;
}

/* Puts point p in the conflict list of the new triangle (from first_tri on)
 * it is farthest above, if that is by more than tol; else p is inside. */
static void assign_point(qh *q, int p, int first_tri)
{
    int best = -1;
    double best_d = q->tol;
    for (int t = first_tri; t < q->ntris; t++) {
        if (!q->tris[t].alive) continue;
        double d = tri_distance(q, t, q->pts[p]);
        if (d > best_d) {
            best_d = d;
            best = t;
        }
    }
    if (best < 0) return;
    q->conflict_dist[p] = best_d;
    q->conflict_next[p] = q->tris[best].conflict;
    q->tris[best].conflict = p;
}

/* ---- the first tetrahedron ---- */

typedef enum { SIMPLEX_OK, SIMPLEX_POINT, SIMPLEX_LINE, SIMPLEX_PLANE } simplex_kind;

/* Four points spanning the active ones: the extremes of the longest axis, the
 * farthest from their line, the farthest from their plane. Ties go to the
 * lowest index, so the choice depends on the point set only. */
static simplex_kind find_simplex(const qh *q, int idx[4])
{
    int lo[3] = {-1, -1, -1}, hi[3] = {-1, -1, -1};
    for (int i = 0; i < q->npts; i++) {
        if (q->excluded[i]) continue;
        const double *c = &q->pts[i].x;
        for (int k = 0; k < 3; k++) {
            if (lo[k] < 0 || c[k] < (&q->pts[lo[k]].x)[k]) lo[k] = i;
            if (hi[k] < 0 || c[k] > (&q->pts[hi[k]].x)[k]) hi[k] = i;
        }
    }
    int axis = 0;
    double extent = -1.0;
    for (int k = 0; k < 3; k++) {
        double e = (&q->pts[hi[k]].x)[k] - (&q->pts[lo[k]].x)[k];
        if (e > extent) {
            extent = e;
            axis = k;
        }
    }
    if (!(extent > q->tol)) return SIMPLEX_POINT;
    idx[0] = lo[axis];
    idx[1] = hi[axis];

    dvec3 a = q->pts[idx[0]];
    dvec3 ab = dv_sub(q->pts[idx[1]], a);
    double ab_len = dv_length(ab);
    double best = -1.0;
    idx[2] = -1;
    for (int i = 0; i < q->npts; i++) {
        if (q->excluded[i]) continue;
        double d = dv_length(dv_cross(ab, dv_sub(q->pts[i], a))) / ab_len;
        if (d > best) {
            best = d;
            idx[2] = i;
        }
    }
    if (!(best > q->tol)) return SIMPLEX_LINE;

    dvec3 n = dv_cross(ab, dv_sub(q->pts[idx[2]], a));
    n = dv_scale(n, 1.0 / dv_length(n));
    best = -1.0;
    idx[3] = -1;
    for (int i = 0; i < q->npts; i++) {
        if (q->excluded[i]) continue;
        double d = fabs(dv_dot(n, dv_sub(q->pts[i], a)));
        if (d > best) {
            best = d;
            idx[3] = i;
        }
    }
    if (!(best > q->tol)) return SIMPLEX_PLANE;
    return SIMPLEX_OK;
}

/* The tetrahedron's four faces, outwards, and the other points' conflicts. */
static qh_result build_simplex(qh *q, const int idx_in[4])
{
    int idx[4] = {idx_in[0], idx_in[1], idx_in[2], idx_in[3]};
    dvec3 p0 = q->pts[idx[0]];
    dvec3 n = dv_cross(dv_sub(q->pts[idx[1]], p0), dv_sub(q->pts[idx[2]], p0));
    if (dv_dot(n, dv_sub(q->pts[idx[3]], p0)) > 0.0) {
        int swap = idx[1];
        idx[1] = idx[2];
        idx[2] = swap;
    }
    /* With d below abc: abc, adb, bdc, cda face out. */
    int a = idx[0], b = idx[1], c = idx[2], d = idx[3];
    int faces[4][3] = {{a, b, c}, {a, d, b}, {b, d, c}, {c, d, a}};
    for (int f = 0; f < 4; f++)
        if (new_tri(q, faces[f][0], faces[f][1], faces[f][2]) < 0) return QH_NOMEM;
    /* The twin of edge x -> y is the edge y -> x. */
    for (int e = 0; e < 12; e++) {
        if (q->twin[e] >= 0) continue;
        for (int f = 0; f < 12; f++) {
            if (edge_tri(f) == edge_tri(e)) continue;
            if (q->origin[f] == edge_dest(q, e) && edge_dest(q, f) == q->origin[e]) {
                link_twins(q, e, f);
                break;
            }
        }
    }
    for (int i = 0; i < q->npts; i++) {
        if (q->excluded[i] || i == a || i == b || i == c || i == d) continue;
        assign_point(q, i, 0);
    }
    return QH_OK;
}

/* ---- adding a point ---- */

/* Marks the triangles eye sees (connected to `start`) with this pass; their
 * list in list_a, count returned. */
static int find_visible(qh *q, int eye, int start)
{
    int count = 0;
    q->tris[start].mark = q->pass;
    q->list_a[count++] = start;
    for (int i = 0; i < count; i++) {
        int t = q->list_a[i];
        for (int k = 0; k < 3; k++) {
            int u = edge_tri(q->twin[3 * t + k]);
            if (q->tris[u].mark == q->pass) continue;
            if (!(tri_distance(q, u, q->pts[eye]) > q->seen)) continue;
            q->tris[u].mark = q->pass;
            q->list_a[count++] = u;
        }
    }
    return count;
}

/* The horizon of the visible triangles (the edges of theirs whose twins are
 * not visible) as one loop in list_b, each edge's destination the next one's
 * origin; its length, or -1 when it is not one simple loop. */
static int find_horizon(qh *q, int visible_count)
{
    int count = 0;
    int result = 0;
    for (int i = 0; i < visible_count; i++) {
        int t = q->list_a[i];
        for (int k = 0; k < 3; k++) {
            int e = 3 * t + k;
            if (q->tris[edge_tri(q->twin[e])].mark == q->pass) continue;
            if (q->horizon_from[q->origin[e]] >= 0) result = -1; /* a vertex twice: not simple */
            q->horizon_from[q->origin[e]] = e;
            q->list_c[count++] = e;
        }
    }
    if (result == 0 && count >= 3) {
        int e = q->list_c[0];
        int n = 0;
        do {
            q->list_b[n++] = e;
            e = q->horizon_from[edge_dest(q, e)];
        } while (e >= 0 && e != q->list_c[0] && n < count);
        result = (e == q->list_c[0] && n == count) ? n : -1;
    } else {
        result = -1;
    }
    for (int i = 0; i < count; i++) q->horizon_from[q->origin[q->list_c[i]]] = -1;
    return result;
}

static qh_result add_point(qh *q, int eye, int eye_tri)
{
    /* out of its conflict list */
    int *link = &q->tris[eye_tri].conflict;
    while (*link != eye) link = &q->conflict_next[*link];
    *link = q->conflict_next[eye];

    /* visible triangles, horizon edges, orphans */
    size_t need = 3u * (size_t)q->ntris + 3u;
    if (!reserve_lists(q, need > (size_t)q->npts ? need : (size_t)q->npts)) return QH_NOMEM;
    int visible = find_visible(q, eye, eye_tri);
    int horizon = find_horizon(q, visible);
    if (horizon < 0) return QH_RETRY;

    /* the visible triangles' conflict points are orphans, in list_c */
    int orphans = 0;
    for (int i = 0; i < visible; i++) {
        qh_tri *t = &q->tris[q->list_a[i]];
        for (int p = t->conflict; p >= 0; p = q->conflict_next[p]) q->list_c[orphans++] = p;
        t->conflict = -1;
        t->alive = false;
    }

    /* the cone, in the horizon's order: edge a -> b gives triangle a, b, eye */
    int first = q->ntris;
    for (int i = 0; i < horizon; i++) {
        int e = q->list_b[i];
        int t = new_tri(q, q->origin[e], edge_dest(q, e), eye);
        if (t < 0) return QH_NOMEM;
        link_twins(q, 3 * t, q->twin[e]);
    }
    for (int i = 0; i < horizon; i++) {
        int t = first + i, u = first + (i + 1) % horizon;
        link_twins(q, 3 * t + 1, 3 * u + 2); /* b -> eye, then eye -> b */
    }
    for (int i = 0; i < orphans; i++) assign_point(q, q->list_c[i], first);
    return QH_OK;
}

/* The whole quickhull over the points not excluded. A point dropped as
 * within tol of every plane can still be farther from the hull near a shallow
 * crease (the rim of a thin slab), and a later cone can leave it well outside:
 * once no conflict is left, every point is checked against every triangle and
 * those above one by more than tol go back in, until none is. Each round adds
 * a vertex, so there are fewer rounds than points. */
static qh_result run_quickhull(qh *q, const int simplex[4])
{
    q->ntris = 0;
    q->pass = 0;
    qh_result r = build_simplex(q, simplex);
    for (int round = 0; r == QH_OK; round++) {
        for (;;) {
            /* the farthest conflict point of all (ties: the lowest index) */
            int eye = -1, eye_tri = -1;
            double best = 0.0;
            for (int t = 0; t < q->ntris; t++) {
                if (!q->tris[t].alive) continue;
                for (int p = q->tris[t].conflict; p >= 0; p = q->conflict_next[p]) {
                    double d = q->conflict_dist[p];
                    if (d > best || (d == best && eye >= 0 && p < eye)) {
                        best = d;
                        eye = p;
                        eye_tri = t;
                    }
                }
            }
            if (eye < 0 || r != QH_OK) break;
            q->pass++;
            r = add_point(q, eye, eye_tri);
        }
        if (r != QH_OK) break;
        /* over the live triangles only: most of those made are gone by now */
        if (!reserve_lists(q, (size_t)q->ntris)) return QH_NOMEM;
        int live = 0;
        for (int i = 0; i < q->npts; i++) q->stamp[i] = 0;
        for (int t = 0; t < q->ntris; t++) {
            if (!q->tris[t].alive) continue;
            q->list_a[live++] = t;
            for (int k = 0; k < 3; k++) q->stamp[q->origin[3 * t + k]] = 1; /* a vertex: on the hull */
        }
        int outside = 0;
        for (int i = 0; i < q->npts; i++) {
            if (q->excluded[i] || q->stamp[i]) continue;
            int best = -1;
            double best_d = q->tol;
            for (int k = 0; k < live; k++) {
                double d = tri_distance(q, q->list_a[k], q->pts[i]);
                if (d > best_d) {
                    best_d = d;
                    best = q->list_a[k];
                }
            }
            if (best < 0) continue;
            q->conflict_dist[i] = best_d;
            q->conflict_next[i] = q->tris[best].conflict;
            q->tris[best].conflict = i;
            outside++;
        }
        if (outside == 0) break;
        if (round >= q->npts) return QH_RETRY;
    }
    return r;
}

/* ---- faces: triangles grown into planar polygons ---- */

typedef struct {
    dvec3 area_sum;      /* sum of its triangles' area vectors */
    dvec3 weighted;      /* sum of their centroids times their areas */
    double area;         /* sum of their areas */
    dvec3 normal, point; /* its plane */
    int first_member;    /* its triangles: members[first_member ..] */
    int member_count;
    int first_vertex; /* its vertices: vertices[first_vertex ..] */
    int vertex_count;
    int boundary_edge; /* one half-edge of its boundary */
    int boundary_count;
} qh_group;

typedef struct {
    qh_group *groups;
    int ngroups;
    int *members;  /* triangles by group */
    int *vertices; /* point indices by group */
} qh_faces;

static void group_plane(dvec3 area_sum, dvec3 weighted, double area, dvec3 *normal, dvec3 *point)
{
    double len = dv_length(area_sum);
    *normal = len > 0.0 ? dv_scale(area_sum, 1.0 / len) : area_sum;
    *point = dv_scale(weighted, 1.0 / area);
}

/* The next boundary edge of group g after e. */
static int boundary_next(const qh *q, int g, int e)
{
    int c = edge_next(e);
    while (q->tris[edge_tri(q->twin[c])].group == g) c = edge_next(q->twin[c]);
    return c;
}

/* How far v stands out of the chord u-w, in the plane of normal n: positive
 * for a convex corner, negative for a reflex one. */
static double corner_deviation(dvec3 u, dvec3 v, dvec3 w, dvec3 n)
{
    dvec3 out = dv_cross(dv_sub(w, u), n);
    double len = dv_length(out);
    return len > 0.0 ? dv_dot(dv_sub(v, u), out) / len : -1.0;
}

/* The number of face corners at the origin of edge e once triangles are
 * grouped: the changes of group around it, 0 for a vertex inside a group
 * (a triangle with no group yet counts as a group of its own). */
static int corners_around(const qh *q, int e)
{
    int changes = 0, start = e, turns = 0;
    do {
        int next = q->twin[edge_next(edge_next(e))]; /* the next edge out of the vertex */
        int a = q->tris[edge_tri(e)].group, b = q->tris[edge_tri(next)].group;
        if (a != b || a < 0) changes++;
        e = next;
    } while (e != start && ++turns < q->ntris);
    return changes;
}

/* Triangle t joins group g when the group stays a disk (t shares one edge
 * and brings a new vertex, or fills a notch along two) and every vertex stays
 * within tol of the plane of the union. */
static bool try_join(qh *q, qh_faces *f, int g, int t)
{
    qh_group *grp = &f->groups[g];
    int shared = 0;
    for (int k = 0; k < 3; k++)
        if (q->tris[edge_tri(q->twin[3 * t + k])].group == g) shared++;
    int new_vertex = -1;
    if (q->tris[t].alone) return false;
    if (shared == 1) {
        /* the vertex off the shared edge a -> b of a, b, c: c */
        for (int k = 0; k < 3; k++) {
            int e = 3 * t + k;
            if (q->tris[edge_tri(q->twin[e])].group == g) new_vertex = q->origin[edge_next(edge_next(e))];
        }
        if (q->stamp[new_vertex] == g) return false; /* it would pinch the disk or close a hole */
    } else if (shared != 2) {
        return false;
    }
    for (int k = 0; k < 3; k++) {
        dvec3 p = q->pts[q->origin[3 * t + k]];
        if (fabs(dv_dot(grp->normal, dv_sub(p, grp->point))) > q->tol) return false;
    }
    /* A triangle facing away from the plane (a sliver standing on the rim of a
     * thin slab, all its corners near the plane) would fold the polygon over
     * itself in the plane, where corners are measured. */
    const qh_tri *tri = &q->tris[t];
    if (!(dv_dot(tri->normal, grp->normal) > 0.0)) return false;
    dvec3 area_sum = dv_add(grp->area_sum, dv_scale(tri->normal, tri->area));
    dvec3 weighted = dv_add(grp->weighted, dv_scale(tri->centroid, tri->area));
    double area = grp->area + tri->area;
    dvec3 normal, point;
    group_plane(area_sum, weighted, area, &normal, &point);
    for (int i = 0; i < grp->vertex_count; i++) {
        dvec3 p = q->pts[f->vertices[grp->first_vertex + i]];
        if (fabs(dv_dot(normal, dv_sub(p, point))) > q->tol) return false;
    }
    if (new_vertex >= 0 && fabs(dv_dot(normal, dv_sub(q->pts[new_vertex], point))) > q->tol) return false;
    /* The plane must still support the hull: a narrow strip of triangles
     * (the rim of a thin slab) has all its corners near many planes, some
     * tilted enough to cut the hull far away. */
    for (int i = 0; i < q->npts; i++)
        if (!q->excluded[i] && dv_dot(normal, dv_sub(q->pts[i], point)) > q->tol) return false;
    grp->area_sum = area_sum;
    grp->weighted = weighted;
    grp->area = area;
    grp->normal = normal;
    grp->point = point;
    q->tris[t].group = g;
    f->members[grp->first_member + grp->member_count++] = t;
    if (new_vertex >= 0) {
        q->stamp[new_vertex] = g;
        f->vertices[grp->first_vertex + grp->vertex_count++] = new_vertex;
    }
    return true;
}

/* Larger area first, then the lower index. */
static bool area_before(const qh *q, int a, int b)
{
    double aa = q->tris[a].area, ab = q->tris[b].area;
    if (aa != ab) return aa > ab;
    return a < b;
}

/* Sorts the live triangles by area, largest first (insertion sort: qsort has
 * no context pointer in C11, and a few hundred items is nothing). */
static void sort_by_area(const qh *q, int *items, int n)
{
    for (int i = 1; i < n; i++) {
        int v = items[i];
        int j = i - 1;
        while (j >= 0 && area_before(q, v, items[j])) {
            items[j + 1] = items[j];
            j--;
        }
        items[j + 1] = v;
    }
}

/* Grows the regions over the live triangles (list_a, largest first). */
static void grow_groups(qh *q, qh_faces *f, int live)
{
    for (int i = 0; i < live; i++) q->tris[q->list_a[i]].group = -1;
    for (int i = 0; i < q->npts; i++) q->stamp[i] = -1;

    f->ngroups = 0;
    int used_members = 0, used_vertices = 0;
    for (int s = 0; s < live; s++) {
        int seed = q->list_a[s];
        if (q->tris[seed].group >= 0) continue;
        int g = f->ngroups++;
        qh_group *grp = &f->groups[g];
        memset(grp, 0, sizeof *grp);
        const qh_tri *tri = &q->tris[seed];
        grp->area_sum = dv_scale(tri->normal, tri->area);
        grp->weighted = dv_scale(tri->centroid, tri->area);
        grp->area = tri->area;
        grp->normal = tri->normal;
        grp->point = tri->centroid;
        grp->first_member = used_members;
        grp->first_vertex = used_vertices;
        q->tris[seed].group = g;
        f->members[grp->first_member + grp->member_count++] = seed;
        for (int k = 0; k < 3; k++) {
            int v = q->origin[3 * seed + k];
            q->stamp[v] = g;
            f->vertices[grp->first_vertex + grp->vertex_count++] = v;
        }
        /* grow until no neighbour joins (one that cannot yet, for the disk,
         * may later, once the notch beside it is filled) */
        bool grew = !q->tris[seed].alone;
        while (grew) {
            grew = false;
            for (int m = 0; m < grp->member_count; m++) {
                int t = f->members[grp->first_member + m];
                for (int k = 0; k < 3; k++) {
                    int u = edge_tri(q->twin[3 * t + k]);
                    if (q->tris[u].group < 0 && try_join(q, f, g, u)) grew = true;
                }
            }
        }
        used_members += grp->member_count;
        used_vertices += grp->vertex_count;
    }
}

/* The live triangles in list_a, largest first; their count. */
static int live_by_area(qh *q)
{
    int live = 0;
    for (int t = 0; t < q->ntris; t++)
        if (q->tris[t].alive) q->list_a[live++] = t;
    sort_by_area(q, q->list_a, live);
    return live;
}

/* Two polygons must not meet at a vertex with no third: with planes at a
 * shallow angle (the top and bottom of a thin slab) a rim vertex lies within
 * tol of both and can still stand out of the chord on each (a vertex that does
 * not is no corner and goes first). Each such vertex gets its smallest
 * triangle as a polygon of its own, for the regions to be grown again; the
 * count of those triangles. */
static int mark_lonely(qh *q, int live)
{
    int lonely = 0;
    for (int i = 0; i < live; i++) {
        int t = q->list_a[i];
        for (int k = 0; k < 3; k++) {
            int e = 3 * t + k;
            if (corners_around(q, e) != 2) continue;
            int best = -1, start = e, turns = 0;
            do {
                int u = edge_tri(e);
                if (!q->tris[u].alone && (best < 0 || q->tris[u].area < q->tris[best].area ||
                                          (q->tris[u].area == q->tris[best].area && u < best)))
                    best = u;
                e = q->twin[edge_next(edge_next(e))];
            } while (e != start && ++turns < q->ntris);
            if (best >= 0) {
                q->tris[best].alone = true;
                lonely++;
            }
        }
    }
    return lonely;
}

/* Groups the live triangles (list_a, largest first) into planar disks; their
 * boundaries are the faces. */
static qh_result make_faces(qh *q, qh_faces *f, int live)
{
    grow_groups(q, f, live);
    /* the boundaries: from an edge of the group whose twin is not, the next
     * one turns about its destination through the group's triangles */
    for (int g = 0; g < f->ngroups; g++) {
        qh_group *grp = &f->groups[g];
        int start = -1;
        for (int m = 0; m < grp->member_count && start < 0; m++) {
            int t = f->members[grp->first_member + m];
            for (int k = 0; k < 3 && start < 0; k++)
                if (q->tris[edge_tri(q->twin[3 * t + k])].group != g) start = 3 * t + k;
        }
        if (start < 0) return QH_RETRY; /* the whole hull one plane: impossible past the simplex */
        int e = start, n = 0;
        do {
            n++;
            int c = edge_next(e);
            int turns = 0;
            while (q->tris[edge_tri(q->twin[c])].group == g && turns++ < q->ntris) c = edge_next(q->twin[c]);
            e = c;
        } while (e != start && n <= 3 * q->ntris);
        if (e != start) return QH_RETRY;
        grp->boundary_edge = start;
        grp->boundary_count = n;
    }
    return QH_OK;
}


/* The point that is least a corner: on some polygon, within tol of the line
 * through its two neighbours (in the polygon's plane); -1 when every vertex
 * is a corner. Also -1 with *broken set when a boundary visits a vertex twice. */
static int worst_non_corner(qh *q, const qh_faces *f, bool *broken)
{
    int worst = -1;
    double worst_dev = 0.0;
    *broken = false;
    for (int i = 0; i < q->npts; i++) q->stamp[i] = -1;
    for (int g = 0; g < f->ngroups; g++) {
        const qh_group *grp = &f->groups[g];
        int prev = grp->boundary_edge;
        for (int i = 0; i < grp->boundary_count - 1; i++) prev = boundary_next(q, g, prev);
        int e = grp->boundary_edge;
        for (int i = 0; i < grp->boundary_count; i++) {
            int next = boundary_next(q, g, e);
            int v = q->origin[e];
            if (q->stamp[v] == g) *broken = true;
            q->stamp[v] = g;
            double dev = corner_deviation(q->pts[q->origin[prev]], q->pts[v], q->pts[edge_dest(q, e)], grp->normal);
            if (dev <= q->tol && (worst < 0 || dev < worst_dev || (dev == worst_dev && v < worst))) {
                worst = v;
                worst_dev = dev;
            }
            prev = e;
            e = next;
        }
    }
    return worst;
}

/* ---- the output ---- */

/* Polygons ordered by their lowest vertex, then the vertex after it. */
typedef struct {
    int lowest, after;
    int group;
    int start_edge; /* the boundary edge leaving its lowest vertex */
} face_key;

static int compare_face_keys(const void *pa, const void *pb)
{
    const face_key *a = pa, *b = pb;
    if (a->lowest != b->lowest) return a->lowest < b->lowest ? -1 : 1;
    return (a->after > b->after) - (a->after < b->after);
}

/* Exact mass properties of the closed polyhedron, faces fanned from their
 * first vertex, tetrahedra from ref (any point; the mean vertex keeps the
 * terms small): volume, centroid and inertia about it for density 1. */
static void mass_properties(vx_hull *h)
{
    dvec3 ref = dv(0.0, 0.0, 0.0);
    for (int i = 0; i < h->vertex_count; i++)
        ref = dv_add(ref, dv(h->vertices[i].x, h->vertices[i].y, h->vertices[i].z));
    ref = dv_scale(ref, 1.0 / h->vertex_count);
    double six_volume = 0.0;
    dvec3 first = dv(0.0, 0.0, 0.0); /* 24 times the first moment about ref */
    double second[3][3] = {{0.0}};   /* 120 times the second moments about ref */
    for (int fi = 0; fi < h->face_count; fi++) {
        const vx_hull_face *face = &h->faces[fi];
        const vx_hull_edge *e0 = &h->edges[face->first_edge];
        vx_vec3 v0 = h->vertices[e0->origin];
        dvec3 a = dv_sub(dv(v0.x, v0.y, v0.z), ref);
        const vx_hull_edge *e = &h->edges[e0->next];
        for (int k = 1; k + 1 < face->edge_count; k++) {
            vx_vec3 v1 = h->vertices[e->origin];
            vx_vec3 v2 = h->vertices[h->edges[e->next].origin];
            dvec3 b = dv_sub(dv(v1.x, v1.y, v1.z), ref);
            dvec3 c = dv_sub(dv(v2.x, v2.y, v2.z), ref);
            double det = dv_dot(a, dv_cross(b, c));
            dvec3 s = dv_add(dv_add(a, b), c);
            six_volume += det;
            first = dv_add(first, dv_scale(s, det));
            const double *pa = &a.x, *pb = &b.x, *pc = &c.x, *ps = &s.x;
            for (int i = 0; i < 3; i++)
                for (int j = 0; j < 3; j++)
                    second[i][j] += det * (pa[i] * pa[j] + pb[i] * pb[j] + pc[i] * pc[j] + ps[i] * ps[j]);
            e = &h->edges[e->next];
        }
    }
    double volume = six_volume / 6.0;
    /* first moment / volume = (first / 24) / (six_volume / 6) */
    dvec3 d = dv_scale(first, 0.25 / six_volume);
    const double *pd = &d.x;
    double cov[3][3];
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) cov[i][j] = second[i][j] / 120.0 - volume * pd[i] * pd[j];
    double trace = cov[0][0] + cov[1][1] + cov[2][2];
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) h->inertia.m[i][j] = (float)((i == j ? trace : 0.0) - cov[i][j]);
    dvec3 c = dv_add(ref, d);
    h->centroid = vx_vec3_make((float)c.x, (float)c.y, (float)c.z);
    h->volume = (float)volume;
    double inner = INFINITY;
    for (int fi = 0; fi < h->face_count; fi++) {
        const vx_hull_face *face = &h->faces[fi];
        double dist = (double)face->offset -
                      ((double)face->normal.x * c.x + (double)face->normal.y * c.y + (double)face->normal.z * c.z);
        if (dist < inner) inner = dist;
    }
    h->inner_radius = (float)inner;
}

/* The hull in one block from the groups: vertices in point order, faces by
 * their lowest vertex, half-edges face by face with twins side by side. */
static qh_result emit(qh *q, const qh_faces *f, vx_hull **out)
{
    int *vertex_of = q->stamp; /* point -> vertex, -1 for none */
    for (int i = 0; i < q->npts; i++) vertex_of[i] = -1;
    int half_edges = 0;
    for (int g = 0; g < f->ngroups; g++) {
        int e = f->groups[g].boundary_edge;
        for (int i = 0; i < f->groups[g].boundary_count; i++) {
            vertex_of[q->origin[e]] = 0;
            e = boundary_next(q, g, e);
        }
        half_edges += f->groups[g].boundary_count;
    }
    int nv = 0;
    for (int i = 0; i < q->npts; i++)
        if (vertex_of[i] == 0) vertex_of[i] = nv++;
    int nf = f->ngroups;
    VX_ASSERT(nv <= VX_HULL_MAX_POINTS && half_edges <= 6 * VX_HULL_MAX_POINTS && half_edges % 2 == 0);

    face_key *keys = malloc((size_t)nf * sizeof *keys);
    int *edge_out = malloc((size_t)3 * (size_t)q->ntris * sizeof *edge_out); /* working edge -> output */
    size_t bytes = sizeof(vx_hull) + (size_t)nv * sizeof(vx_vec3) + (size_t)nf * sizeof(vx_hull_face) +
                   (size_t)half_edges * sizeof(vx_hull_edge);
    vx_hull *h = calloc(1, bytes); /* zeroed: no stray bytes, the same bits every time */
    if (!keys || !edge_out || !h) {
        free(keys);
        free(edge_out);
        free(h);
        return QH_NOMEM;
    }
    h->vertices = (vx_vec3 *)(void *)(h + 1);
    h->faces = (vx_hull_face *)(void *)(h->vertices + nv);
    h->edges = (vx_hull_edge *)(void *)(h->faces + nf);
    h->vertex_count = (uint16_t)nv;
    h->face_count = (uint16_t)nf;
    h->edge_count = (uint16_t)half_edges;
    for (int i = 0; i < q->npts; i++) {
        if (vertex_of[i] < 0) continue;
        h->vertices[vertex_of[i]] = vx_vec3_make((float)q->pts[i].x, (float)q->pts[i].y, (float)q->pts[i].z);
    }

    for (int g = 0; g < nf; g++) {
        face_key *k = &keys[g];
        k->group = g;
        k->lowest = -1;
        int e = f->groups[g].boundary_edge;
        for (int i = 0; i < f->groups[g].boundary_count; i++) {
            int v = vertex_of[q->origin[e]];
            if (k->lowest < 0 || v < k->lowest) {
                k->lowest = v;
                k->start_edge = e;
                k->after = vertex_of[edge_dest(q, e)];
            }
            e = boundary_next(q, g, e);
        }
    }
    qsort(keys, (size_t)nf, sizeof *keys, compare_face_keys);

    for (int i = 0; i < 3 * q->ntris; i++) edge_out[i] = -1;
    int pairs = 0;
    for (int fi = 0; fi < nf; fi++) {
        const face_key *k = &keys[fi];
        int e = k->start_edge;
        for (int i = 0; i < f->groups[k->group].boundary_count; i++) {
            if (edge_out[e] < 0) {
                edge_out[e] = 2 * pairs;
                edge_out[q->twin[e]] = 2 * pairs + 1;
                pairs++;
            }
            e = boundary_next(q, k->group, e);
        }
    }
    for (int fi = 0; fi < nf; fi++) {
        const face_key *k = &keys[fi];
        const qh_group *grp = &f->groups[k->group];
        int e = k->start_edge;
        for (int i = 0; i < grp->boundary_count; i++) {
            int next = boundary_next(q, k->group, e);
            vx_hull_edge *out_e = &h->edges[edge_out[e]];
            out_e->origin = (uint16_t)vertex_of[q->origin[e]];
            out_e->twin = (uint16_t)(edge_out[e] ^ 1);
            out_e->next = (uint16_t)edge_out[next];
            out_e->face = (uint16_t)fi;
            e = next;
        }
        /* The plane from the float vertices (the same values as the points):
         * the sum of the triangles' area vectors, through their area-weighted
         * centroid; the offset is the mean over the polygon's corners. */
        vx_hull_face *face = &h->faces[fi];
        face->first_edge = (uint16_t)edge_out[k->start_edge];
        face->edge_count = (uint16_t)grp->boundary_count;
        dvec3 n = grp->normal;
        double offset = 0.0;
        e = k->start_edge;
        for (int i = 0; i < grp->boundary_count; i++) {
            offset += dv_dot(n, q->pts[q->origin[e]]);
            e = boundary_next(q, k->group, e);
        }
        offset /= grp->boundary_count;
        face->normal = vx_vec3_make((float)n.x, (float)n.y, (float)n.z);
        face->offset = (float)offset;
    }
    free(keys);
    free(edge_out);

    h->tolerance = (float)q->tol;
    mass_properties(h);
    h->frame.position = vx_vec3_zero();
    h->frame.rotation = vx_quat_identity();
    vx_hull_update_bounds(h);
    *out = h;
    return QH_OK;
}

/* ---- the entry point ---- */

static int compare_points(const void *pa, const void *pb)
{
    const dvec3 *a = pa, *b = pb;
    if (a->x != b->x) return a->x < b->x ? -1 : 1;
    if (a->y != b->y) return a->y < b->y ? -1 : 1;
    return (a->z > b->z) - (a->z < b->z);
}

static void free_qh(qh *q)
{
    free(q->pts);
    free(q->conflict_next);
    free(q->conflict_dist);
    free(q->horizon_from);
    free(q->stamp);
    free(q->excluded);
    free(q->tris);
    free(q->origin);
    free(q->twin);
    free(q->list_a);
    free(q->list_b);
    free(q->list_c);
}

static void free_faces(qh_faces *f)
{
    free(f->groups);
    free(f->members);
    free(f->vertices);
}

static vx_status nomem(qh *q, qh_faces *f, vx_error *err)
{
    free_qh(q);
    free_faces(f);
    return vx_error_set(err, VX_ERR_NOMEM, "hull: out of memory");
}

/* The tolerance of the points (the file's opening comment says why). */
static double point_tolerance(const dvec3 *pts, int n, double *seen)
{
    dvec3 lo = pts[0], hi = pts[0];
    double ax = 0.0, ay = 0.0, az = 0.0;
    for (int i = 0; i < n; i++) {
        lo = dv(fmin(lo.x, pts[i].x), fmin(lo.y, pts[i].y), fmin(lo.z, pts[i].z));
        hi = dv(fmax(hi.x, pts[i].x), fmax(hi.y, pts[i].y), fmax(hi.z, pts[i].z));
        ax = fmax(ax, fabs(pts[i].x));
        ay = fmax(ay, fabs(pts[i].y));
        az = fmax(az, fabs(pts[i].z));
    }
    double size = fmax(hi.x - lo.x, fmax(hi.y - lo.y, hi.z - lo.z));
    *seen = HULL_SEEN_ROUNDING * DBL_EPSILON * (ax + ay + az);
    return fmax(3.0 * FLT_EPSILON * (ax + ay + az), HULL_RELATIVE_TOLERANCE * size);
}

vx_status vx_hull_build(const vx_vec3 *points, size_t count, vx_hull **out, vx_error *err)
{
    if (!out) return vx_error_set(err, VX_ERR_INVALID, "hull: no output given");
    *out = NULL;
    if (count > VX_HULL_MAX_POINTS)
        return vx_error_set(err, VX_ERR_INVALID, "hull: %zu points, at most %d", count, VX_HULL_MAX_POINTS);
    if (count > 0 && !points) return vx_error_set(err, VX_ERR_INVALID, "hull: no points given");
    for (size_t i = 0; i < count; i++)
        if (!vx_vec3_is_finite(points[i]))
            return vx_error_set(err, VX_ERR_INVALID, "hull: point %zu is not finite", i);
    if (count < 4) return vx_error_set(err, VX_ERR_INVALID, "hull: fewer than 4 distinct points (%zu given)", count);

    qh q;
    qh_faces f;
    memset(&q, 0, sizeof q);
    memset(&f, 0, sizeof f);
    size_t n = count;
    q.pts = malloc(n * sizeof *q.pts);
    q.conflict_next = malloc(n * sizeof *q.conflict_next);
    q.conflict_dist = malloc(n * sizeof *q.conflict_dist);
    q.horizon_from = malloc(n * sizeof *q.horizon_from);
    q.stamp = malloc(n * sizeof *q.stamp);
    q.excluded = calloc(n, sizeof *q.excluded);
    if (!q.pts || !q.conflict_next || !q.conflict_dist || !q.horizon_from || !q.stamp || !q.excluded)
        return nomem(&q, &f, err);
    /* + 0.0 turns -0 into +0: the two would sort as equal but differ in bits */
    for (size_t i = 0; i < n; i++)
        q.pts[i] = dv((double)points[i].x + 0.0, (double)points[i].y + 0.0, (double)points[i].z + 0.0);
    qsort(q.pts, n, sizeof *q.pts, compare_points);
    int m = 0;
    for (size_t i = 0; i < n; i++)
        if (m == 0 || compare_points(&q.pts[m - 1], &q.pts[i]) != 0) q.pts[m++] = q.pts[i];
    q.npts = m;
    for (int i = 0; i < m; i++) q.horizon_from[i] = -1;
    if (m < 4) {
        free_qh(&q);
        return vx_error_set(err, VX_ERR_INVALID, "hull: fewer than 4 distinct points (%d)", m);
    }
    q.tol = point_tolerance(q.pts, m, &q.seen);

    /* Faces of a closed mesh of V <= 256 vertices: at most 2V - 4 polygons and
     * as many triangles, whose vertices the groups list at most 3 times each. */
    f.groups = malloc((size_t)(2 * m) * sizeof *f.groups);
    f.members = malloc((size_t)(2 * m) * sizeof *f.members);
    f.vertices = malloc((size_t)(6 * m) * sizeof *f.vertices);
    if (!f.groups || !f.members || !f.vertices) return nomem(&q, &f, err);

    int retries = 0;
    for (;;) {
        int simplex[4];
        simplex_kind kind = find_simplex(&q, simplex);
        if (kind != SIMPLEX_OK) {
            free_qh(&q);
            free_faces(&f);
            const char *what = kind == SIMPLEX_POINT  ? "fewer than 4 distinct points"
                               : kind == SIMPLEX_LINE ? "all points lie on one line"
                                                      : "all points lie on one plane";
            return vx_error_set(err, VX_ERR_INVALID, "hull: %s (within %g)", what, q.tol);
        }
        qh_result r = run_quickhull(&q, simplex);
        if (r == QH_OK && !reserve_lists(&q, (size_t)q.ntris)) r = QH_NOMEM;
        int live = r == QH_OK ? live_by_area(&q) : 0;
        bool done = false, excluded = false;
        for (int round = 0; r == QH_OK && !done && !excluded; round++) {
            r = make_faces(&q, &f, live);
            if (r != QH_OK) break;
            bool broken = false;
            int worst = worst_non_corner(&q, &f, &broken);
            if (broken || round > live) {
                r = QH_RETRY;
            } else if (worst >= 0) {
                q.excluded[worst] = true;
                excluded = true;
            } else if (mark_lonely(&q, live) == 0) {
                r = emit(&q, &f, out);
                done = r == QH_OK;
            }
        }
        if (r == QH_NOMEM) return nomem(&q, &f, err);
        if (done) break;
        if (excluded) continue;
        if (++retries > HULL_MAX_RETRIES) {
            free_qh(&q);
            free_faces(&f);
            return vx_error_set(err, VX_ERR_INVALID, "hull: no consistent hull within tolerance %g", q.tol);
        }
        q.tol *= 2.0;
        q.seen *= 2.0;
        memset(q.excluded, 0, n * sizeof *q.excluded);
    }
    free_qh(&q);
    free_faces(&f);
    vx_error_clear(err);
    return VX_OK;
}

void vx_hull_destroy(vx_hull *hull) { free(hull); }

uint16_t vx_hull_support(const vx_hull *hull, vx_vec3 d)
{
    uint16_t best = 0;
    float best_dot = vx_vec3_dot(hull->vertices[0], d);
    for (uint16_t i = 1; i < hull->vertex_count; i++) {
        float dot = vx_vec3_dot(hull->vertices[i], d);
        if (dot > best_dot) {
            best_dot = dot;
            best = i;
        }
    }
    return best;
}
