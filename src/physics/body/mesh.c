/* Meshes and heightfields: building and checking them, and what is asked of
 * either kind (mesh.h). */
#include "physics/body/mesh.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common/assert.h"

bool vx_triangle_is_degenerate(vx_vec3 a, vx_vec3 b, vx_vec3 c)
{
    double e[3][3] = {{(double)b.x - a.x, (double)b.y - a.y, (double)b.z - a.z},
                      {(double)c.x - b.x, (double)c.y - b.y, (double)c.z - b.z},
                      {(double)a.x - c.x, (double)a.y - c.y, (double)a.z - c.z}};
    double longest_sq = 0.0;
    for (int k = 0; k < 3; k++) {
        double l = e[k][0] * e[k][0] + e[k][1] * e[k][1] + e[k][2] * e[k][2];
        if (l > longest_sq) longest_sq = l;
    }
    double n[3] = {e[0][1] * e[1][2] - e[0][2] * e[1][1], e[0][2] * e[1][0] - e[0][0] * e[1][2],
                   e[0][0] * e[1][1] - e[0][1] * e[1][0]};
    double area2_sq = n[0] * n[0] + n[1] * n[1] + n[2] * n[2]; /* (2 area)^2 = (height longest)^2 */
    /* height < 1e-6 longest, squared: (2 area)^2 < 1e-12 longest^4 */
    return !(longest_sq > 0.0) || !(area2_sq >= 1e-12 * longest_sq * longest_sq);
}

static vx_mesh *mesh_new(vx_mesh_kind kind)
{
    vx_mesh *m = calloc(1u, sizeof *m);
    if (m) m->kind = kind;
    return m;
}

void vx_mesh_destroy(vx_mesh *mesh)
{
    if (!mesh) return;
    free(mesh->edge_flags);
    free(mesh->vertices);
    free(mesh->indices);
    free(mesh->corners);
    free(mesh->normals);
    free(mesh->nodes);
    free(mesh->heights);
    free(mesh);
}

/* The farthest a point of the bounds is from the origin, rounded up. */
static float outer_radius(vx_aabb b)
{
    double sum = 0.0;
    for (int k = 0; k < 3; k++) {
        double lo = fabs((double)vx_vec3_get(b.min, k)), hi = fabs((double)vx_vec3_get(b.max, k));
        double far = lo > hi ? lo : hi;
        sum += far * far;
    }
    return (float)(sqrt(sum) * (1.0 + 1e-6));
}

/* Building stopped for want of memory (the only failure past the checks). */
static vx_status fail(vx_mesh *m, vx_error *err)
{
    vx_mesh_destroy(m);
    return vx_error_set(err, VX_ERR_NOMEM, "out of memory");
}

vx_status vx_mesh_build(const vx_vec3 *vertices, size_t vertex_count, const uint32_t *indices,
                        size_t triangle_count, vx_mesh **out, vx_error *err)
{
    *out = NULL;
    if (triangle_count == 0 || !indices) return vx_error_set(err, VX_ERR_INVALID, "mesh: no triangles");
    if (vertex_count < 3 || !vertices) return vx_error_set(err, VX_ERR_INVALID, "mesh: fewer than 3 vertices");
    if (triangle_count > VX_MAX_MESH_TRIANGLES)
        return vx_error_set(err, VX_ERR_INVALID, "mesh: more than %u triangles", VX_MAX_MESH_TRIANGLES);
    if (vertex_count > VX_MAX_MESH_VERTICES)
        return vx_error_set(err, VX_ERR_INVALID, "mesh: more than %u vertices", VX_MAX_MESH_VERTICES);
    for (size_t i = 0; i < vertex_count; i++)
        if (!vx_vec3_is_finite(vertices[i]))
            return vx_error_set(err, VX_ERR_INVALID, "mesh: vertex %zu: must be finite", i);
    for (size_t t = 0; t < triangle_count; t++) {
        const uint32_t *tri = &indices[3 * t];
        for (int k = 0; k < 3; k++)
            if (tri[k] >= vertex_count)
                return vx_error_set(err, VX_ERR_INVALID, "mesh: triangle %zu: index %u out of range (%zu vertices)",
                                    t, tri[k], vertex_count);
        if (vx_triangle_is_degenerate(vertices[tri[0]], vertices[tri[1]], vertices[tri[2]]))
            return vx_error_set(err, VX_ERR_INVALID, "mesh: triangle %zu: degenerate (its corners are on one line)",
                                t);
    }

    vx_mesh *m = mesh_new(VX_MESH_TRIANGLES);
    if (!m) return fail(m, err);
    m->triangle_count = (uint32_t)triangle_count;
    m->vertex_count = (uint32_t)vertex_count;
    m->vertices = malloc(vertex_count * sizeof *m->vertices);
    m->indices = malloc(3u * triangle_count * sizeof *m->indices);
    if (!m->vertices || !m->indices) return fail(m, err);
    memcpy(m->vertices, vertices, vertex_count * sizeof *m->vertices);
    memcpy(m->indices, indices, 3u * triangle_count * sizeof *m->indices);
    /* the bounds of the corners used (a vertex no triangle names is no part of the shape) */
    vx_vec3 lo = vertices[indices[0]], hi = lo;
    for (size_t i = 0; i < 3u * triangle_count; i++) {
        lo = vx_mesh_min3(lo, vertices[indices[i]]);
        hi = vx_mesh_max3(hi, vertices[indices[i]]);
    }
    m->bounds = vx_aabb_new(lo, hi);
    m->outer_radius = outer_radius(m->bounds);
    vx_status st = vx_mesh_find_edges(m);
    if (st == VX_OK) st = vx_mesh_build_tree(m);
    if (st != VX_OK) return fail(m, err);
    *out = m;
    return VX_OK;
}

vx_status vx_mesh_build_heightfield(const float *heights, size_t rows, size_t columns, float spacing_x,
                                    float spacing_z, vx_mesh **out, vx_error *err)
{
    *out = NULL;
    if (rows < 2 || columns < 2 || !heights)
        return vx_error_set(err, VX_ERR_INVALID, "heightfield: needs at least 2 x 2 heights");
    if ((double)(rows - 1) * (double)(columns - 1) * 2.0 > (double)VX_MAX_MESH_TRIANGLES)
        return vx_error_set(err, VX_ERR_INVALID, "heightfield: more than %u triangles", VX_MAX_MESH_TRIANGLES);
    if (!(spacing_x > 0.0f) || !(spacing_z > 0.0f) || !isfinite(spacing_x) || !isfinite(spacing_z))
        return vx_error_set(err, VX_ERR_INVALID, "heightfield: spacing must be > 0");
    if (!isfinite(spacing_x * (float)(columns - 1)) || !isfinite(spacing_z * (float)(rows - 1)))
        return vx_error_set(err, VX_ERR_INVALID, "heightfield: too large to be finite");
    float lo = heights[0], hi = heights[0];
    for (size_t i = 0; i < rows * columns; i++) {
        if (!isfinite(heights[i]))
            return vx_error_set(err, VX_ERR_INVALID, "heightfield: height %zu (row %zu, column %zu): must be finite",
                                i, i / columns, i % columns);
        lo = fminf(lo, heights[i]);
        hi = fmaxf(hi, heights[i]);
    }
    vx_mesh *m = mesh_new(VX_MESH_HEIGHTFIELD);
    if (!m) return fail(m, err);
    m->rows = (uint32_t)rows;
    m->columns = (uint32_t)columns;
    m->spacing_x = spacing_x;
    m->spacing_z = spacing_z;
    m->triangle_count = (uint32_t)(2u * (rows - 1) * (columns - 1));
    m->heights = malloc(rows * columns * sizeof *m->heights);
    if (!m->heights) return fail(m, err);
    memcpy(m->heights, heights, rows * columns * sizeof *m->heights);
    m->bounds = vx_aabb_new(vx_vec3_make(0.0f, lo, 0.0f), vx_vec3_make(spacing_x * (float)(columns - 1), hi,
                                                                       spacing_z * (float)(rows - 1)));
    m->outer_radius = outer_radius(m->bounds);
    vx_status st = vx_heightfield_find_edges(m);
    if (st != VX_OK) return fail(m, err);
    *out = m;
    return VX_OK;
}

void vx_mesh_get_triangle(const vx_mesh *mesh, uint32_t t, vx_mesh_triangle *out)
{
    VX_ASSERT(t < mesh->triangle_count);
    if (mesh->kind == VX_MESH_HEIGHTFIELD) {
        vx_heightfield_get_triangle(mesh, t, out);
        return;
    }
    const vx_vec3 *corner = &mesh->corners[3u * t];
    for (int k = 0; k < 3; k++) out->v[k] = corner[k];
    out->normal = mesh->normals[t];
    out->edges = mesh->edge_flags[t];
}

void vx_mesh_query(const vx_mesh *mesh, vx_aabb box, vx_mesh_visit_fn fn, void *context)
{
    if (mesh->kind == VX_MESH_HEIGHTFIELD)
        vx_heightfield_query(mesh, box, fn, context);
    else
        vx_mesh_tree_query(mesh, box, fn, context);
}

void vx_mesh_ray_query(const vx_mesh *mesh, const double origin[3], const double direction[3], double max_t,
                       float grow, vx_mesh_ray_fn fn, void *context)
{
    if (!(max_t >= 0.0)) return;
    if (mesh->kind == VX_MESH_HEIGHTFIELD)
        vx_heightfield_ray_query(mesh, origin, direction, max_t, grow, fn, context);
    else
        vx_mesh_tree_ray_query(mesh, origin, direction, max_t, grow, fn, context);
}

vx_mesh_info vx_mesh_get_info(const vx_mesh *mesh)
{
    vx_mesh_info info;
    memset(&info, 0, sizeof info);
    info.heightfield = mesh->kind == VX_MESH_HEIGHTFIELD;
    info.triangle_count = mesh->triangle_count;
    info.vertex_count = info.heightfield ? (size_t)mesh->rows * mesh->columns : mesh->vertex_count;
    info.bounds = mesh->bounds;
    return info;
}
