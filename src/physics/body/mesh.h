/* Triangle meshes and heightfields (private to the physics module): the
 * shapes of static and kinematic level geometry. Both are a set of
 * triangles in the entity's frame, two-sided, with what the narrow phase
 * needs to slide across their inner edges without bumps: for every edge of
 * every triangle, whether it is a real edge of the surface seen from each
 * side (mesh_adjacency.c). A mesh keeps its vertices, its triangles in the
 * order of a bounding-volume tree over them (mesh_tree.c), and answers box
 * and ray queries through that tree; a heightfield keeps its grid of
 * heights and finds the cells under a box or along a ray directly
 * (heightfield.c). docs/simulation.md, "Meshes and heightfields". */
#ifndef VOLTEX_PHYSICS_BODY_MESH_H
#define VOLTEX_PHYSICS_BODY_MESH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "voltex/error.h"
#include "voltex/limits.h"
#include "voltex/math.h"
#include "voltex/physics.h"

/* Edge flags of a triangle, two bits per edge (edge k runs from corner k to
 * corner k + 1): the edge is active seen from the front (the side its
 * normal points to) or from the back. An active edge is a real edge there:
 * the border of the mesh, or a fold of more than VX_MESH_FLAT_ANGLE that
 * bends away from that side (convex seen from it). Flat and concave edges
 * are inactive: the neighbouring triangle's face carries the contact. */
#define VX_MESH_EDGE_FRONT 1u
#define VX_MESH_EDGE_BACK 2u
#define VX_MESH_EDGE_BITS(flags, k) (((unsigned)(flags) >> (2u * (unsigned)(k))) & 3u)

/* Two triangles meeting at a smaller angle than this (5 degrees, Jolt's
 * choice) are one flat surface to the contacts. */
#define VX_MESH_FLAT_COS 0.99619470f

/* Triangles of a leaf of a mesh's tree at most. */
#define VX_MESH_LEAF_SIZE 4u

typedef enum { VX_MESH_TRIANGLES = 0, VX_MESH_HEIGHTFIELD = 1 } vx_mesh_kind;

/* A node of a mesh's tree, depth first: an inner node's first child follows
 * it, its second is at `second`; a leaf holds triangles [first, first +
 * count) of the tree order. */
typedef struct {
    vx_aabb box;
    uint32_t index; /* inner node: the second child; leaf: the first triangle */
    uint32_t count; /* 0 for an inner node */
} vx_mesh_node;

struct vx_mesh {
    vx_mesh_kind kind;
    uint32_t triangle_count;
    uint8_t *edge_flags; /* per triangle */
    vx_aabb bounds;      /* of every corner, in the mesh's frame */
    float outer_radius;  /* the farthest the bounds reach from the frame's origin */
    /* VX_MESH_TRIANGLES */
    uint32_t vertex_count;
    vx_vec3 *vertices;
    uint32_t *indices; /* 3 per triangle, in the tree's order */
    /* the same corners copied, 3 per triangle in the tree's order: a query
     * reads a leaf's triangles from one run of memory instead of vertices
     * spread over the whole array (the vertices keep the user's order) */
    vx_vec3 *corners;
    vx_vec3 *normals; /* per triangle in the tree's order: vx_mesh_normal of its corners */
    vx_mesh_node *nodes;
    uint32_t node_count;
    /* VX_MESH_HEIGHTFIELD: rows along +Z of columns along +X; cell (i, j)
     * (column i, row j) is triangles 2 (j (columns - 1) + i) and + 1 */
    uint32_t rows, columns;
    float spacing_x, spacing_z;
    float *heights; /* rows * columns, row by row */
    const void *owner; /* the world that made it */
};

/* One triangle: corners counter-clockwise seen from the front, its unit
 * normal (front side) and edge flags. */
typedef struct {
    vx_vec3 v[3];
    vx_vec3 normal;
    uint8_t edges;
} vx_mesh_triangle;

/* Builds a mesh of triangle_count triangles (3 indices each into vertices).
 * VX_ERR_INVALID with "mesh: ..." for no triangles, a non-finite vertex, an
 * index out of range, a degenerate triangle (vx_triangle_is_degenerate) or
 * too many of anything; VX_ERR_NOMEM. */
vx_status vx_mesh_build(const vx_vec3 *vertices, size_t vertex_count, const uint32_t *indices,
                        size_t triangle_count, vx_mesh **out, vx_error *err);
/* A heightfield of rows x columns heights (at least 2 x 2), row by row;
 * VX_ERR_INVALID with "heightfield: ..." for a bad size, spacing or height. */
vx_status vx_mesh_build_heightfield(const float *heights, size_t rows, size_t columns, float spacing_x,
                                    float spacing_z, vx_mesh **out, vx_error *err);
void vx_mesh_destroy(vx_mesh *mesh);

/* Triangle t (< triangle_count) of either kind. */
void vx_mesh_get_triangle(const vx_mesh *mesh, uint32_t t, vx_mesh_triangle *out);

/* Called for each triangle a query reaches; return false to stop. */
typedef bool (*vx_mesh_visit_fn)(void *context, uint32_t triangle);

/* fn for every triangle whose bounds meet box (the mesh's frame), in a
 * fixed order that depends only on the mesh and the box. */
void vx_mesh_query(const vx_mesh *mesh, vx_aabb box, vx_mesh_visit_fn fn, void *context);

/* Called for each triangle a ray query reaches: returns the max_t for the
 * rest of the walk (less to clip it, negative to stop). */
typedef double (*vx_mesh_ray_fn)(void *context, uint32_t triangle, double max_t);

/* fn for the triangles whose bounds, grown by grow on every side, the
 * segment origin + t direction (t in [0, max_t], the mesh's frame) meets,
 * nearer ones first as far as the tree tells; conservative (rounding never
 * drops a triangle the segment touches). */
void vx_mesh_ray_query(const vx_mesh *mesh, const double origin[3], const double direction[3], double max_t,
                       float grow, vx_mesh_ray_fn fn, void *context);

/* ---- the parts (mesh_adjacency.c, mesh_tree.c, heightfield.c) ---- */

/* The flags of an edge from a to b of a triangle of unit normal n whose
 * neighbour across it has the third corner c (none: the border). */
uint8_t vx_mesh_edge_flags(vx_vec3 a, vx_vec3 b, vx_vec3 n, const vx_vec3 *c);
/* mesh->edge_flags from the triangles as given (before the tree reorders
 * them): edges matched by their two vertex indices; an edge of one triangle
 * or of three and more is a border. */
vx_status vx_mesh_find_edges(vx_mesh *mesh);
/* The tree over the triangles; reorders indices and edge_flags. */
vx_status vx_mesh_build_tree(vx_mesh *mesh);
void vx_mesh_tree_query(const vx_mesh *mesh, vx_aabb box, vx_mesh_visit_fn fn, void *context);
void vx_mesh_tree_ray_query(const vx_mesh *mesh, const double origin[3], const double direction[3], double max_t,
                            float grow, vx_mesh_ray_fn fn, void *context);
void vx_heightfield_get_triangle(const vx_mesh *mesh, uint32_t t, vx_mesh_triangle *out);
vx_status vx_heightfield_find_edges(vx_mesh *mesh);
void vx_heightfield_query(const vx_mesh *mesh, vx_aabb box, vx_mesh_visit_fn fn, void *context);
void vx_heightfield_ray_query(const vx_mesh *mesh, const double origin[3], const double direction[3], double max_t,
                              float grow, vx_mesh_ray_fn fn, void *context);

/* Component-wise min and max of finite vectors, without a libm call each. */
static inline vx_vec3 vx_mesh_min3(vx_vec3 a, vx_vec3 b)
{
    return vx_vec3_make(a.x < b.x ? a.x : b.x, a.y < b.y ? a.y : b.y, a.z < b.z ? a.z : b.z);
}
static inline vx_vec3 vx_mesh_max3(vx_vec3 a, vx_vec3 b)
{
    return vx_vec3_make(a.x > b.x ? a.x : b.x, a.y > b.y ? a.y : b.y, a.z > b.z ? a.z : b.z);
}

/* The unit normal of the triangle (a, b, c): (b - a) x (c - a) made unit. */
static inline vx_vec3 vx_mesh_normal(vx_vec3 a, vx_vec3 b, vx_vec3 c)
{
    return vx_vec3_normalize(vx_vec3_cross(vx_vec3_sub(b, a), vx_vec3_sub(c, a)));
}

#endif
