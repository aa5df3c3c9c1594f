/* What the last vx_step did, counted (private to the physics module;
 * for tests and measurements: the public API only has
 * vx_step_awake_count). */
#ifndef VOLTEX_PHYSICS_STEP_COUNTS_H
#define VOLTEX_PHYSICS_STEP_COUNTS_H

#include <stddef.h>

#include "physics/step.h"
#include "voltex/physics.h"

typedef struct {
    size_t bodies;           /* gathered: entities with a transform and a collider or a rigid body */
    size_t awake;            /* dynamic bodies awake at the end of the step */
    size_t asleep;           /* bodies asleep at the end of the step */
    size_t broadphase_pairs; /* pairs of the broad phase, summed over substeps */
    size_t narrow_pairs;     /* of which given to the narrow phase (not frozen by sleep), summed over substeps */
    size_t manifolds;        /* manifolds found, summed over substeps */
    size_t reused;           /* of which kept from an earlier step (manifold_reuse.h) */
    int threads;             /* the threads the step ran on (1: the calling thread alone) */
    size_t flow_sweeps;      /* solver sweeps that went to the threads as a flow (solve_flow.h) */
} vx_step_counts;

/* All zero before the first step. */
vx_step_counts vx_step_counts_last(const vx_step_state *state);

#endif
