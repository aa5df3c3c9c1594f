/* Overlaps of convex shapes with meshes (src/physics/collision/
 * overlap_mesh.c) against references worked out another way: a sphere or
 * capsule overlaps a triangle when the triangle comes closer than the
 * radius to its centre or segment (the segment's distance by a search along
 * it); a box or hull when one of the triangle's edges passes through its
 * inside or one of its edges through the triangle. Thousands of random
 * shapes and poses around a tilted triangle, and the mesh's tree (a bumpy
 * grid) against a loop over its triangles. */
#include <criterion/criterion.h>
#include <math.h>
#include <string.h>

#include "physics/body/hull.h"
#include "physics/body/mesh.h"
#include "physics/collision/collide_mesh.h"
#include "physics/collision/triangle_geometry.h"
#include "test_helpers.h"
#include "test_hull_helpers.h"
#include "test_mesh_helpers.h"

static void to_d(vx_vec3 v, double out[3])
{
    out[0] = v.x;
    out[1] = v.y;
    out[2] = v.z;
}

/* A point of the shape's frame in the world, in double from the float pose. */
static void world_point(const vx_transform *pose, vx_vec3 local, double out[3])
{
    vx_mat3 r = vx_mat3_from_quat(vx_quat_normalize(pose->rotation));
    for (int i = 0; i < 3; i++)
        out[i] = (double)r.m[i][0] * local.x + (double)r.m[i][1] * local.y + (double)r.m[i][2] * local.z +
                 (double)vx_vec3_get(pose->position, i);
}

/* A polytope in the world: its vertices, face planes (n . x <= d) and edges. */
typedef struct {
    int nv, nf, ne;
    double v[256][3], n[512][3], d[512];
    int edge[768][2];
} polytope;

static void polytope_of(const vx_collider *c, const vx_transform *pose, polytope *p)
{
    memset(p, 0, sizeof *p);
    vx_mat3 r = vx_mat3_from_quat(vx_quat_normalize(pose->rotation));
    if (c->type == VX_SHAPE_BOX) {
        vx_vec3 h = c->half_extents;
        p->nv = 8;
        for (int i = 0; i < 8; i++)
            world_point(pose, vx_vec3_make(i & 1 ? h.x : -h.x, i & 2 ? h.y : -h.y, i & 4 ? h.z : -h.z), p->v[i]);
        for (int f = 0; f < 6; f++) {
            int axis = f / 2;
            double s = f % 2 ? -1.0 : 1.0;
            for (int i = 0; i < 3; i++) p->n[f][i] = s * (double)r.m[i][axis];
            double centre[3];
            to_d(pose->position, centre);
            p->d[f] = 0.0;
            for (int i = 0; i < 3; i++) p->d[f] += p->n[f][i] * centre[i];
            p->d[f] += (double)vx_vec3_get(h, axis);
        }
        p->nf = 6;
        for (int i = 0; i < 8; i++)
            for (int k = 0; k < 3; k++)
                if (!(i & (1 << k))) {
                    p->edge[p->ne][0] = i;
                    p->edge[p->ne][1] = i | (1 << k);
                    p->ne++;
                }
        return;
    }
    const vx_hull *hull = c->hull;
    p->nv = hull->vertex_count;
    for (int i = 0; i < p->nv; i++) world_point(pose, hull->vertices[i], p->v[i]);
    p->nf = hull->face_count;
    for (int f = 0; f < p->nf; f++) {
        /* the plane through the face's first vertex, normal turned */
        vx_vec3 n = hull->faces[f].normal;
        for (int i = 0; i < 3; i++) p->n[f][i] = (double)r.m[i][0] * n.x + (double)r.m[i][1] * n.y + (double)r.m[i][2] * n.z;
        const double *a = p->v[hull->edges[hull->faces[f].first_edge].origin];
        p->d[f] = p->n[f][0] * a[0] + p->n[f][1] * a[1] + p->n[f][2] * a[2];
    }
    p->ne = hull->edge_count / 2;
    for (int e = 0; e < p->ne; e++) {
        p->edge[e][0] = hull->edges[2 * e].origin;
        p->edge[e][1] = hull->edges[2 * e + 1].origin;
    }
}

/* Whether the segment a-b passes through the polytope's inside. */
static bool segment_inside(const polytope *p, const double a[3], const double b[3])
{
    double t0 = 0.0, t1 = 1.0;
    for (int f = 0; f < p->nf; f++) {
        double da = p->n[f][0] * a[0] + p->n[f][1] * a[1] + p->n[f][2] * a[2] - p->d[f];
        double db = p->n[f][0] * b[0] + p->n[f][1] * b[1] + p->n[f][2] * b[2] - p->d[f];
        if (da >= 0.0 && db >= 0.0) return false;
        if (da < 0.0 && db < 0.0) continue;
        double t = da / (da - db);
        if (da >= 0.0) t0 = fmax(t0, t);
        else t1 = fmin(t1, t);
    }
    return t1 > t0;
}

/* Whether the segment a-b crosses the triangle (its plane within its corners). */
static bool segment_crosses(const vx_dtriangle *tr, const double a[3], const double b[3])
{
    double ha[3], hb[3];
    vx_tri_sub(a, tr->v[0], ha);
    vx_tri_sub(b, tr->v[0], hb);
    double sa = vx_tri_dot(tr->n, ha), sb = vx_tri_dot(tr->n, hb);
    if (!((sa < 0.0 && sb > 0.0) || (sa > 0.0 && sb < 0.0))) return false;
    double u = sa / (sa - sb), x[3];
    for (int i = 0; i < 3; i++) x[i] = a[i] + u * (b[i] - a[i]);
    for (int k = 0; k < 3; k++) {
        double e[3], w[3], c[3];
        vx_tri_sub(tr->v[(k + 1) % 3], tr->v[k], e);
        vx_tri_sub(x, tr->v[k], w);
        vx_tri_cross(e, w, c);
        if (vx_tri_dot(c, tr->n) < 0.0) return false;
    }
    return true;
}

static bool polytope_reference(const polytope *p, const vx_dtriangle *tr)
{
    for (int k = 0; k < 3; k++)
        if (segment_inside(p, tr->v[k], tr->v[(k + 1) % 3])) return true;
    for (int e = 0; e < p->ne; e++)
        if (segment_crosses(tr, p->v[p->edge[e][0]], p->v[p->edge[e][1]])) return true;
    return false;
}

/* The least distance from the segment a-b to the triangle, by a golden
 * search along it (the distance is convex along a line). */
static double segment_distance(const vx_dtriangle *tr, const double a[3], const double b[3])
{
    double lo = 0.0, hi = 1.0;
    const double g = (sqrt(5.0) - 1.0) / 2.0;
    for (int it = 0; it < 120; it++) {
        double s1 = hi - g * (hi - lo), s2 = lo + g * (hi - lo), p1[3], p2[3];
        for (int i = 0; i < 3; i++) {
            p1[i] = a[i] + s1 * (b[i] - a[i]);
            p2[i] = a[i] + s2 * (b[i] - a[i]);
        }
        if (vx_tri_distance_sq(tr, p1) < vx_tri_distance_sq(tr, p2)) hi = s2;
        else lo = s1;
    }
    double p[3];
    for (int i = 0; i < 3; i++) p[i] = a[i] + 0.5 * (lo + hi) * (b[i] - a[i]);
    return sqrt(vx_tri_distance_sq(tr, p));
}

Test(overlap_mesh, shapes_around_a_triangle_against_references)
{
    vx_vec3 v[3] = {{-1.2f, 0.1f, -0.8f}, {1.3f, -0.3f, 0.2f}, {0.1f, 0.8f, 1.1f}};
    uint32_t idx[3] = {0, 1, 2};
    vx_mesh *m = NULL;
    vx_error err;
    cr_assert_eq(vx_mesh_build(v, 3, idx, 1, &m, &err), VX_OK);
    vx_collider mc = vx_collider_mesh(m);
    vx_test_rng rng = {31u};
    vx_vec3 corners[12] = {{0.6f, 0, 0},    {-0.5f, 0.1f, 0}, {0, 0.4f, 0.2f}, {0, -0.45f, 0},
                           {0.1f, 0, 0.5f}, {0, 0.1f, -0.4f}, {0.3f, 0.3f, 0.3f}, {-0.3f, -0.2f, 0.3f}};
    vx_hull *rock = vx_test_hull(corners, 8);
    int hits[4] = {0, 0, 0, 0}, cases[4] = {0, 0, 0, 0};
    for (int i = 0; i < 4000; i++) {
        int kind = i % 4;
        vx_collider c;
        switch (kind) {
        case 0: c = vx_collider_sphere(vx_test_rng_range(&rng, 0.05f, 0.8f)); break;
        case 1: c = vx_collider_capsule(vx_test_rng_range(&rng, 0.05f, 0.4f), vx_test_rng_range(&rng, 0.1f, 0.8f)); break;
        case 2: c = vx_collider_box(vx_test_rng_vec3(&rng, 0.05f, 0.7f)); break;
        default: c = vx_collider_hull(rock); break;
        }
        vx_transform mesh_pose = vx_test_pose(vx_test_rng_vec3(&rng, -2, 2), vx_test_random_rotation(&rng));
        vx_transform pose = vx_test_pose(vx_vec3_add(mesh_pose.position, vx_test_rng_vec3(&rng, -1.5f, 1.5f)),
                                         vx_test_random_rotation(&rng));
        bool got = vx_overlap_mesh(&c, &pose, &mc, &mesh_pose);
        /* the triangle in the world, from the float pose as the shape's */
        vx_dtriangle tr;
        for (int k = 0; k < 3; k++) world_point(&mesh_pose, v[k], tr.v[k]);
        double e1[3], e2[3];
        vx_tri_sub(tr.v[1], tr.v[0], e1);
        vx_tri_sub(tr.v[2], tr.v[0], e2);
        vx_tri_cross(e1, e2, tr.n);
        double len = sqrt(vx_tri_dot(tr.n, tr.n));
        for (int k = 0; k < 3; k++) tr.n[k] /= len;
        bool want;
        double slack = 0.0; /* how close to the answer's edge: such cases are left out */
        if (kind <= 1) {
            double a[3], b[3];
            world_point(&pose, vx_vec3_make(0.0f, kind ? -c.half_height : 0.0f, 0.0f), a);
            world_point(&pose, vx_vec3_make(0.0f, kind ? c.half_height : 0.0f, 0.0f), b);
            double d = kind ? segment_distance(&tr, a, b) : sqrt(vx_tri_distance_sq(&tr, a));
            want = d < c.radius;
            slack = fabs(d - c.radius);
        } else {
            polytope p;
            polytope_of(&c, &pose, &p);
            want = polytope_reference(&p, &tr);
            slack = 1.0;
        }
        if (slack < 1e-5) continue;
        cases[kind]++;
        hits[kind] += want;
        cr_assert_eq(got, want, "case %d (kind %d): overlap %d, reference %d", i, kind, got, want);
    }
    for (int k = 0; k < 4; k++) cr_assert_gt(hits[k], cases[k] / 10, "kind %d: %d of %d overlap", k, hits[k], cases[k]);
    vx_hull_destroy(rock);
    vx_mesh_destroy(m);
}

static float waves(float x, float z) { return 0.3f * sinf(x) * cosf(0.8f * z); }

Test(overlap_mesh, the_tree_finds_what_a_loop_over_every_triangle_finds)
{
    vx_test_grid g = vx_test_grid_make(12, 0.8f, waves);
    vx_mesh *m = NULL, *one[288];
    vx_error err;
    cr_assert_eq(vx_mesh_build(g.vertices, g.vertex_count, g.indices, g.triangle_count, &m, &err), VX_OK);
    cr_assert_eq(m->triangle_count, 288u);
    for (uint32_t t = 0; t < m->triangle_count; t++) {
        vx_mesh_triangle tri;
        vx_mesh_get_triangle(m, t, &tri);
        uint32_t idx[3] = {0, 1, 2};
        cr_assert_eq(vx_mesh_build(tri.v, 3, idx, 1, &one[t], &err), VX_OK);
    }
    vx_collider mc = vx_collider_mesh(m);
    vx_transform mesh_pose = vx_test_pose(vx_vec3_make(0.5f, -0.2f, 0.1f), vx_quat_from_axis_angle(vx_vec3_make(1, 0, 0), 0.2f));
    vx_test_rng rng = {77u};
    int overlapping = 0;
    for (int i = 0; i < 200; i++) {
        vx_collider c = i % 2 ? vx_collider_box(vx_test_rng_vec3(&rng, 0.1f, 0.6f))
                              : vx_collider_capsule(0.2f, vx_test_rng_range(&rng, 0.1f, 0.8f));
        vx_transform pose = vx_test_pose(vx_vec3_make(vx_test_rng_range(&rng, -5, 5), vx_test_rng_range(&rng, -1, 1),
                                                      vx_test_rng_range(&rng, -5, 5)),
                                         vx_test_random_rotation(&rng));
        bool any = false;
        for (uint32_t t = 0; t < m->triangle_count && !any; t++) {
            vx_collider oc = vx_collider_mesh(one[t]);
            any = vx_overlap_mesh(&c, &pose, &oc, &mesh_pose);
        }
        cr_assert_eq(vx_overlap_mesh(&c, &pose, &mc, &mesh_pose), any, "case %d", i);
        overlapping += any;
    }
    cr_assert_gt(overlapping, 20);
    for (uint32_t t = 0; t < m->triangle_count; t++) vx_mesh_destroy(one[t]);
    vx_mesh_destroy(m);
    vx_test_grid_free(&g);
}
