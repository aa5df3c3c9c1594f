/* Collision detection over the step's bodies (private to the physics
 * module): BVH broad phase over bounds grown by the speculative distance and
 * the motion of one substep, then the oriented narrow phase (collide.h) on
 * each pair where at least one body can move. */
#ifndef VOLTEX_PHYSICS_MANIFOLD_DETECT_H
#define VOLTEX_PHYSICS_MANIFOLD_DETECT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "physics/solver_body.h"
#include "voltex/collide.h"
#include "voltex/physics.h"

/* One touching (or speculative) pair: a is the body with the lower entity
 * index, the manifold's normal points from a to b and its points are sorted
 * by feature id. */
typedef struct {
    uint32_t a;  /* body slots in vx_solver_bodies */
    uint32_t b;
    bool sensor; /* either collider is a sensor: reported, never pushed */
    vx_manifold manifold;
} vx_pair_manifold;

typedef struct {
    vx_bvh bvh;
    vx_bvh_entry *entries;
    size_t entry_capacity;
    vx_pair_list pairs;
    uint32_t *slot_of_index; /* entity index -> body slot */
    size_t slot_capacity;
    vx_pair_manifold *items; /* sorted by (entity a, entity b) */
    size_t count;
    size_t capacity;
} vx_manifold_detector;

void vx_manifold_detector_init(vx_manifold_detector *d);
void vx_manifold_detector_free(vx_manifold_detector *d);

/* Finds the manifolds of the bodies' current poses. A pair is kept when its
 * shapes are closer than speculative_distance plus what their relative
 * motion can close in h (so bodies up to that fast are stopped at the
 * surface); d->items is replaced. */
vx_status vx_manifold_detect(vx_manifold_detector *d, const vx_solver_bodies *bodies, float speculative_distance,
                             float h);

#endif
