/* The ranges of the settings (vx_world_def) and of shapes, shared by the
 * world, the scene loader and the thread pool. */
#ifndef VOLTEX_LIMITS_H
#define VOLTEX_LIMITS_H

#define VX_MAX_ITERATIONS 1000          /* velocity passes per step: far beyond any useful setting */
#define VX_MAX_POSITION_ITERATIONS 1000 /* position passes per step (0 turns them off): likewise */
#define VX_MAX_SUBSTEPS 1000            /* substeps per step: likewise */
#define VX_MAX_THREADS 256              /* threads of a step: more than any machine we target */
#define VX_MAX_HULL_POINTS 256          /* points of a convex hull (vx_world_make_hull) */
#define VX_MAX_COMPOUND_PARTS 256       /* parts of a compound (vx_world_make_compound): a part index fits 8 bits */
/* m: the largest size of a shape a scene may give (radius, half extent,
 * half height, a hull point's coordinate): 1000 km. Past it a 32-bit float
 * keeps centimetres at the surface, and a shape's inertia runs out of the
 * float range long before 3e38. */
#define VX_MAX_SHAPE_SIZE 1e6f
/* bytes a step holds at most for one pair of bodies whose bounds overlap
 * (broad phase, manifold, constraint, warm-start cache, report): measured
 * about 1000 for sphere pairs and 3200 for box pairs (4 points) at their
 * peak; vx_world_def.max_pairs = a memory budget / this */
#define VX_PAIR_BYTES 4096u
/* s: the longest fixed step a scene (or voltex-sim --dt) may take, 1/30 s.
 * Contacts are found once a step and solved by iterations whose residual
 * grows with the step: past it a deep pile pushes bodies through a static
 * floor (bench/convex_pile at 1/20 s). Longer frames: a shorter dt and
 * --every. */
#define VX_MAX_DT (1.0f / 30.0f)
#define VX_MAX_DT_TEXT "1/30"
#define VX_MAX_MESH_TRIANGLES (1u << 28) /* triangles of a mesh or heightfield: 268 million, indices fit 32 bits */
#define VX_MAX_MESH_VERTICES (1u << 28)  /* vertices of a mesh */

#endif
