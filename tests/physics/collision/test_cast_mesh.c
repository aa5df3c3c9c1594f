/* Ray and sphere casts against meshes and heightfields
 * (src/physics/collision/cast_mesh.c) against closed forms: a ray onto a
 * plane of triangles at the plane's distance, from either side; rays at a
 * tilted triangle against the plane crossing and barycentric coordinates
 * worked in double here; sphere casts against the first root of the
 * distance to the triangle less the radius (a reference search); a
 * heightfield sampling a 15 degree plane against the plane; starts on or
 * within reach at distance 0; and the tree's answer equal to a loop over
 * every triangle of a bumpy mesh. */
#include <criterion/criterion.h>
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "physics/body/mesh.h"
#include "physics/collision/cast.h"
#include "test_helpers.h"
#include "test_hull_helpers.h"
#include "test_mesh_helpers.h"
#include "test_ref_cast.h"

static vx_mesh *mesh_of(const vx_test_grid *g)
{
    vx_mesh *m = NULL;
    vx_error err;
    cr_assert_eq(vx_mesh_build(g->vertices, g->vertex_count, g->indices, g->triangle_count, &m, &err), VX_OK, "%s",
                 err.message);
    return m;
}

static vx_collider collider_of(const vx_mesh *m) { return vx_collider_mesh(m); }

Test(cast_mesh, a_ray_onto_a_floor_of_triangles_meets_the_plane_from_either_side)
{
    vx_test_grid g = vx_test_grid_make(20, 1.0f, NULL);
    vx_mesh *m = mesh_of(&g);
    vx_collider c = collider_of(m);
    vx_transform pose = vx_test_pose(vx_vec3_make(0.0f, -2.0f, 0.0f), vx_quat_identity());
    vx_test_rng rng = {3u};
    for (int i = 0; i < 500; i++) {
        float x = vx_test_rng_range(&rng, -9.9f, 9.9f), z = vx_test_rng_range(&rng, -9.9f, 9.9f);
        if (i % 5 == 0) { /* through a vertex or along an edge of the grid */
            x = floorf(x);
            z = i % 2 ? floorf(z) : z;
        }
        float h = vx_test_rng_range(&rng, 0.1f, 30.0f);
        bool below = i % 2 == 1;
        vx_vec3 o = vx_vec3_make(x, below ? -2.0f - h : -2.0f + h, z);
        vx_cast_hit hit;
        cr_assert(vx_ray_cast_shape(&c, &pose, o, vx_vec3_make(0, below ? 1.0f : -1.0f, 0), 100.0f, &hit), "ray %d", i);
        VX_ASSERT_NEAR(hit.distance, (double)(below ? -2.0f - o.y : o.y + 2.0f), 2e-6 * h);
        VX_ASSERT_VEC3_NEAR(hit.point, x, -2.0f, z, 1e-6);
        VX_ASSERT_VEC3_NEAR(hit.normal, 0, below ? -1.0f : 1.0f, 0, 0);
    }
    /* beside the floor, and too short */
    vx_cast_hit hit;
    cr_assert_not(vx_ray_cast_shape(&c, &pose, vx_vec3_make(10.5f, 5, 0), vx_vec3_make(0, -1, 0), 100.0f, &hit));
    cr_assert_not(vx_ray_cast_shape(&c, &pose, vx_vec3_make(1, 5, 1), vx_vec3_make(0, -1, 0), 6.9f, &hit));
    /* starting on it */
    cr_assert(vx_ray_cast_shape(&c, &pose, vx_vec3_make(0.25f, -2.0f, 0.5f), vx_vec3_make(0, -1, 0), 1.0f, &hit));
    VX_ASSERT_NEAR(hit.distance, 0.0f, 0);
    VX_ASSERT_VEC3_NEAR(hit.normal, 0, 1, 0, 0);
    vx_mesh_destroy(m);
    vx_test_grid_free(&g);
}

/* ---- one tilted triangle, worked out here in double ---- */

typedef struct {
    double a[3], b[3], c[3];
} tri_d;

static void to_d(vx_vec3 v, double out[3])
{
    out[0] = v.x;
    out[1] = v.y;
    out[2] = v.z;
}

static double dot_d(const double a[3], const double b[3]) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }

static void cross_d(const double a[3], const double b[3], double o[3])
{
    o[0] = a[1] * b[2] - a[2] * b[1];
    o[1] = a[2] * b[0] - a[0] * b[2];
    o[2] = a[0] * b[1] - a[1] * b[0];
}

/* The ray's crossing with the triangle's plane and whether it is within
 * the corners (barycentric coordinates by areas): t, or -1 for a miss. */
static double ray_triangle(const tri_d *t, const double o[3], const double d[3])
{
    double e1[3], e2[3], n[3];
    for (int i = 0; i < 3; i++) {
        e1[i] = t->b[i] - t->a[i];
        e2[i] = t->c[i] - t->a[i];
    }
    cross_d(e1, e2, n);
    double ao[3] = {t->a[0] - o[0], t->a[1] - o[1], t->a[2] - o[2]};
    double s = dot_d(n, d);
    if (s == 0.0) return -1.0;
    double tt = dot_d(n, ao) / s;
    if (tt < 0.0) return -1.0;
    double p[3] = {o[0] + tt * d[0], o[1] + tt * d[1], o[2] + tt * d[2]};
    const double *v[3] = {t->a, t->b, t->c};
    for (int k = 0; k < 3; k++) {
        double e[3], w[3], x[3];
        for (int i = 0; i < 3; i++) {
            e[i] = v[(k + 1) % 3][i] - v[k][i];
            w[i] = p[i] - v[k][i];
        }
        cross_d(e, w, x);
        if (dot_d(x, n) < 0.0) return -1.0;
    }
    return tt;
}

static double segment_distance_sq(const double a[3], const double b[3], const double p[3])
{
    double u[3] = {b[0] - a[0], b[1] - a[1], b[2] - a[2]}, w[3] = {p[0] - a[0], p[1] - a[1], p[2] - a[2]};
    double s = fmin(fmax(dot_d(w, u) / dot_d(u, u), 0.0), 1.0);
    double q[3] = {w[0] - s * u[0], w[1] - s * u[1], w[2] - s * u[2]};
    return dot_d(q, q);
}

/* The distance from p to the triangle: to its plane when p is over it,
 * else to the nearest edge. */
static double triangle_distance(const tri_d *t, const double p[3])
{
    double e1[3], e2[3], n[3];
    for (int i = 0; i < 3; i++) {
        e1[i] = t->b[i] - t->a[i];
        e2[i] = t->c[i] - t->a[i];
    }
    cross_d(e1, e2, n);
    double len = sqrt(dot_d(n, n));
    double d[3] = {-n[0] / len, -n[1] / len, -n[2] / len};
    double o[3] = {p[0], p[1], p[2]};
    /* over it: the ray from p along the normal (either way) meets it */
    double down = ray_triangle(t, o, d);
    for (int i = 0; i < 3; i++) d[i] = -d[i];
    double up = ray_triangle(t, o, d);
    if (down >= 0.0) return down;
    if (up >= 0.0) return up;
    double best = segment_distance_sq(t->a, t->b, p);
    best = fmin(best, segment_distance_sq(t->b, t->c, p));
    best = fmin(best, segment_distance_sq(t->c, t->a, p));
    return sqrt(best);
}

typedef struct {
    const tri_d *t;
    double o[3], d[3], r;
} line;

static double line_f(const void *context, double t)
{
    const line *l = context;
    double p[3] = {l->o[0] + t * l->d[0], l->o[1] + t * l->d[1], l->o[2] + t * l->d[2]};
    return triangle_distance(l->t, p) - l->r;
}

Test(cast_mesh, rays_and_sphere_casts_at_a_triangle_against_closed_forms)
{
    vx_vec3 v[3] = {{-1.3f, 0.2f, -0.7f}, {1.1f, -0.4f, 0.3f}, {0.2f, 0.9f, 1.4f}};
    uint32_t idx[3] = {0, 1, 2};
    vx_mesh *m = NULL;
    vx_error err;
    cr_assert_eq(vx_mesh_build(v, 3, idx, 1, &m, &err), VX_OK);
    vx_collider c = collider_of(m);
    vx_test_rng rng = {9u};
    int hits = 0, misses = 0, sphere_hits = 0;
    for (int i = 0; i < 2000; i++) {
        vx_transform pose = vx_test_pose(vx_test_rng_vec3(&rng, -3.0f, 3.0f), vx_test_random_rotation(&rng));
        vx_vec3 o = vx_vec3_add(pose.position, vx_test_rng_vec3(&rng, -4.0f, 4.0f));
        vx_vec3 aim = vx_vec3_add(pose.position, vx_test_rng_vec3(&rng, -1.5f, 1.5f));
        vx_vec3 dir = vx_vec3_normalize(vx_vec3_sub(aim, o));
        /* the triangle in the world, in double from the float pose (the cast's way) */
        tri_d t;
        vx_vec3 w[3];
        for (int k = 0; k < 3; k++) w[k] = vx_vec3_add(pose.position, vx_quat_rotate(pose.rotation, v[k]));
        to_d(w[0], t.a);
        to_d(w[1], t.b);
        to_d(w[2], t.c);
        line l = {&t, {o.x, o.y, o.z}, {dir.x, dir.y, dir.z}, 0.0};
        vx_cast_hit hit;
        double want = ray_triangle(&t, l.o, l.d);
        bool got = vx_ray_cast_shape(&c, &pose, o, dir, 20.0f, &hit);
        /* the pose's rotation in float and in double differ by rounding: a
         * ray within 1e-5 of an edge may go either way */
        double edge_gap = 1.0;
        for (int k = 0; k < 3; k++) {
            double a[3], b[3];
            to_d(w[k], a);
            to_d(w[(k + 1) % 3], b);
            double p[3] = {l.o[0] + want * l.d[0], l.o[1] + want * l.d[1], l.o[2] + want * l.d[2]};
            if (want >= 0.0) edge_gap = fmin(edge_gap, sqrt(segment_distance_sq(a, b, p)));
        }
        if (want >= 0.0 && edge_gap > 1e-5) {
            cr_assert(got, "ray %d should hit at %g", i, want);
            VX_ASSERT_NEAR(hit.distance, want, 1e-5 * (1.0 + want));
            hits++;
        } else if (want < 0.0 && ref_cast_search(line_f, &l, 20.0, 1e-5).kind == REF_MISS) {
            /* passes more than the rounding of the pose away */
            cr_assert_not(got, "ray %d hits at %g, closed form misses", i, hit.distance);
            misses++;
        }
        /* sphere casts */
        l.r = vx_test_rng_range(&rng, 0.05f, 1.0f);
        ref_cast ref = ref_cast_search(line_f, &l, 20.0, 1e-5);
        got = vx_sphere_cast_shape(&c, &pose, o, (float)l.r, dir, 20.0f, &hit);
        if (ref.kind == REF_HIT) {
            cr_assert(got, "cast %d should hit at %g", i, ref.t);
            VX_ASSERT_NEAR(hit.distance, ref.t, 2e-5 * (1.0 + ref.t));
            /* the point is on the triangle, radius from the centre */
            vx_vec3 centre = vx_vec3_add(o, vx_vec3_scale(dir, hit.distance));
            VX_ASSERT_NEAR(vx_vec3_length(vx_vec3_sub(centre, hit.point)), l.r, 1e-5);
            double p[3];
            to_d(hit.point, p);
            VX_ASSERT_NEAR(triangle_distance(&t, p), 0.0, 1e-5);
            sphere_hits++;
        } else if (ref.kind == REF_MISS) {
            cr_assert_not(got, "cast %d should miss", i);
        } else if (ref.kind == REF_INSIDE) {
            cr_assert(got);
            VX_ASSERT_NEAR(hit.distance, 0.0f, 0);
            VX_ASSERT_VEC3_NEAR(hit.normal, -dir.x, -dir.y, -dir.z, 0);
        }
    }
    cr_log_info("rays: %d hits, %d misses; sphere casts: %d hits", hits, misses, sphere_hits);
    cr_assert_gt(hits, 300);
    cr_assert_gt(sphere_hits, 300);
    vx_mesh_destroy(m);
}

Test(cast_mesh, a_heightfield_sampling_a_plane_is_the_plane)
{
    /* 15 degrees down towards +X */
    enum { R = 30, C = 40 };
    float h[R * C];
    const double slope = tan(15.0 * 3.14159265358979323846 / 180.0);
    for (int j = 0; j < R; j++)
        for (int i = 0; i < C; i++) h[j * C + i] = (float)(-slope * 0.5 * i);
    vx_mesh *m = NULL;
    vx_error err;
    cr_assert_eq(vx_mesh_build_heightfield(h, R, C, 0.5f, 0.5f, &m, &err), VX_OK);
    vx_collider c = collider_of(m);
    vx_transform pose = vx_test_pose(vx_vec3_zero(), vx_quat_identity());
    double nlen = sqrt(1.0 + slope * slope);
    vx_vec3 n = vx_vec3_make((float)(slope / nlen), (float)(1.0 / nlen), 0.0f);
    vx_test_rng rng = {4u};
    for (int i = 0; i < 300; i++) {
        vx_vec3 o = vx_vec3_make(vx_test_rng_range(&rng, 2, 17), vx_test_rng_range(&rng, 0.5f, 4.0f),
                                 vx_test_rng_range(&rng, 2, 12));
        vx_vec3 dir = vx_vec3_normalize(vx_vec3_make(vx_test_rng_range(&rng, -0.3f, 0.3f), -1.0f,
                                                     vx_test_rng_range(&rng, -0.3f, 0.3f)));
        /* the plane y = -slope x: height of o over it along dir */
        double above = (double)o.y + slope * (double)o.x;
        double toward = -((double)dir.y + slope * (double)dir.x);
        double t = above / toward;
        vx_cast_hit hit;
        cr_assert(vx_ray_cast_shape(&c, &pose, o, dir, 50.0f, &hit));
        VX_ASSERT_NEAR(hit.distance, t, 1e-5 * (1.0 + t));
        VX_ASSERT_VEC3_NEAR(hit.normal, n.x, n.y, n.z, 1e-6);
        /* a sphere of radius r touches the plane when the centre is r above it */
        double r = 0.4;
        double ts = (above - r * nlen) / toward;
        if (ts > 0.01) {
            cr_assert(vx_sphere_cast_shape(&c, &pose, o, (float)r, dir, 50.0f, &hit));
            VX_ASSERT_NEAR(hit.distance, ts, 1e-5 * (1.0 + ts));
            VX_ASSERT_VEC3_NEAR(hit.normal, n.x, n.y, n.z, 1e-6);
        }
    }
    vx_mesh_destroy(m);
}

/* ---- the tree against every triangle ---- */

static float bump(float x, float z) { return 0.3f * sinf(1.3f * x) * cosf(0.7f * z); }

Test(cast_mesh, the_tree_finds_what_a_loop_over_every_triangle_finds)
{
    vx_test_grid g = vx_test_grid_make(16, 0.75f, bump);
    vx_mesh *m = mesh_of(&g);
    vx_collider c = collider_of(m);
    vx_transform pose = vx_test_pose(vx_vec3_make(1, 2, 3), vx_quat_from_axis_angle(vx_vec3_make(0, 0, 1), 0.3f));
    vx_test_rng rng = {13u};
    vx_mesh *one[512];
    cr_assert_eq(m->triangle_count, 512u);
    for (uint32_t t = 0; t < m->triangle_count; t++) {
        vx_mesh_triangle tri;
        vx_mesh_get_triangle(m, t, &tri);
        uint32_t idx[3] = {0, 1, 2};
        vx_error err;
        cr_assert_eq(vx_mesh_build(tri.v, 3, idx, 1, &one[t], &err), VX_OK);
    }
    for (int i = 0; i < 200; i++) {
        vx_vec3 o = vx_vec3_add(pose.position, vx_test_rng_vec3(&rng, -7.0f, 7.0f));
        vx_vec3 dir = vx_test_random_unit(&rng);
        float r = i % 2 ? 0.0f : vx_test_rng_range(&rng, 0.05f, 0.5f);
        vx_cast_hit hit, best;
        memset(&best, 0, sizeof best);
        bool got = r > 0.0f ? vx_sphere_cast_shape(&c, &pose, o, r, dir, 20.0f, &hit)
                            : vx_ray_cast_shape(&c, &pose, o, dir, 20.0f, &hit);
        /* each triangle alone as a mesh of one */
        bool any = false;
        for (uint32_t t = 0; t < m->triangle_count; t++) {
            vx_cast_hit h1;
            bool hit1 = r > 0.0f ? vx_sphere_cast_mesh(one[t], &pose, o, r, dir, 20.0f, &h1)
                                 : vx_ray_cast_mesh(one[t], &pose, o, dir, 20.0f, &h1);
            if (hit1 && (!any || h1.distance < best.distance)) best = h1;
            any = any || hit1;
        }
        cr_assert_eq(got, any, "cast %d", i);
        if (got) VX_ASSERT_NEAR(hit.distance, best.distance, 0);
    }
    for (uint32_t t = 0; t < m->triangle_count; t++) vx_mesh_destroy(one[t]);
    vx_mesh_destroy(m);
    vx_test_grid_free(&g);
}
