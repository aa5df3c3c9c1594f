/* The order of the contact constraints in every solver pass (private to the
 * physics module). Coloured: levels by depth from the ground, greedy colours
 * within a level (two of one colour share no moved body). Sequential:
 * islands gathered into bins, each bin in waves; constraints that share a
 * moved body keep their order of add, so results are those of the serial
 * pass bit for bit. Nothing here depends on the number of threads.
 * See docs/simulation.md, "Solve order and waves". */
#ifndef VOLTEX_PHYSICS_SOLVER_SOLVE_ORDER_H
#define VOLTEX_PHYSICS_SOLVER_SOLVE_ORDER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "voltex/error.h"

/* colours a level may use before its leftovers go to a serial range */
#define VX_LEVEL_COLORS 32
/* a colour with fewer constraints than this is solved serially */
#define VX_COLOR_MIN_PARALLEL 32
/* a wave of the sequential order's one bin with fewer constraints than this
 * is solved serially (with the waves around it) */
#define VX_WAVE_MIN_PARALLEL 16
/* ... and a bin of fewer constraints than this keeps all its waves serial:
 * their rows stay in the cache, and a barrier per wave cost more than the
 * second thread saved (bench pyramid_40, 2380 constraints: 3.11 ms/step on
 * 2 threads serial, 3.35 split; large_pyramid, 14950: 1.27x -> 1.61x
 * split) */
#define VX_WAVE_SPLIT_MIN_ITEMS 4096u

/* ... and a bin of this many constraints or more also goes to the threads
 * as a flow (solve_flow.h) in the passes that need no meeting per pass:
 * each thread takes a share of the units in the order of add and waits
 * only for the units of other threads that touched its bodies before
 * (bench, 2 threads against 1: large_pyramid 1.62x -> 1.81x, pyramid_40
 * 1.2x -> 1.64x, pyramid_20 (590 constraints) 0.75 -> 0.68 ms/step) */
#define VX_FLOW_MIN_ITEMS 256u

/* The sequential order's islands go to the threads in bins of at least
 * this many constraints, and of at least 1/VX_ISLAND_BINS of them all. The
 * threads split only between bins: spheres_4096 (256 columns of 16) on 2
 * threads ran 1.50x faster than on one with bins of 256, 1.66x with 128
 * (one thread alike). */
#define VX_ISLAND_BIN_MIN 128u
#define VX_ISLAND_BINS 64u

/* Ranges are in units: runs of up to VX_SOLVE_UNIT consecutive positions
 * of one colour (in the sequential order's one range, of one wave; a level's
 * leftovers, which may share bodies, one position per unit), the pieces the
 * threads share out and the SIMD solver's blocks of four lanes: the items of
 * a unit never share a moved body (but a bin of islands is a unit). */
#define VX_SOLVE_UNIT 4

/* Where the order splits its work (step_tuning.h): results never depend on
 * it. The defaults are the constants above; tests lower them so that their
 * small scenes take the paths of large ones. */
typedef struct {
    bool lanes;            /* false: the sequential order as the order of add, one serial
                              range solved by the scalar code (tests compare the two) */
    size_t island_bin_min; /* VX_ISLAND_BIN_MIN */
    size_t wave_split_min; /* VX_WAVE_SPLIT_MIN_ITEMS */
    size_t flow_min;       /* VX_FLOW_MIN_ITEMS */
} vx_solve_order_tuning;

vx_solve_order_tuning vx_solve_order_tuning_default(void);

typedef struct {
    uint32_t begin, end; /* units */
    bool serial;         /* one thread, in order; otherwise split between threads */
    uint32_t level;
} vx_solve_range;

typedef struct {
    uint32_t *sequence; /* constraint ids, range by range */
    size_t count;
    vx_solve_range *ranges;
    size_t range_count;
    uint32_t *unit_start; /* unit u is sequence[unit_start[u] .. unit_start[u + 1]) */
    size_t unit_count;
    /* every unit holds at most VX_SOLVE_UNIT items that share no moved
     * body (SIMD lanes): the coloured order, and the sequential order when
     * it is one serial range; not its islands' bins */
    bool lanes;
    /* the sequential order's bins: the threads split its parallel range
     * only at these units, bin k's first (split_unit[split_count]: the end);
     * split_count 0: at any unit */
    uint32_t *split_unit;
    size_t split_count;
    /* the sequential order's one bin in waves, large enough to go to the
     * threads as a flow (solve_flow.h): unit u's first item's index in the
     * order of add (unit_rank[u]) and the units that touched its moved
     * bodies last before it, in the pass or, for a body's first unit of a
     * pass, in the pass before (flow_dep[flow_dep_start[u] ..
     * flow_dep_start[u + 1]), no repeats, not u itself) */
    bool flow;
    uint32_t *unit_rank, *flow_dep_start, *flow_dep;
    /* unit_apart[u] != 0: units u and u + 1 share no moved body (one
     * colour, one wave, or two bins), so the SIMD solver may run their
     * dependency chains side by side (contact_wide.h) */
    uint8_t *unit_apart;
    size_t unit_capacity, flow_dep_capacity;
    /* one more every time end computes an order (not when it keeps one) */
    uint64_t version;
    vx_solve_order_tuning tuning; /* defaults after init; the step sets its own */
    vx_solve_order_tuning last_tuning; /* the last computed order's */
    /* scratch */
    size_t capacity, range_capacity, body_capacity;
    uint32_t *ids, *a, *b;  /* per added item */
    uint8_t *moved;         /* per added item: bit 0 a moved, bit 1 b moved */
    uint8_t *color;         /* per added item: its colour in its level */
    uint32_t *by_level;     /* the added items' indices in level order */
    uint32_t *depth;        /* per body */
    uint32_t *head, *next;  /* per body: its items, as linked lists (adjacency) */
    uint32_t *queue;        /* per body: breadth-first queue */
    uint64_t *mask;         /* per body: colours taken at stamp's level */
    uint32_t *stamp;        /* per body */
    uint32_t *cursor;       /* per level: the end of its items in by_level */
    size_t cursor_capacity;
    /* the last end's result, kept for the next call with the same items */
    bool same;              /* every item added so far equals the last call's */
    bool last_colored;      /* the last end's kind, valid after a successful end */
    bool last_valid;
    bool kept;              /* the last end kept the order before it (for tests) */
    size_t last_count, last_ranges, last_units;
} vx_solve_order;

void vx_solve_order_init(vx_solve_order *c);
void vx_solve_order_free(vx_solve_order *c);

/* Three calls: begin for at most max_items items over body slots 0 ..
 * body_count-1; add for each item (ids in increasing order; moved_a/moved_b:
 * the solver moves that body); end orders the items into order and ranges.
 * VX_ERR_NOMEM from begin or end if the arrays cannot grow (the order is
 * then empty). The order depends on nothing but the items, so when they are
 * the last call's (a settled pile: the same pairs every step), end keeps
 * the last order instead of computing it again. */
vx_status vx_solve_order_begin(vx_solve_order *c, size_t max_items, size_t body_count);
void vx_solve_order_add(vx_solve_order *c, uint32_t item, uint32_t a, bool moved_a, uint32_t b, bool moved_b);
vx_status vx_solve_order_end(vx_solve_order *c, bool colored);
/* Positions [first, last) of a parallel range rounded up to split units
 * (split_count > 0): the units [*b, *e) of a thread's share. */
void vx_solve_order_split(const vx_solve_order *c, size_t first, size_t last, size_t *b, size_t *e);

#endif
