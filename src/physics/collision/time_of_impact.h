/* Time of impact of two shapes moving at constant velocities (private to the
 * physics module), by conservative advancement (Mirtich): at the current
 * time the narrow phase (collide.h) gives a direction n from A to B, the
 * shapes' support functions the gap along it, which is never more than
 * their distance, and the gap along a fixed n closes at most at
 *     c = n . (vA - vB) + |wA| RA + |wB| RB
 * (R: how far a surface point can be from the body's centre), so the time
 * can safely advance by gap / c. The step repeats until the gap is within
 * the tolerance (impact), c says the gap can no longer close, or the time
 * runs out (no impact). */
#ifndef VOLTEX_PHYSICS_TIME_OF_IMPACT_H
#define VOLTEX_PHYSICS_TIME_OF_IMPACT_H

#include <stdbool.h>

#include "voltex/collide.h"
#include "voltex/math.h"
#include "voltex/physics.h"

struct vx_triangle_hull_s;

/* One body of a sweep: its shape, pose at time 0 and constant velocities. */
typedef struct {
    const vx_collider *shape;
    vx_vec3 x;          /* centre, world */
    vx_quat q;          /* orientation, unit */
    vx_vec3 v;          /* m/s */
    vx_vec3 w;          /* rad/s, world */
    float sweep_radius; /* m: the farthest surface point from x (0 for a sphere) */
    float inset;        /* m: the shape moved in by this on every side (a hull's core; 0: the shape) */
    const vx_transform *part; /* the shape's pose in the body's frame (a compound's part); NULL: none */
} vx_toi_body;

/* At most this many advancement steps; a sweep still undecided then counts
 * as an impact (the caller then keeps its contact: the safe side). */
#define VX_TOI_MAX_ITERATIONS 32

/* True when the shapes come within tolerance (> 0) of each other at some
 * time in [0, t_max] while moving at constant v and w: *t_hit is then the
 * time reached, at which they are at most tolerance apart and, before it,
 * never closer than tolerance / 2 (so never touching). False when they stay
 * farther apart than tolerance / 2 throughout. Deterministic: the same
 * input gives the same answer bit for bit. */
bool vx_time_of_impact(const vx_toi_body *a, const vx_toi_body *b, float t_max, float tolerance, float *t_hit);
/* vx_time_of_impact where a non-NULL prism_a (prism_b) is the triangle
 * prism whose hull is a's (b's) shape, as vx_mesh_for_each_prism hands it
 * out (a sphere then meets it without the hull test: collide_prism_sphere.h). */
bool vx_time_of_impact_prism(const vx_toi_body *a, const struct vx_triangle_hull_s *prism_a, const vx_toi_body *b,
                             const struct vx_triangle_hull_s *prism_b, float t_max, float tolerance, float *t_hit);

/* The pose of a sweep's body at time t: x + v t, and q turned by w t. */
vx_transform vx_toi_body_pose(const vx_toi_body *body, float t);

/* The pose of its shape at time t: the body's times its part's. */
vx_transform vx_toi_shape_pose(const vx_toi_body *body, float t);

/* The gap between the shapes along the unit direction n (from A to B):
 * min over B of n.p minus max over A of n.p; never more than their
 * distance, negative when their projections overlap. */
float vx_toi_gap_along(const vx_collider *a, const vx_transform *ta, const vx_collider *b, const vx_transform *tb,
                       vx_vec3 n);

#endif
