/* A triangle as a prism-shaped hull (triangle_hull.h). */
#include "physics/body/triangle_hull.h"

#include <math.h>
#include <string.h>

#include "common/assert.h"

/* Half-edges, twins side by side: top edge k (k -> k + 1) is 2k on the top
 * and 2k + 1 on side k; bottom edge k is 6 + 2k ((k + 1) + 3 -> k + 3, on
 * the bottom) and 7 + 2k (on side k); the vertical edge at vertex v is
 * 12 + 2v (v -> v + 3, on side v) and 13 + 2v (on side v - 1). Each face
 * runs counter-clockwise seen from outside: the top 0 -> 1 -> 2, the bottom
 * 3 -> 5 -> 4, side k (k + 1) -> k -> k + 3 -> (k + 1) + 3. */
static void link_edges(vx_hull_edge *e)
{
    for (uint16_t k = 0; k < 3; k++) {
        uint16_t next_k = (uint16_t)((k + 1u) % 3u), prev_k = (uint16_t)((k + 2u) % 3u);
        /* top */
        e[2 * k] = (vx_hull_edge){k, (uint16_t)(2 * k + 1), (uint16_t)(2 * next_k), 0};
        e[2 * k + 1] = (vx_hull_edge){next_k, (uint16_t)(2 * k), (uint16_t)(12 + 2 * k), (uint16_t)(2 + k)};
        /* bottom: 3 -> 5 -> 4 is bottom edge 2, 1, 0 */
        e[6 + 2 * k] = (vx_hull_edge){(uint16_t)(next_k + 3), (uint16_t)(7 + 2 * k), (uint16_t)(6 + 2 * prev_k), 1};
        e[7 + 2 * k] = (vx_hull_edge){(uint16_t)(k + 3), (uint16_t)(6 + 2 * k), (uint16_t)(13 + 2 * next_k),
                                      (uint16_t)(2 + k)};
        /* vertical at vertex k */
        e[12 + 2 * k] = (vx_hull_edge){k, (uint16_t)(13 + 2 * k), (uint16_t)(7 + 2 * k), (uint16_t)(2 + k)};
        e[13 + 2 * k] = (vx_hull_edge){(uint16_t)(k + 3), (uint16_t)(12 + 2 * k), (uint16_t)(2 * prev_k + 1),
                                       (uint16_t)(2 + prev_k)};
    }
}

static vx_hull_face face_of(vx_vec3 n, vx_vec3 on, uint16_t first_edge, uint16_t edge_count)
{
    vx_hull_face f;
    f.normal = n;
    f.offset = vx_vec3_dot(n, on);
    f.first_edge = first_edge;
    f.edge_count = edge_count;
    return f;
}

/* The top vertices and the top and side planes (the bottom's are the
 * full prism's). */
static void top_and_sides(vx_triangle_hull *out, const vx_mesh_triangle *tri, bool back, vx_vec3 n)
{
    out->back = back;
    vx_vec3 *v = out->vertices;
    for (int k = 0; k < 3; k++) v[k] = tri->v[back ? (3 - k) % 3 : k];
    out->faces[0] = face_of(n, v[0], 0, 3);
    for (uint16_t k = 0; k < 3; k++) {
        vx_vec3 edge = vx_vec3_sub(v[(k + 1) % 3], v[k]);
        out->faces[2 + k] = face_of(vx_vec3_normalize(vx_vec3_cross(edge, n)), v[k], (uint16_t)(2 * k + 1), 4);
    }
}

void vx_triangle_hull_init_planes(vx_triangle_hull *out, const vx_mesh_triangle *tri, bool back)
{
    top_and_sides(out, tri, back, back ? vx_vec3_neg(tri->normal) : tri->normal);
}

void vx_triangle_hull_init_planes_with(vx_triangle_hull *out, const vx_mesh_triangle *tri, bool back,
                                       const vx_vec3 edge_out[3])
{
    vx_vec3 n = back ? vx_vec3_neg(tri->normal) : tri->normal;
    out->back = back;
    vx_vec3 *v = out->vertices;
    for (int k = 0; k < 3; k++) v[k] = tri->v[back ? (3 - k) % 3 : k];
    out->faces[0] = face_of(n, v[0], 0, 3);
    /* Top edge k is the triangle's edge 2 - k backwards when the top is the
     * back: (a - b) x -n has the bits of (b - a) x n, IEEE negation being
     * exact, so its side is the edge's outward direction as top_and_sides
     * would make it. */
    for (uint16_t k = 0; k < 3; k++)
        out->faces[2 + k] = face_of(edge_out[back ? 2 - k : k], v[k], (uint16_t)(2 * k + 1), 4);
}

void vx_triangle_hull_init(vx_triangle_hull *out, const vx_mesh_triangle *tri, bool back, float thickness)
{
    VX_ASSERT(thickness > 0.0f);
    memset(out, 0, sizeof *out);
    vx_vec3 n = back ? vx_vec3_neg(tri->normal) : tri->normal;
    top_and_sides(out, tri, back, n);
    vx_vec3 *v = out->vertices;
    for (int k = 0; k < 3; k++) v[k + 3] = vx_vec3_sub(v[k], vx_vec3_scale(n, thickness));
    link_edges(out->edges);
    out->faces[1] = face_of(vx_vec3_neg(n), v[3], 6, 3);
    double perimeter = 0.0;
    vx_vec3 incentre = vx_vec3_zero();
    for (uint16_t k = 0; k < 3; k++) {
        vx_vec3 edge = vx_vec3_sub(v[(k + 1) % 3], v[k]);
        /* the incentre weighs each corner by the length of the side facing it */
        float opposite = vx_vec3_length(vx_vec3_sub(v[(k + 2) % 3], v[(k + 1) % 3]));
        incentre = vx_vec3_add(incentre, vx_vec3_scale(v[k], opposite));
        perimeter += (double)vx_vec3_length(edge);
    }
    incentre = vx_vec3_scale(incentre, (float)(1.0 / perimeter));
    float area2 = vx_vec3_length(vx_vec3_cross(vx_vec3_sub(v[1], v[0]), vx_vec3_sub(v[2], v[0])));
    float inradius = (float)((double)area2 / perimeter);

    vx_hull *h = &out->hull;
    vx_hull_view(h, out->vertices, 6, out->edges, 18, out->faces, 5);
    /* the ball of the inner radius around this point lies in the prism
     * (shrunk a little for the rounding of the side planes) */
    h->centroid = vx_vec3_sub(incentre, vx_vec3_scale(n, 0.5f * thickness));
    h->inner_radius = 0.99f * fminf(inradius, 0.5f * thickness);
    vx_vec3 lo = v[0], hi = v[0];
    for (int k = 1; k < 6; k++) { /* finite corners: comparisons, not libm's fminf and fmaxf */
        lo = vx_mesh_min3(lo, v[k]);
        hi = vx_mesh_max3(hi, v[k]);
    }
    h->bounds = vx_aabb_new(lo, hi);
    h->frame.rotation = vx_quat_identity();
    h->volume = 0.5f * area2 * thickness;
}
