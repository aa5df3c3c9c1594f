/* The ranges of the settings (vx_world_def) and of shapes, shared by the
 * world, the scene loader and the thread pool. */
#ifndef VOLTEX_LIMITS_H
#define VOLTEX_LIMITS_H

#define VX_MAX_ITERATIONS 1000          /* velocity passes per step: far beyond any useful setting */
#define VX_MAX_POSITION_ITERATIONS 1000 /* position passes per step (0 turns them off): likewise */
#define VX_MAX_SUBSTEPS 1000            /* substeps per step: likewise */
#define VX_MAX_THREADS 256              /* threads of a step: more than any machine we target */
#define VX_MAX_HULL_POINTS 256          /* points of a convex hull (vx_world_make_hull) */
#define VX_MAX_MESH_TRIANGLES (1u << 28) /* triangles of a mesh or heightfield: 268 million, indices fit 32 bits */
#define VX_MAX_MESH_VERTICES (1u << 28)  /* vertices of a mesh */

#endif
