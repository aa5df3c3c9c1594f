/* One triangle of a mesh as a convex hull (private to the physics module),
 * so that every convex shape meets a triangle through the hull code: a
 * prism whose top is the triangle, facing the side the other shape is on,
 * and whose body reaches `thickness` below it. Seen from the top side the
 * prism is the triangle with the space under it filled: its top edges'
 * Gauss-map arcs run from the triangle's normal to the edges' outward
 * directions, the arcs of a solid's edges, and its sides meet only a shape
 * that has already passed the triangle's plane. docs/simulation.md,
 * "Meshes and heightfields". */
#ifndef VOLTEX_PHYSICS_BODY_TRIANGLE_HULL_H
#define VOLTEX_PHYSICS_BODY_TRIANGLE_HULL_H

#include <stdbool.h>

#include "physics/body/hull.h"
#include "physics/body/mesh.h"

/* Vertices 0..2 the top (the triangle, counter-clockwise seen from the top
 * side), 3..5 below them; face 0 the top, 1 the bottom, 2 + k the side
 * under top edge k (from top vertex k to k + 1). */
#define VX_TRIANGLE_HULL_TOP 0

typedef struct vx_triangle_hull_s {
    vx_hull hull;
    vx_vec3 vertices[6];
    vx_hull_face faces[5];
    vx_hull_edge edges[18];
    bool back; /* the top is the triangle's back: top vertex k is corner (3 - k) % 3, top edge k is edge 2 - k */
} vx_triangle_hull;

/* The prism of tri facing its back (back) or front, thickness (> 0) deep. */
void vx_triangle_hull_init(vx_triangle_hull *out, const vx_mesh_triangle *tri, bool back, float thickness);
/* Only what a shape along the triangle's face needs: back, the top
 * vertices 0..2, the top face and the side faces 2..4, the same bits as
 * vx_triangle_hull_init gives them; the rest is left unset (no hull). */
void vx_triangle_hull_init_planes(vx_triangle_hull *out, const vx_mesh_triangle *tri, bool back);
/* The same, with the triangle's edges' outward unit directions given
 * (edge k from corner k to k + 1: vx_vec3_normalize((v[k + 1] - v[k]) x
 * normal)), which the side planes are made of either way up. */
void vx_triangle_hull_init_planes_with(vx_triangle_hull *out, const vx_mesh_triangle *tri, bool back,
                                       const vx_vec3 edge_out[3]);

/* The triangle's edge under top edge k of the prism. */
static inline int vx_triangle_hull_edge(const vx_triangle_hull *th, int k) { return th->back ? 2 - k : k; }

#endif
