/* How a step splits its work between threads and SIMD lanes, beyond what the
 * settings say (private to the physics module). Results never depend on it:
 * every split gives the same bytes. The defaults suit real scenes; tests
 * lower the thresholds so that their small scenes take the paths of large
 * ones, and compare the paths. */
#ifndef VOLTEX_PHYSICS_STEP_TUNING_H
#define VOLTEX_PHYSICS_STEP_TUNING_H

#include <stdbool.h>
#include <stddef.h>

#include "physics/solver/solve_order.h"
#include "physics/step.h"
#include "voltex/physics.h"

typedef struct {
    /* loops and sweeps over fewer items than this stay on the calling
     * thread (common/thread_pool.h, VX_THREAD_POOL_GRAIN) */
    size_t grain;
    /* the most threads a step runs; 0: the machine's processors
     * (common/parallel.h). Tests raise it to make splits a small machine
     * would not. */
    int max_threads;
    /* every step on the threads instead of the clock's choice (thread_choice.h) */
    bool always_threads;
    /* the solve order's splits (solve_order.h) */
    vx_solve_order_tuning order;
    /* substeps: the relax's separations serve the next solve (contact_solver.h) */
    bool reuse_separations;
} vx_step_tuning;

vx_step_tuning vx_step_tuning_default(void);

/* The tuning of scratch's step state, made if need be (NULL when out of
 * memory); the next steps use it. */
vx_step_tuning *vx_step_tuning_of(vx_step_state *state);

#endif
