/* The triangles --format glb draws colliders with (src/trace/glb_mesh.c),
 * checked as solids: every vertex on the shape's surface, every edge shared
 * by two triangles running opposite ways (closed, consistently wound),
 * every triangle facing out (counter-clockwise seen from outside, as glTF
 * wants) and agreeing with its normals, the enclosed volume near the
 * shape's own. Heightfields: a vertex per height, the cell's diagonal where
 * the heightfield splits it, faces up. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdlib.h>

#include "physics/body/hull.h"
#include "physics/body/mesh.h"
#include "trace/glb_mesh.h"
#include "voltex/world.h"

#define PI 3.14159265358979323846

static vx_vec3 vertex(const vx_glb_mesh *m, uint32_t v)
{
    return vx_vec3_make(m->positions[3u * v], m->positions[3u * v + 1u], m->positions[3u * v + 2u]);
}

/* Volume by the divergence theorem (signed: positive when the triangles
 * face out); asserts each edge a->b is matched by exactly one b->a. */
static double closed_volume(const vx_glb_mesh *m)
{
    double volume = 0.0;
    uint32_t n = m->triangle_count;
    for (uint32_t t = 0; t < n; t++) {
        const uint32_t *a = m->indices + 3u * t;
        vx_vec3 p0 = vertex(m, a[0]), p1 = vertex(m, a[1]), p2 = vertex(m, a[2]);
        volume += (double)vx_vec3_dot(p0, vx_vec3_cross(p1, p2)) / 6.0;
        for (int e = 0; e < 3; e++) {
            uint32_t from = a[e], to = a[(e + 1) % 3];
            int twins = 0, same = 0;
            for (uint32_t u = 0; u < n; u++) {
                const uint32_t *b = m->indices + 3u * u;
                for (int f = 0; f < 3; f++) {
                    twins += b[f] == to && b[(f + 1) % 3] == from;
                    same += b[f] == from && b[(f + 1) % 3] == to;
                }
            }
            cr_assert_eq(twins, 1, "edge %u-%u of triangle %u: %d opposite edges", from, to, t, twins);
            cr_assert_eq(same, 1, "edge %u-%u used twice the same way", from, to);
        }
    }
    return volume;
}

/* Welded solids (sphere, capsule): positions shared by index. Faceted ones
 * (box, hull) repeat corners per face: weld them first. */
static vx_glb_mesh welded(const vx_glb_mesh *m)
{
    vx_glb_mesh w = *m;
    w.indices = malloc(3u * m->triangle_count * sizeof *w.indices);
    for (uint32_t k = 0; k < 3u * m->triangle_count; k++) {
        uint32_t v = m->indices[k], first = v;
        for (uint32_t u = 0; u < v; u++) {
            if (vx_vec3_length_sq(vx_vec3_sub(vertex(m, u), vertex(m, v))) == 0.0f) {
                first = u;
                break;
            }
        }
        w.indices[k] = first;
    }
    return w;
}

/* Each triangle's geometric normal agrees with its corners' normals. */
static void assert_faces_match_normals(const vx_glb_mesh *m)
{
    cr_assert_not_null(m->normals);
    for (uint32_t t = 0; t < m->triangle_count; t++) {
        const uint32_t *a = m->indices + 3u * t;
        vx_vec3 g = vx_vec3_cross(vx_vec3_sub(vertex(m, a[1]), vertex(m, a[0])), vx_vec3_sub(vertex(m, a[2]), vertex(m, a[0])));
        cr_assert_gt(vx_vec3_length(g), 0.0f, "triangle %u is degenerate", t);
        for (int k = 0; k < 3; k++) {
            const float *n = m->normals + 3u * a[k];
            cr_assert_gt(vx_vec3_dot(g, vx_vec3_make(n[0], n[1], n[2])), 0.0f, "triangle %u faces in", t);
            cr_assert_float_eq(sqrtf(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]), 1.0f, 1e-6f);
        }
    }
}

static void assert_solid(const vx_glb_mesh *m, double expected_volume, double rtol)
{
    assert_faces_match_normals(m);
    vx_glb_mesh w = welded(m);
    double volume = closed_volume(&w);
    free(w.indices);
    cr_assert(fabs(volume - expected_volume) <= rtol * expected_volume, "volume %.6g, the shape's %.6g", volume,
              expected_volume);
}

Test(glb_mesh, sphere_is_round_closed_and_faces_out)
{
    vx_glb_mesh m;
    cr_assert_eq(vx_glb_mesh_make(&(vx_collider){.type = VX_SHAPE_SPHERE, .radius = 0.5f}, &m), VX_OK);
    cr_assert_eq(m.vertex_count, 2u + (VX_GLB_RINGS - 1u) * VX_GLB_SEGMENTS);
    for (uint32_t v = 0; v < m.vertex_count; v++)
        cr_assert_float_eq(vx_vec3_length(vertex(&m, v)), 0.5f, 1e-6f, "vertex %u off the sphere", v);
    /* an inscribed polyhedron of 32 x 16 facets: 1.3 % short of the ball */
    assert_solid(&m, 4.0 / 3.0 * PI * 0.125, 0.02);
    vx_glb_mesh_free(&m);
}

Test(glb_mesh, capsule_is_a_cylinder_between_two_half_spheres)
{
    vx_glb_mesh m;
    const float r = 0.3f, h = 0.7f;
    cr_assert_eq(vx_glb_mesh_make(&(vx_collider){.type = VX_SHAPE_CAPSULE, .radius = r, .half_height = h}, &m), VX_OK);
    for (uint32_t v = 0; v < m.vertex_count; v++) {
        vx_vec3 p = vertex(&m, v);
        float y = fmaxf(-h, fminf(h, p.y)); /* nearest point of the segment */
        cr_assert_float_eq(vx_vec3_length(vx_vec3_sub(p, vx_vec3_make(0, y, 0))), r, 1e-6f, "vertex %u", v);
    }
    assert_solid(&m, PI * r * r * (2.0 * h) + 4.0 / 3.0 * PI * r * r * r, 0.02);
    vx_glb_mesh_free(&m);
}

Test(glb_mesh, box_has_its_half_extents)
{
    vx_glb_mesh m;
    vx_vec3 he = vx_vec3_make(1.0f, 0.25f, 2.0f);
    cr_assert_eq(vx_glb_mesh_make(&(vx_collider){.type = VX_SHAPE_BOX, .half_extents = he}, &m), VX_OK);
    for (uint32_t v = 0; v < m.vertex_count; v++) {
        vx_vec3 p = vertex(&m, v);
        cr_assert(fabsf(p.x) == he.x && fabsf(p.y) == he.y && fabsf(p.z) == he.z, "vertex %u not a corner", v);
    }
    assert_solid(&m, 8.0 * 1.0 * 0.25 * 2.0, 1e-6);
    vx_glb_mesh_free(&m);
}

/* A hull of a tilted, shifted prism's corners plus inner points: drawn with
 * its corners where the points were given (not in its principal frame),
 * with its own volume. */
Test(glb_mesh, hull_keeps_its_corners_and_volume)
{
    vx_vec3 pts[8] = {{0, 0, 0}, {2, 0, 0}, {0, 1, 0}, {0, 0, 3}, {2, 0, 3}, {0, 1, 3}, {0.5f, 0.2f, 1}, {0.3f, 0.3f, 2}};
    for (int i = 0; i < 8; i++) pts[i] = vx_vec3_add(pts[i], vx_vec3_make(5, -1, 2));
    vx_hull *h;
    vx_error err;
    cr_assert_eq(vx_hull_build(pts, 8, &h, &err), VX_OK);
    vx_hull_to_principal(h);
    vx_glb_mesh m;
    cr_assert_eq(vx_glb_mesh_make(&(vx_collider){.type = VX_SHAPE_HULL, .hull = h}, &m), VX_OK);
    cr_assert_eq(m.triangle_count, 8u, "two triangles and three rectangles");
    for (uint32_t v = 0; v < m.vertex_count; v++) {
        float nearest = INFINITY;
        for (int i = 0; i < 6; i++) nearest = fminf(nearest, vx_vec3_length(vx_vec3_sub(vertex(&m, v), pts[i])));
        cr_assert_lt(nearest, 1e-5f, "vertex %u is no corner", v);
    }
    /* welded corners of the shifted prism give its volume, 3 */
    vx_glb_mesh shifted = m;
    assert_faces_match_normals(&m);
    vx_glb_mesh w = welded(&shifted);
    double volume = closed_volume(&w);
    free(w.indices);
    cr_assert_float_eq(volume, 3.0, 1e-4);
    vx_glb_mesh_free(&m);
    vx_hull_destroy(h);
}

Test(glb_mesh, heightfield_is_its_grid_split_along_the_diagonal)
{
    const float heights[6] = {0, 1, 2, 0.5f, 1.5f, 2.5f}; /* 2 rows of 3 */
    vx_mesh *hf;
    vx_error err;
    cr_assert_eq(vx_mesh_build_heightfield(heights, 2, 3, 0.5f, 2.0f, &hf, &err), VX_OK);
    vx_glb_mesh m;
    cr_assert_eq(vx_glb_mesh_make(&(vx_collider){.type = VX_SHAPE_HEIGHTFIELD, .mesh = hf}, &m), VX_OK);
    cr_assert(m.two_sided);
    cr_assert_null(m.normals);
    cr_assert_eq(m.vertex_count, 6u);
    cr_assert_eq(m.triangle_count, 4u);
    for (uint32_t v = 0; v < 6; v++) {
        vx_vec3 p = vertex(&m, v);
        cr_assert(p.x == 0.5f * (float)(v % 3) && p.z == 2.0f * (float)(v / 3) && p.y == heights[v], "vertex %u", v);
    }
    for (uint32_t t = 0; t < m.triangle_count; t++) {
        const uint32_t *a = m.indices + 3u * t;
        vx_vec3 g = vx_vec3_cross(vx_vec3_sub(vertex(&m, a[1]), vertex(&m, a[0])), vx_vec3_sub(vertex(&m, a[2]), vertex(&m, a[0])));
        cr_assert_gt(g.y, 0.0f, "triangle %u faces down", t);
        /* both triangles of cell i hold its diagonal's ends, (i, 0) and (i + 1, 1) */
        uint32_t cell = t / 2u, low = cell, high = 3u + cell + 1u;
        bool has_low = a[0] == low || a[1] == low || a[2] == low, has_high = a[0] == high || a[1] == high || a[2] == high;
        cr_assert(has_low && has_high, "triangle %u does not hold the diagonal", t);
    }
    vx_glb_mesh_free(&m);
    vx_mesh_destroy(hf);
}

Test(glb_mesh, triangle_mesh_keeps_its_triangles)
{
    const vx_vec3 v[4] = {{0, 0, 0}, {1, 0, 0}, {0, 0, 1}, {1, 1, 1}};
    const uint32_t idx[6] = {0, 2, 1, 1, 2, 3};
    vx_mesh *mesh;
    vx_error err;
    cr_assert_eq(vx_mesh_build(v, 4, idx, 2, &mesh, &err), VX_OK);
    vx_glb_mesh m;
    cr_assert_eq(vx_glb_mesh_make(&(vx_collider){.type = VX_SHAPE_MESH, .mesh = mesh}, &m), VX_OK);
    cr_assert(m.two_sided);
    cr_assert_eq(m.triangle_count, 2u);
    for (uint32_t k = 0; k < 4; k++) cr_assert(vx_vec3_length_sq(vx_vec3_sub(vertex(&m, k), v[k])) == 0.0f);
    /* the same triangles, in whatever order the mesh's tree keeps them */
    int found = 0;
    for (uint32_t t = 0; t < 2; t++)
        for (uint32_t u = 0; u < 2; u++)
            for (int r = 0; r < 3; r++)
                found += m.indices[3u * t] == idx[3u * u + (uint32_t)r] &&
                         m.indices[3u * t + 1u] == idx[3u * u + (uint32_t)(r + 1) % 3u] &&
                         m.indices[3u * t + 2u] == idx[3u * u + (uint32_t)(r + 2) % 3u];
    cr_assert_eq(found, 2);
    vx_glb_mesh_free(&m);
    vx_mesh_destroy(mesh);
}

/* A compound of two boxes, one turned and moved: its parts' solids placed
 * by their poses, each closed and facing out, their volumes summed. */
Test(glb_mesh, compound_places_each_part_by_its_pose)
{
    vx_compound_part parts[2] = {
        {.shape = {.type = VX_SHAPE_BOX, .half_extents = {0.5f, 0.5f, 0.5f}},
         .pose = {.position = {0, 0, 0}, .rotation = {0, 0, 0, 1}}},
        {.shape = {.type = VX_SHAPE_BOX, .half_extents = {1.0f, 0.25f, 0.25f}},
         .pose = {.position = {0, 3, 0}, .rotation = {0, 0, 0.70710678f, 0.70710678f}}},
    };
    vx_world_def def = vx_world_def_default();
    vx_error err;
    vx_world *world = vx_world_create(&def, &err);
    cr_assert_not_null(world);
    const vx_compound *comp = NULL;
    cr_assert_eq(vx_world_make_compound(world, parts, 2, &comp, &err), VX_OK, "%s", err.message);
    vx_glb_mesh m;
    cr_assert_eq(vx_glb_mesh_make(&(vx_collider){.type = VX_SHAPE_COMPOUND, .compound = comp}, &m), VX_OK);
    cr_assert_eq(m.triangle_count, 24u, "twelve triangles a box");
    /* the second box turned a quarter about z: long along y, around y = 3 */
    for (uint32_t v = 24; v < m.vertex_count; v++) {
        vx_vec3 p = vertex(&m, v);
        cr_assert_float_eq(fabsf(p.x), 0.25f, 1e-6f);
        cr_assert_float_eq(fabsf(p.y - 3.0f), 1.0f, 1e-6f);
        cr_assert_float_eq(fabsf(p.z), 0.25f, 1e-6f);
    }
    assert_solid(&m, 1.0 + 8.0 * 1.0 * 0.25 * 0.25, 1e-5);
    vx_glb_mesh_free(&m);
    vx_world_destroy(world);
}
