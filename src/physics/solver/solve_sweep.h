/* Passes over the ranges of a solve order (solve_order.h), split between
 * the threads of a pool with a barrier after each range, or run as a flow
 * (solve_flow.h) when the order allows it (private to the physics module).
 * See docs/simulation.md, "Threads: sweeps and flows". */
#ifndef VOLTEX_PHYSICS_SOLVER_SOLVE_SWEEP_H
#define VOLTEX_PHYSICS_SOLVER_SOLVE_SWEEP_H

#include <stddef.h>
#include <stdint.h>

#include "common/thread_pool.h"
#include "physics/solver/solve_flow.h"
#include "physics/solver/solve_order.h"

/* Units [begin, end) as positions [*first, *last) in order->sequence. */
static inline void vx_solve_unit_positions(const vx_solve_order *c, size_t begin, size_t end, size_t *first,
                                      size_t *last)
{
    *first = c->unit_start[begin];
    *last = c->unit_start[end];
}

typedef float (*vx_solve_range_fn)(void *arg, size_t begin, size_t end, int pass);

/* Calls fn(arg, begin, end, pass) on ranges of units (solve_order.h;
 * vx_solve_unit_positions gives their positions in order->sequence), below
 * the pool's grain (in positions) on the calling thread alone. Pass p
 * visits the levels in order, and the ranges of a level in order when
 * parity + p is even, in reverse when it is odd; each range is split between
 * the threads by index (a serial range: thread 0 alone), with a barrier
 * after each. What fn does to one position may touch only the bodies of
 * that constraint, so results do not depend on the split. fn returns a
 * value to take the minimum of over the pass; a pass whose minimum is at
 * least stop_at is the last one (INFINITY: all passes run).
 *
 * flow (may be NULL): when the order can go as a flow (order->flow), on
 * more than one thread, with every pass run (stop_at INFINITY), the sweep
 * goes as a flow planned in it (solve_flow.h) instead of a barrier after
 * each range: the same results, fewer meetings. */
void vx_solve_sweep(vx_thread_pool *pool, const vx_solve_order *order, vx_solve_flow *flow, int passes,
                    unsigned parity, vx_solve_range_fn fn, void *arg, float stop_at);

#endif
