/* Heightfields (mesh.h): a grid of heights whose cells are two triangles
 * each, split along the diagonal from (column i, row j) to (column i + 1,
 * row j + 1). Vertex (i, j) is at (i dx, height, j dz). In cell (i, j),
 * with corners p00 = (i, j), p10 = (i + 1, j), p01 = (i, j + 1), p11 =
 * (i + 1, j + 1):
 *   triangle 2 c     = (p00, p11, p10)   (the side of the +X corner)
 *   triangle 2 c + 1 = (p00, p01, p11)   (the side of the +Z corner)
 * both counter-clockwise seen from above (+Y is their front). The grid is
 * its own index: the cells under a box are found by division. */
#include <math.h>
#include <stdlib.h>

#include "common/assert.h"
#include "common/segment_box.h"
#include "physics/body/mesh.h"

static vx_vec3 grid_point(const vx_mesh *m, uint32_t i, uint32_t j)
{
    return vx_vec3_make(m->spacing_x * (float)i, m->heights[(size_t)j * m->columns + i], m->spacing_z * (float)j);
}

/* The corners of triangle t and its cell's column i and row j. */
static void corners(const vx_mesh *m, uint32_t t, vx_vec3 v[3], uint32_t *i, uint32_t *j)
{
    uint32_t cell = t / 2u, cells_x = m->columns - 1u;
    *i = cell % cells_x;
    *j = cell / cells_x;
    vx_vec3 p00 = grid_point(m, *i, *j), p11 = grid_point(m, *i + 1u, *j + 1u);
    v[0] = p00;
    if (t % 2u == 0u) {
        v[1] = p11;
        v[2] = grid_point(m, *i + 1u, *j);
    } else {
        v[1] = grid_point(m, *i, *j + 1u);
        v[2] = p11;
    }
}

void vx_heightfield_get_triangle(const vx_mesh *m, uint32_t t, vx_mesh_triangle *out)
{
    uint32_t i, j;
    corners(m, t, out->v, &i, &j);
    out->normal = vx_mesh_normal(out->v[0], out->v[1], out->v[2]);
    out->edges = m->edge_flags[t];
}

/* The third corners of the triangles across the edges of triangle t (NULL
 * at the border), edge k from corner k to corner k + 1. */
static void neighbours(const vx_mesh *m, uint32_t t, uint32_t i, uint32_t j, vx_vec3 c[3], bool has[3])
{
    uint32_t last_i = m->columns - 2u, last_j = m->rows - 2u;
    if (t % 2u == 0u) {
        /* p00-p11: this cell's other triangle; p11-p10: cell (i + 1, j);
         * p10-p00: cell (i, j - 1) */
        has[0] = true;
        c[0] = grid_point(m, i, j + 1u);
        has[1] = i < last_i;
        if (has[1]) c[1] = grid_point(m, i + 2u, j + 1u);
        has[2] = j > 0u;
        if (has[2]) c[2] = grid_point(m, i, j - 1u);
    } else {
        /* p00-p01: cell (i - 1, j); p01-p11: cell (i, j + 1); p11-p00:
         * this cell's other triangle */
        has[0] = i > 0u;
        if (has[0]) c[0] = grid_point(m, i - 1u, j);
        has[1] = j < last_j;
        if (has[1]) c[1] = grid_point(m, i + 1u, j + 2u);
        has[2] = true;
        c[2] = grid_point(m, i + 1u, j);
    }
}

vx_status vx_heightfield_find_edges(vx_mesh *m)
{
    m->edge_flags = malloc((size_t)m->triangle_count * sizeof *m->edge_flags);
    if (!m->edge_flags) return VX_ERR_NOMEM;
    for (uint32_t t = 0; t < m->triangle_count; t++) {
        vx_vec3 v[3], c[3];
        bool has[3];
        uint32_t i, j;
        corners(m, t, v, &i, &j);
        neighbours(m, t, i, j, c, has);
        vx_vec3 n = vx_mesh_normal(v[0], v[1], v[2]);
        uint8_t flags = 0u;
        for (unsigned k = 0; k < 3u; k++)
            flags |= (uint8_t)(vx_mesh_edge_flags(v[k], v[(k + 1u) % 3u], n, has[k] ? &c[k] : NULL) << (2u * k));
        m->edge_flags[t] = flags;
    }
    return VX_OK;
}

/* The cells [lo, hi] whose span along an axis of spacing s and n cells
 * meets [a, b]; false when none does. */
static bool cell_range(float a, float b, float s, uint32_t n, uint32_t *lo, uint32_t *hi)
{
    double first = floor((double)a / (double)s), last = floor((double)b / (double)s);
    if (!(last >= 0.0) || !(first <= (double)n) || first > last) return false;
    /* a point on a grid line belongs to the cells on both sides */
    if (first * (double)s == (double)a && first > 0.0) first -= 1.0;
    *lo = first < 0.0 ? 0u : (uint32_t)first;
    *hi = last >= (double)(n - 1u) ? n - 1u : (uint32_t)last;
    return *lo <= *hi;
}

static bool box_meets_triangle_bounds(vx_aabb box, const vx_vec3 v[3])
{
    vx_aabb t = vx_aabb_new(vx_vec3_min(v[0], vx_vec3_min(v[1], v[2])), vx_vec3_max(v[0], vx_vec3_max(v[1], v[2])));
    return vx_aabb_intersects(t, box);
}

/* fn for the triangles of cells [i0, i1] x [j0, j1] whose bounds meet box,
 * row by row; false when fn stopped. */
static bool visit_cells(const vx_mesh *m, vx_aabb box, uint32_t i0, uint32_t i1, uint32_t j0, uint32_t j1,
                        vx_mesh_visit_fn fn, void *context)
{
    uint32_t cells_x = m->columns - 1u;
    for (uint32_t j = j0; j <= j1; j++) {
        for (uint32_t i = i0; i <= i1; i++) {
            uint32_t t = 2u * (j * cells_x + i);
            for (uint32_t k = 0; k < 2u; k++) {
                vx_vec3 v[3];
                uint32_t ci, cj;
                corners(m, t + k, v, &ci, &cj);
                if (box_meets_triangle_bounds(box, v) && !fn(context, t + k)) return false;
            }
        }
    }
    return true;
}

void vx_heightfield_query(const vx_mesh *m, vx_aabb box, vx_mesh_visit_fn fn, void *context)
{
    if (!vx_aabb_intersects(box, m->bounds)) return;
    uint32_t i0, i1, j0, j1;
    if (!cell_range(box.min.x, box.max.x, m->spacing_x, m->columns - 1u, &i0, &i1)) return;
    if (!cell_range(box.min.z, box.max.z, m->spacing_z, m->rows - 1u, &j0, &j1)) return;
    visit_cells(m, box, i0, i1, j0, j1, fn, context);
}

/* The ray walk calls fn for max_t clipping; the box visit takes it here. */
typedef struct {
    vx_mesh_ray_fn fn;
    void *context;
    double max_t;
} ray_walk;

static bool visit_ray(void *context, uint32_t t)
{
    ray_walk *w = context;
    w->max_t = w->fn(w->context, t, w->max_t);
    return w->max_t >= 0.0;
}

void vx_heightfield_ray_query(const vx_mesh *m, const double o[3], const double d[3], double max_t, float grow,
                              vx_mesh_ray_fn fn, void *context)
{
    vx_vec3 g = vx_vec3_make(grow, grow, grow);
    vx_aabb reach = vx_aabb_new(vx_vec3_sub(m->bounds.min, g), vx_vec3_add(m->bounds.max, g));
    double t0;
    if (!vx_segment_box_entry(reach, o, d, max_t, &t0)) return;
    /* where it leaves the grown bounds again (a convex box: for good) */
    double t1 = max_t;
    const double lo[3] = {reach.min.x, reach.min.y, reach.min.z}, hi[3] = {reach.max.x, reach.max.y, reach.max.z};
    for (int k = 0; k < 3; k++) {
        if (d[k] == 0.0) continue;
        double pad = 1e-6 * (1.0 + fabs(lo[k]) + fabs(hi[k]));
        t1 = fmin(t1, fmax((lo[k] - pad - o[k]) / d[k], (hi[k] + pad - o[k]) / d[k]));
    }
    /* The walk goes along the ray in pieces that cross at most about a cell
     * across the grid, each piece's box (grown) visiting its cells: cells
     * near two pieces are visited twice, which changes no answer. */
    double across = sqrt(d[0] * d[0] + d[2] * d[2]);
    double cell = fmin((double)m->spacing_x, (double)m->spacing_z);
    double piece = across > 0.0 ? cell / across : INFINITY;
    ray_walk w = {fn, context, max_t};
    for (double ta = t0; ta <= fmin(t1, w.max_t); ta += piece) {
        double tb = fmin(ta + piece, fmin(t1, w.max_t));
        vx_vec3 pa = vx_vec3_make((float)(o[0] + ta * d[0]), (float)(o[1] + ta * d[1]), (float)(o[2] + ta * d[2]));
        vx_vec3 pb = vx_vec3_make((float)(o[0] + tb * d[0]), (float)(o[1] + tb * d[1]), (float)(o[2] + tb * d[2]));
        /* grown by the radius and a relative rounding margin */
        float pad = grow + 1e-5f * (1.0f + fmaxf(vx_vec3_length(pa), vx_vec3_length(pb)));
        vx_vec3 p = vx_vec3_make(pad, pad, pad);
        vx_aabb box = vx_aabb_new(vx_vec3_sub(vx_vec3_min(pa, pb), p), vx_vec3_add(vx_vec3_max(pa, pb), p));
        if (vx_aabb_intersects(box, m->bounds)) {
            uint32_t i0, i1, j0, j1;
            if (cell_range(box.min.x, box.max.x, m->spacing_x, m->columns - 1u, &i0, &i1) &&
                cell_range(box.min.z, box.max.z, m->spacing_z, m->rows - 1u, &j0, &j1) &&
                !visit_cells(m, box, i0, i1, j0, j1, visit_ray, &w))
                return;
        }
        if (!(piece < INFINITY) || !(ta + piece > ta)) break;
    }
}
