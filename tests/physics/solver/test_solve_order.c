/* The solve order of the contact constraints (src/physics/solve_order.h),
 * over hand-made and random constraint graphs: chains, stacks, dense
 * clusters, floating pairs, a floor carrying hundreds of bodies, hubs with
 * more than VX_LEVEL_COLORS constraints, none at all.
 *
 * Checked for the coloured order: every added id appears exactly once; the
 * ranges tile the units and the units tile the order; levels never
 * decrease along the ranges and are the documented depths (bodies the
 * solver does not move at 0, breadth first from there, a constraint at the
 * smaller depth of its two bodies); no two constraints of a parallel range
 * and no two of a unit share a moved body; a parallel range has at least
 * VX_COLOR_MIN_PARALLEL constraints and a level at most VX_LEVEL_COLORS
 * parallel ranges. The sequential order: islands in bins, each bin in
 * waves and lanes, and one bin's flow data (each unit's rank and the units
 * it waits for, against a walk back over the units). The result is a
 * function of the input alone, whatever the vx_solve_order held
 * before. */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "physics/solver/solve_order.h"
#include "test_helpers.h"

#define NO_DEPTH UINT32_MAX

typedef struct {
    uint32_t id, a, b;
    bool moved_a, moved_b;
} item;

/* A constraint graph: items over bodies 0 .. body_count - 1, each body moved
 * by the solver or not (static, kinematic). */
typedef struct {
    item *items;
    size_t count, capacity;
    size_t body_count;
    bool *moved;
    uint32_t next_id;
} graph;

static void graph_init(graph *g, size_t body_count, size_t capacity)
{
    memset(g, 0, sizeof *g);
    g->items = calloc(capacity > 0 ? capacity : 1u, sizeof *g->items);
    g->moved = calloc(body_count > 0 ? body_count : 1u, sizeof *g->moved);
    cr_assert(g->items && g->moved);
    g->capacity = capacity;
    g->body_count = body_count;
    for (size_t i = 0; i < body_count; i++) g->moved[i] = true;
}

static void graph_free(graph *g)
{
    free(g->items);
    free(g->moved);
}

/* Ids increase as the header asks, with gaps (the solver skips some). */
static void graph_add(graph *g, uint32_t a, uint32_t b)
{
    cr_assert_lt(g->count, g->capacity);
    cr_assert(a < g->body_count && b < g->body_count && a != b);
    cr_assert(g->moved[a] || g->moved[b], "the solver never adds a pair it moves neither body of");
    item *it = &g->items[g->count++];
    it->id = g->next_id;
    g->next_id += 1u + (g->next_id % 3u == 1u ? 1u : 0u);
    it->a = a;
    it->b = b;
    it->moved_a = g->moved[a];
    it->moved_b = g->moved[b];
}

/* The graphs here are small: their one bin's waves are split and go as a
 * flow as a large island's would (VX_WAVE_SPLIT_MIN_ITEMS, VX_FLOW_MIN_ITEMS). */
static void colors_init(vx_solve_order *c)
{
    vx_solve_order_init(c);
    c->tuning.wave_split_min = 1u;
    c->tuning.flow_min = 1u;
}

static vx_status run_colors(vx_solve_order *c, const graph *g, bool colored)
{
    vx_status st = vx_solve_order_begin(c, g->count, g->body_count);
    if (st != VX_OK) return st;
    for (size_t i = 0; i < g->count; i++) {
        const item *it = &g->items[i];
        vx_solve_order_add(c, it->id, it->a, it->moved_a, it->b, it->moved_b);
    }
    return vx_solve_order_end(c, colored);
}

/* The item of an id (ids increase, so a binary search). */
static const item *item_of(const graph *g, uint32_t id)
{
    size_t lo = 0, hi = g->count;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2u;
        if (g->items[mid].id < id)
            lo = mid + 1u;
        else
            hi = mid;
    }
    cr_assert(lo < g->count && g->items[lo].id == id, "id %u in the order was never added", id);
    return &g->items[lo];
}

/* Reference depths, breadth first over constraints of two moved bodies from
 * the bodies the solver does not move (depth 0); NO_DEPTH for bodies no
 * path connects to one. */
static uint32_t *reference_depths(const graph *g)
{
    uint32_t *depth = malloc((g->body_count + 1u) * sizeof *depth);
    cr_assert_not_null(depth);
    for (size_t i = 0; i < g->body_count; i++) depth[i] = g->moved[i] ? NO_DEPTH : 0u;
    /* relax until nothing changes: plain and obviously right (graphs are small) */
    for (bool changed = true; changed;) {
        changed = false;
        for (size_t k = 0; k < g->count; k++) {
            const item *it = &g->items[k];
            uint32_t da = depth[it->a], db = depth[it->b];
            if (it->moved_a && db != NO_DEPTH && db + 1u < da) {
                depth[it->a] = db + 1u;
                changed = true;
            }
            if (it->moved_b && da != NO_DEPTH && da + 1u < db) {
                depth[it->b] = da + 1u;
                changed = true;
            }
        }
    }
    return depth;
}

/* Do two items share a body that both move? */
static bool share_moved_body(const item *x, const item *y)
{
    return (x->moved_a && ((y->moved_a && x->a == y->a) || (y->moved_b && x->a == y->b))) ||
           (x->moved_b && ((y->moved_a && x->b == y->a) || (y->moved_b && x->b == y->b)));
}

/* Marks per body, to find a body used twice in a set of items in linear time. */
typedef struct {
    uint32_t *mark;
    uint32_t stamp;
} body_marks;

static void marks_init(body_marks *m, size_t body_count)
{
    m->mark = calloc(body_count > 0 ? body_count : 1u, sizeof *m->mark);
    cr_assert_not_null(m->mark);
    m->stamp = 0u;
}

/* Starts a new set. */
static void marks_clear(body_marks *m) { m->stamp++; }

/* false if a moved body of it is already in the current set. */
static bool marks_take(body_marks *m, const item *it)
{
    if (it->moved_a) {
        if (m->mark[it->a] == m->stamp) return false;
        m->mark[it->a] = m->stamp;
    }
    if (it->moved_b) {
        if (m->mark[it->b] == m->stamp) return false;
        m->mark[it->b] = m->stamp;
    }
    return true;
}

/* The unit/range structure shared by both orders; units hold 1 ..
 * max_unit positions. */
static void check_tiling_units(const vx_solve_order *c, const graph *g, size_t max_unit)
{
    cr_assert_eq(c->count, g->count);
    if (g->count == 0) {
        cr_assert_eq(c->range_count, 0u);
        cr_assert_eq(c->unit_count, 0u);
        return;
    }
    cr_assert_gt(c->range_count, 0u);
    /* units tile the order, each 1..VX_SOLVE_UNIT positions */
    cr_assert_eq(c->unit_start[0], 0u);
    cr_assert_eq(c->unit_start[c->unit_count], (uint32_t)c->count);
    for (size_t u = 0; u < c->unit_count; u++) {
        uint32_t len = c->unit_start[u + 1] - c->unit_start[u];
        cr_assert(len >= 1u && len <= max_unit, "unit %zu has %u positions", u, len);
    }
    /* ranges tile the units, in order, none empty */
    uint32_t expected = 0;
    for (size_t r = 0; r < c->range_count; r++) {
        cr_assert_eq(c->ranges[r].begin, expected, "range %zu starts at unit %u, expected %u", r,
                     c->ranges[r].begin, expected);
        cr_assert_gt(c->ranges[r].end, c->ranges[r].begin, "range %zu is empty", r);
        expected = c->ranges[r].end;
    }
    cr_assert_eq(expected, (uint32_t)c->unit_count);
    /* every added id exactly once */
    bool *seen = calloc(g->count, sizeof *seen);
    cr_assert_not_null(seen);
    for (size_t p = 0; p < c->count; p++) {
        const item *it = item_of(g, c->sequence[p]);
        size_t k = (size_t)(it - g->items);
        cr_assert(!seen[k], "id %u appears twice", it->id);
        seen[k] = true;
    }
    free(seen);
}

static void check_tiling(const vx_solve_order *c, const graph *g) { check_tiling_units(c, g, VX_SOLVE_UNIT); }

/* Every invariant of the coloured order. */
static void check_colored(const vx_solve_order *c, const graph *g)
{
    check_tiling(c, g);
    if (g->count == 0) return;
    cr_assert(c->lanes, "the coloured order goes in lanes");
    uint32_t *depth = reference_depths(g);
    body_marks marks;
    marks_init(&marks, g->body_count);
    uint32_t parallel_in_level = 0;
    for (size_t r = 0; r < c->range_count; r++) {
        const vx_solve_range *range = &c->ranges[r];
        if (r > 0) {
            cr_assert_geq(range->level, c->ranges[r - 1].level, "range %zu goes down a level", r);
            if (range->level != c->ranges[r - 1].level) parallel_in_level = 0;
        }
        uint32_t first = c->unit_start[range->begin], last = c->unit_start[range->end];
        if (!range->serial) {
            cr_assert_geq(last - first, (uint32_t)VX_COLOR_MIN_PARALLEL, "parallel range %zu has %u items", r,
                          last - first);
            parallel_in_level++;
            cr_assert_leq(parallel_in_level, (uint32_t)VX_LEVEL_COLORS, "level %u: too many colours", range->level);
            marks_clear(&marks);
        }
        for (uint32_t u = range->begin; u < range->end; u++) {
            /* a unit's constraints share no moved body */
            for (uint32_t p = c->unit_start[u]; p < c->unit_start[u + 1]; p++)
                for (uint32_t q = p + 1u; q < c->unit_start[u + 1]; q++)
                    cr_assert(!share_moved_body(item_of(g, c->sequence[p]), item_of(g, c->sequence[q])),
                              "unit %u of %s range %zu (level %u): ids %u and %u share a moved body", u,
                              range->serial ? "serial" : "parallel", r, range->level, c->sequence[p], c->sequence[q]);
            for (uint32_t p = c->unit_start[u]; p < c->unit_start[u + 1]; p++) {
                const item *it = item_of(g, c->sequence[p]);
                /* a parallel range's constraints share no moved body */
                if (!range->serial)
                    cr_assert(marks_take(&marks, it), "parallel range %zu: id %u shares a moved body", r, it->id);
                /* the level is the documented depth where a path to the fixed world fixes it */
                uint32_t da = depth[it->a], db = depth[it->b];
                uint32_t want = da < db ? da : db;
                if (want != NO_DEPTH)
                    cr_assert_eq(range->level, want, "id %u (bodies %u, %u) in level %u, expected %u", it->id, it->a,
                                 it->b, range->level, want);
                else
                    cr_assert_geq(range->level, 1u, "a floating constraint at level 0");
            }
        }
    }
    free(marks.mark);
    free(depth);
}

/* Reference islands: items joined through shared moved bodies, found by
 * relabelling until nothing changes (slow and plain); the island of each
 * item as the index of its first item. */
static size_t *reference_islands(const graph *g)
{
    size_t *island = malloc((g->count > 0 ? g->count : 1u) * sizeof *island);
    cr_assert_not_null(island);
    for (size_t i = 0; i < g->count; i++) island[i] = i;
    for (bool changed = true; changed;) {
        changed = false;
        for (size_t i = 0; i < g->count; i++)
            for (size_t j = i + 1; j < g->count; j++)
                if (island[i] != island[j] && share_moved_body(&g->items[i], &g->items[j])) {
                    size_t lo = island[i] < island[j] ? island[i] : island[j];
                    island[i] = island[j] = lo;
                    changed = true;
                }
    }
    return island;
}

/* The sequential order in lanes, bin by bin (bin_of[i]: item i's bin, in
 * turn): item i's wave is one more than the largest wave of the items
 * before it sharing a moved body (found pair by pair here); a bin's items go
 * by wave, in add order within a wave, and units are runs of up to
 * VX_SOLVE_UNIT items of one wave of one bin. So two items sharing a moved
 * body keep their order of add (the results are those of that order) and a
 * unit's items share none (SIMD lanes). With several bins the threads split
 * only where a bin starts. */
static void check_sequential_lanes(const vx_solve_order *c, const graph *g, const size_t *bin_of, size_t bins)
{
    size_t n = g->count;
    size_t *wave = calloc(n, sizeof *wave);
    size_t *expected = calloc(n, sizeof *expected);
    cr_assert(wave && expected);
    cr_assert(c->lanes);
    size_t waves = 0;
    for (size_t i = 0; i < n; i++) {
        for (size_t j = 0; j < i; j++)
            if (share_moved_body(&g->items[i], &g->items[j]) && wave[j] + 1u > wave[i]) wave[i] = wave[j] + 1u;
        if (wave[i] + 1u > waves) waves = wave[i] + 1u;
    }
    size_t at = 0;
    for (size_t k = 0; k < bins; k++)
        for (size_t s = 0; s < waves; s++)
            for (size_t i = 0; i < n; i++)
                if (wave[i] == s && bin_of[i] == k) expected[at++] = i;
    cr_assert_eq(at, n);
    for (size_t p = 0; p < n; p++) cr_assert_eq(c->sequence[p], g->items[expected[p]].id, "position %zu", p);
    /* units: a bin's wave's positions in runs of VX_SOLVE_UNIT (the last shorter) */
    size_t u = 0, splits = 0;
    for (size_t p = 0; p < n; u++) {
        size_t i0 = expected[p], run = 0;
        cr_assert_lt(u, c->unit_count);
        cr_assert_eq(c->unit_start[u], (uint32_t)p, "unit %zu", u);
        if (bins > 1u && (p == 0 || bin_of[expected[p - 1u]] != bin_of[i0])) {
            cr_assert_lt(splits, c->split_count);
            cr_assert_eq(c->split_unit[splits], (uint32_t)u, "bin %zu starts at unit %zu", splits, u);
            splits++;
        }
        while (p < n && wave[expected[p]] == wave[i0] && bin_of[expected[p]] == bin_of[i0] && run < VX_SOLVE_UNIT) {
            for (size_t q = c->unit_start[u]; q < p; q++)
                cr_assert_not(share_moved_body(&g->items[expected[q]], &g->items[expected[p]]),
                              "positions %zu and %zu of one unit share a moved body", q, p);
            p++;
            run++;
        }
    }
    cr_assert_eq(u, c->unit_count);
    /* neighbouring units of one wave, or of two bins, are marked apart */
    for (size_t v = 0; v + 1u < c->unit_count; v++) {
        size_t i = expected[c->unit_start[v]], j = expected[c->unit_start[v + 1u]];
        bool apart = wave[i] == wave[j] || bin_of[i] != bin_of[j];
        cr_assert_eq(c->unit_apart[v] != 0, apart, "unit %zu", v);
    }
    cr_assert_eq(u, c->unit_count);
    cr_assert_eq(c->split_count, bins > 1u ? bins : 0u);
    if (bins > 1u) cr_assert_eq(c->split_unit[bins], (uint32_t)c->unit_count);
    /* the order of add between items that share a moved body */
    for (size_t p = 0; p < n; p++)
        for (size_t q = p + 1u; q < n; q++)
            if (share_moved_body(&g->items[expected[p]], &g->items[expected[q]]))
                cr_assert_lt(expected[p], expected[q], "positions %zu and %zu swapped", p, q);
    free(expected);
    free(wave);
}

/* One bin's ranges: a wave of at least VX_WAVE_MIN_PARALLEL items is a
 * parallel range of its own, the waves between such waves one serial range;
 * levels strictly increase, so that no sweep reverses two ranges (the waves
 * keep their order in every pass, for any number of threads). */
static void check_wave_ranges(const vx_solve_order *c, const graph *g)
{
    /* each item's wave, pair by pair (as check_sequential_lanes) */
    size_t n = g->count;
    size_t *wave = calloc(n, sizeof *wave);
    cr_assert_not_null(wave);
    for (size_t i = 0; i < n; i++)
        for (size_t j = 0; j < i; j++)
            if (share_moved_body(&g->items[i], &g->items[j]) && wave[j] + 1u > wave[i]) wave[i] = wave[j] + 1u;
    for (size_t r = 0; r < c->range_count; r++) {
        const vx_solve_range *range = &c->ranges[r];
        if (r > 0) cr_assert_gt(range->level, c->ranges[r - 1].level, "range %zu does not start a new level", r);
        size_t first = c->unit_start[range->begin], last = c->unit_start[range->end];
        size_t s0 = wave[item_of(g, c->sequence[first]) - g->items];
        size_t s1 = wave[item_of(g, c->sequence[last - 1u]) - g->items];
        if (!range->serial) {
            cr_assert_eq(s0, s1, "a parallel range holds one wave");
            cr_assert_geq(last - first, (size_t)VX_WAVE_MIN_PARALLEL);
            /* and the whole wave */
            if (first > 0) cr_assert_neq(wave[item_of(g, c->sequence[first - 1u]) - g->items], s0);
            if (last < n) cr_assert_neq(wave[item_of(g, c->sequence[last]) - g->items], s0);
        } else {
            /* its waves are all small */
            for (size_t p = first; p < last;) {
                size_t s = wave[item_of(g, c->sequence[p]) - g->items], q = p;
                while (q < last && wave[item_of(g, c->sequence[q]) - g->items] == s) q++;
                cr_assert_lt(q - p, (size_t)VX_WAVE_MIN_PARALLEL, "a wide wave in a serial range");
                p = q;
            }
            if (r > 0) cr_assert_not(c->ranges[r - 1].serial, "serial ranges in a row are one");
        }
    }
    free(wave);
}

/* Is the moved body x one of item it's? */
static bool moves_body(const item *it, uint32_t x) { return (it->moved_a && it->a == x) || (it->moved_b && it->b == x); }

/* One bin's flow data (solve_order.h): a unit's rank is the index in the
 * order of add of its first item, the smallest of the unit's; its
 * dependencies are, for each of its moved bodies, the nearest unit before
 * it that touches that body, looking back over the end of the pass into
 * the pass before (found here by walking back unit by unit), each once,
 * and nothing else. */
static void check_flow(const vx_solve_order *c, const graph *g)
{
    cr_assert(c->flow, "one bin goes as a flow");
    size_t units = c->unit_count;
    for (size_t u = 0; u < units; u++) {
        size_t first = c->unit_start[u], last = c->unit_start[u + 1u];
        size_t rank = (size_t)(item_of(g, c->sequence[first]) - g->items);
        cr_assert_eq(c->unit_rank[u], (uint32_t)rank, "unit %zu", u);
        for (size_t p = first; p < last; p++) cr_assert_geq((size_t)(item_of(g, c->sequence[p]) - g->items), rank);
        uint32_t expected[2 * VX_SOLVE_UNIT];
        size_t count = 0;
        for (size_t p = first; p < last; p++) {
            const item *it = item_of(g, c->sequence[p]);
            uint32_t bodies[2] = {it->moved_a ? it->a : UINT32_MAX, it->moved_b ? it->b : UINT32_MAX};
            for (int k = 0; k < 2; k++) {
                if (bodies[k] == UINT32_MAX) continue;
                for (size_t back = 1; back < units; back++) {
                    size_t v = (u + units - back) % units;
                    bool touches = false;
                    for (size_t q = c->unit_start[v]; q < c->unit_start[v + 1u]; q++)
                        touches = touches || moves_body(item_of(g, c->sequence[q]), bodies[k]);
                    if (!touches) continue;
                    bool seen = false;
                    for (size_t j = 0; j < count; j++) seen = seen || expected[j] == (uint32_t)v;
                    if (!seen) expected[count++] = (uint32_t)v;
                    break;
                }
            }
        }
        uint32_t b = c->flow_dep_start[u], e = c->flow_dep_start[u + 1u];
        cr_assert_eq(e - b, (uint32_t)count, "unit %zu: %u dependencies, expected %zu", u, e - b, count);
        for (size_t j = 0; j < count; j++) {
            bool found = false;
            for (uint32_t d = b; d < e; d++) found = found || c->flow_dep[d] == expected[j];
            cr_assert(found, "unit %zu does not wait for unit %u", u, expected[j]);
        }
    }
}

/* Every invariant of the sequential order: the islands (reference_islands)
 * in bins of consecutive islands (by first item) of at least
 * max(VX_ISLAND_BIN_MIN, n / VX_ISLAND_BINS) items but the last, in lanes
 * bin by bin (check_sequential_lanes), one parallel range; one serial range
 * when that makes one bin. */
static void check_sequential(const vx_solve_order *c, const graph *g)
{
    if (g->count == 0) {
        check_tiling(c, g);
        return;
    }
    size_t n = g->count;
    size_t *island = reference_islands(g);
    size_t bin_min = n / VX_ISLAND_BINS > VX_ISLAND_BIN_MIN ? n / VX_ISLAND_BINS : VX_ISLAND_BIN_MIN;
    /* the expected bin of each island (by its first item) */
    size_t *bin = calloc(n, sizeof *bin);
    cr_assert_not_null(bin);
    size_t bins = 0, filled = 0;
    for (size_t f = 0; f < n; f++) {
        if (island[f] != f) continue;
        size_t size = 0;
        for (size_t i = f; i < n; i++) size += island[i] == f ? 1u : 0u;
        bin[f] = bins;
        filled += size;
        if (filled >= bin_min) {
            bins++;
            filled = 0;
        }
    }
    if (filled > 0) bins++;
    check_tiling(c, g);
    if (bins < 2u) {
        check_wave_ranges(c, g);
        check_flow(c, g);
    } else {
        cr_assert_not(c->flow, "bins go to the threads whole, not as a flow");
        cr_assert_eq(c->range_count, 1u);
        cr_assert_not(c->ranges[0].serial, "several bins are one parallel range");
    }
    size_t *bin_of = calloc(n, sizeof *bin_of);
    cr_assert_not_null(bin_of);
    for (size_t i = 0; i < n; i++) bin_of[i] = bins < 2u ? 0u : bin[island[i]];
    check_sequential_lanes(c, g, bin_of, bins < 2u ? 1u : bins);
    free(bin_of);
    free(bin);
    free(island);
}

/* Separate groups (islands) of every size: they go to the threads in bins,
 * each island whole in one. */
Test(physics_colors, islands_of_the_sequential_order_go_to_bins_whole)
{
    graph g;
    graph_init(&g, 2000u, 1500u);
    g.moved[0] = false; /* the floor */
    vx_test_rng rng = {77u};
    uint32_t body = 1u;
    while (g.count + 40u < g.capacity && body + 20u < g.body_count) {
        /* a column of 1 .. 16 bodies on the floor */
        uint32_t height = 1u + vx_test_rng_next(&rng) % 16u;
        graph_add(&g, 0u, body);
        for (uint32_t k = 1; k < height; k++) graph_add(&g, body + k - 1u, body + k);
        body += height;
    }
    vx_solve_order c;
    colors_init(&c);
    cr_assert_eq(run_colors(&c, &g, false), VX_OK);
    cr_assert_gt(c.split_count, 2u, "%zu constraints in %zu bins", g.count, c.split_count);
    check_sequential(&c, &g);
    vx_solve_order_free(&c);
    graph_free(&g);
}

/* The level of the range holding position p. */
static uint32_t level_at(const vx_solve_order *c, size_t p)
{
    for (size_t r = 0; r < c->range_count; r++)
        if (c->unit_start[c->ranges[r].end] > p) return c->ranges[r].level;
    cr_assert_fail("position %zu is in no range", p);
    return 0;
}

static bool range_is_serial_at(const vx_solve_order *c, size_t p)
{
    for (size_t r = 0; r < c->range_count; r++)
        if (c->unit_start[c->ranges[r].end] > p) return c->ranges[r].serial;
    cr_assert_fail("position %zu is in no range", p);
    return false;
}

/* Units marked apart (solved side by side by the SIMD kernel) share no
 * moved body with the unit after them; the last unit is never marked. */
static void check_apart(const vx_solve_order *c, const graph *g)
{
    for (size_t u = 0; u < c->unit_count; u++) {
        if (!c->unit_apart[u]) continue;
        cr_assert_lt(u + 1u, c->unit_count, "the last unit is marked apart");
        for (size_t p = c->unit_start[u]; p < c->unit_start[u + 1u]; p++)
            for (size_t q = c->unit_start[u + 1u]; q < c->unit_start[u + 2u]; q++)
                cr_assert_not(share_moved_body(item_of(g, c->sequence[p]), item_of(g, c->sequence[q])),
                              "units %zu and %zu are marked apart but share a moved body", u, u + 1u);
    }
}

/* Both orders of g into fresh structures, checked. */
static void check_both(const graph *g)
{
    for (int colored = 0; colored < 2; colored++) {
        vx_solve_order c;
        colors_init(&c);
        cr_assert_eq(run_colors(&c, g, colored != 0), VX_OK);
        check_apart(&c, g);
        if (colored)
            check_colored(&c, g);
        else
            check_sequential(&c, g);
        vx_solve_order_free(&c);
    }
}

/* ---- hand-made graphs with known answers ---- */

Test(physics_colors, no_constraints_give_no_ranges)
{
    graph g;
    graph_init(&g, 5, 0);
    for (int colored = 0; colored < 2; colored++) {
        vx_solve_order c;
        colors_init(&c);
        cr_assert_eq(run_colors(&c, &g, colored != 0), VX_OK);
        cr_assert_eq(c.count, 0u);
        cr_assert_eq(c.range_count, 0u);
        cr_assert_eq(c.unit_count, 0u);
        /* and after a non-empty use, an empty one is empty again */
        graph one;
        graph_init(&one, 2, 1);
        one.moved[0] = false;
        graph_add(&one, 0, 1);
        cr_assert_eq(run_colors(&c, &one, colored != 0), VX_OK);
        cr_assert_eq(c.count, 1u);
        cr_assert_eq(run_colors(&c, &g, colored != 0), VX_OK);
        cr_assert_eq(c.count, 0u);
        cr_assert_eq(c.range_count, 0u);
        cr_assert_eq(c.unit_count, 0u);
        graph_free(&one);
        vx_solve_order_free(&c);
    }
    graph_free(&g);
}

/* ground (0, static) - 1 - 2 - ... - n: constraint k is at level k, alone. */
Test(physics_colors, chain_climbs_one_level_per_link)
{
    enum { N = 40 };
    graph g;
    graph_init(&g, N + 1, N);
    g.moved[0] = false;
    /* added top first, so the order must turn it round */
    for (uint32_t k = N; k >= 1; k--) graph_add(&g, k - 1u, k);
    check_both(&g);
    vx_solve_order c;
    colors_init(&c);
    cr_assert_eq(run_colors(&c, &g, true), VX_OK);
    cr_assert_eq(c.range_count, (size_t)N);
    for (size_t p = 0; p < N; p++) {
        /* position p holds the link from body p to p + 1 */
        cr_assert_eq(c.sequence[p], g.items[N - 1 - p].id, "position %zu", p);
        cr_assert_eq(c.ranges[p].level, (uint32_t)p);
        cr_assert(c.ranges[p].serial);
    }
    vx_solve_order_free(&c);
    graph_free(&g);
}

/* A stack of boxes with four constraints per touching pair (four contact
 * points): each level's four share both bodies, so each is its own colour,
 * all serial, merged into one range per level. */
Test(physics_colors, stack_with_four_points_per_pair_is_one_serial_range_per_level)
{
    enum { BOXES = 12, POINTS = 4 };
    graph g;
    graph_init(&g, BOXES + 1, BOXES * POINTS);
    g.moved[0] = false;
    for (uint32_t k = 1; k <= BOXES; k++)
        for (int p = 0; p < POINTS; p++) graph_add(&g, k - 1u, k);
    check_both(&g);
    vx_solve_order c;
    colors_init(&c);
    cr_assert_eq(run_colors(&c, &g, true), VX_OK);
    cr_assert_eq(c.range_count, (size_t)BOXES);
    for (size_t r = 0; r < BOXES; r++) {
        cr_assert(c.ranges[r].serial);
        cr_assert_eq(c.ranges[r].level, (uint32_t)r);
        /* four colours of one: four units of one position each */
        cr_assert_eq(c.ranges[r].end - c.ranges[r].begin, (uint32_t)POINTS);
    }
    /* the order within a level is the add order */
    for (size_t p = 0; p < c.count; p++) cr_assert_eq(c.sequence[p], g.items[p].id);
    vx_solve_order_free(&c);
    graph_free(&g);
}

/* 500 bodies resting on one static floor: one colour, one parallel range of
 * 125 full units, in add order. */
Test(physics_colors, bodies_on_a_floor_are_one_parallel_colour)
{
    enum { BODIES = 500 };
    graph g;
    graph_init(&g, BODIES + 1, BODIES);
    g.moved[BODIES] = false; /* the floor is the last slot */
    for (uint32_t k = 0; k < BODIES; k++) graph_add(&g, k, BODIES);
    check_both(&g);
    vx_solve_order c;
    colors_init(&c);
    cr_assert_eq(run_colors(&c, &g, true), VX_OK);
    cr_assert_eq(c.range_count, 1u);
    cr_assert(!c.ranges[0].serial);
    cr_assert_eq(c.ranges[0].level, 0u);
    cr_assert_eq(c.unit_count, (size_t)BODIES / VX_SOLVE_UNIT);
    for (size_t p = 0; p < BODIES; p++) cr_assert_eq(c.sequence[p], g.items[p].id);
    vx_solve_order_free(&c);
    graph_free(&g);
}


/* A row of 40 boxes on a floor, each touching the next: one island. In the
 * sequential order the 40 floor contacts (added first) are one wave, wide
 * enough for the threads: a parallel range of 10 units; each box-box
 * contact then waits for the one before (a chain of 39 waves of one):
 * one serial range after it, at a higher level. */
Test(physics_colors, sequential_wide_step_is_a_parallel_range_and_a_chain_one_serial_range)
{
    enum { BOXES = 40 };
    graph g;
    graph_init(&g, BOXES + 1, 2 * BOXES);
    g.moved[BOXES] = false; /* the floor */
    for (uint32_t k = 0; k < BOXES; k++) graph_add(&g, k, BOXES);
    for (uint32_t k = 0; k + 1u < BOXES; k++) graph_add(&g, k, k + 1u);
    check_both(&g);
    vx_solve_order c;
    colors_init(&c);
    cr_assert_eq(run_colors(&c, &g, false), VX_OK);
    cr_assert(c.lanes);
    cr_assert_eq(c.range_count, 2u);
    cr_assert_not(c.ranges[0].serial);
    cr_assert_eq(c.ranges[0].end - c.ranges[0].begin, (uint32_t)BOXES / VX_SOLVE_UNIT);
    cr_assert(c.ranges[1].serial);
    cr_assert_eq(c.ranges[1].end - c.ranges[1].begin, (uint32_t)BOXES - 1u, "a unit per link of the chain");
    cr_assert_gt(c.ranges[1].level, c.ranges[0].level);
    vx_solve_order_free(&c);
    graph_free(&g);
}

/* Below VX_WAVE_SPLIT_MIN_ITEMS constraints the one bin is one serial
 * range: the same row of boxes, at the default. */
Test(physics_colors, sequential_small_bin_is_one_serial_range)
{
    enum { BOXES = 40 };
    graph g;
    graph_init(&g, BOXES + 1, 2 * BOXES);
    g.moved[BOXES] = false;
    for (uint32_t k = 0; k < BOXES; k++) graph_add(&g, k, BOXES);
    for (uint32_t k = 0; k + 1u < BOXES; k++) graph_add(&g, k, k + 1u);
    vx_solve_order c;
    colors_init(&c);
    c.tuning.wave_split_min = VX_WAVE_SPLIT_MIN_ITEMS; /* the default */
    cr_assert_eq(run_colors(&c, &g, false), VX_OK);
    cr_assert(c.lanes);
    cr_assert_eq(c.range_count, 1u);
    cr_assert(c.ranges[0].serial);
    cr_assert_eq(c.unit_count, (size_t)BOXES / VX_SOLVE_UNIT + BOXES - 1u);
    vx_solve_order_free(&c);
    graph_free(&g);
}

/* Pairs touching nothing fixed, each its own island: all one colour. */
Test(physics_colors, floating_pairs_are_one_parallel_colour)
{
    enum { PAIRS = 100 };
    graph g;
    graph_init(&g, 2 * PAIRS, PAIRS);
    for (uint32_t k = 0; k < PAIRS; k++) graph_add(&g, 2u * k + 1u, 2u * k);
    check_both(&g);
    vx_solve_order c;
    colors_init(&c);
    cr_assert_eq(run_colors(&c, &g, true), VX_OK);
    cr_assert_eq(c.range_count, 1u);
    cr_assert(!c.ranges[0].serial);
    cr_assert_eq(c.unit_count, (size_t)PAIRS / VX_SOLVE_UNIT);
    vx_solve_order_free(&c);
    graph_free(&g);
}

/* HUBS moved hubs on a static floor, each with SPOKES moved bodies on it:
 * a level-1 constraint of a hub can take only colours no other constraint
 * of that hub took, so from the 33rd on they are leftovers. The leftovers
 * must land in serial ranges, the parallel ranges may hold at most one
 * constraint per hub, and every hub keeps all its constraints. */
Test(physics_colors, more_than_32_on_one_body_spill_into_a_serial_leftover)
{
    enum { HUBS = 40, SPOKES = 45 };
    size_t bodies = 1u + HUBS + (size_t)HUBS * SPOKES;
    graph g;
    graph_init(&g, bodies, HUBS + (size_t)HUBS * SPOKES);
    g.moved[0] = false;
    for (uint32_t h = 0; h < HUBS; h++) graph_add(&g, 1u + h, 0u);
    /* spokes interleaved between hubs so no hub's constraints are adjacent */
    for (uint32_t s = 0; s < SPOKES; s++)
        for (uint32_t h = 0; h < HUBS; h++) graph_add(&g, 1u + h, 1u + HUBS + h * SPOKES + s);
    check_both(&g);
    vx_solve_order c;
    colors_init(&c);
    cr_assert_eq(run_colors(&c, &g, true), VX_OK);
    size_t parallel_level1 = 0, serial_level1 = 0, level0 = 0;
    for (size_t p = 0; p < c.count; p++) {
        uint32_t l = level_at(&c, p);
        cr_assert_leq(l, 1u);
        if (l == 0)
            level0++;
        else if (range_is_serial_at(&c, p))
            serial_level1++;
        else
            parallel_level1++;
    }
    cr_assert_eq(level0, (size_t)HUBS);
    /* 32 colours of HUBS constraints each in parallel, the rest serial */
    cr_assert_eq(parallel_level1, (size_t)VX_LEVEL_COLORS * HUBS);
    cr_assert_eq(serial_level1, (size_t)(SPOKES - VX_LEVEL_COLORS) * HUBS);
    vx_solve_order_free(&c);
    graph_free(&g);
}

/* The smallest case of the above: one moved plate on the floor carrying 40
 * moved bodies. Its 40 level-1 constraints take colours 0..31, one each,
 * and 8 are left over; all are serial. The SIMD solver solves a unit's
 * constraints in lanes at once (contact_wide.h: lanes must not share a
 * moved body), so the leftovers, which all share the plate, must not be
 * packed together into units. */
Test(physics_colors, leftover_constraints_of_one_body_are_never_in_one_unit)
{
    enum { SPOKES = 40 };
    graph g;
    graph_init(&g, SPOKES + 2, SPOKES + 1);
    g.moved[0] = false; /* floor 0, plate 1, spokes 2.. */
    graph_add(&g, 1u, 0u);
    for (uint32_t s = 0; s < SPOKES; s++) graph_add(&g, 1u, 2u + s);
    vx_solve_order c;
    colors_init(&c);
    cr_assert_eq(run_colors(&c, &g, true), VX_OK);
    for (size_t u = 0; u < c.unit_count; u++)
        cr_expect_eq(c.unit_start[u + 1] - c.unit_start[u], 1u,
                     "unit %zu holds positions %u..%u, constraints that all push the plate", u, c.unit_start[u],
                     c.unit_start[u + 1] - 1u);
    check_colored(&c, &g);
    vx_solve_order_free(&c);
    graph_free(&g);
}

/* ---- random graphs ---- */

/* A random scene's graph: some static bodies, a few kinematic ones, chains,
 * stacks (several points per pair), dense clusters, floating pairs and
 * repeated pairs. Deterministic for a seed. */
static void random_graph(graph *g, uint32_t seed, size_t body_count, size_t items)
{
    vx_test_rng rng = {seed};
    graph_init(g, body_count, items);
    size_t statics = 1u + vx_test_rng_next(&rng) % 4u;
    for (size_t i = 0; i < statics && i < body_count; i++) g->moved[vx_test_rng_next(&rng) % body_count] = false;
    uint32_t n = (uint32_t)body_count;
    while (g->count < items) {
        uint32_t kind = vx_test_rng_next(&rng) % 5u;
        size_t room = items - g->count;
        uint32_t a = vx_test_rng_next(&rng) % n, b = vx_test_rng_next(&rng) % n;
        if (kind == 0) { /* a chain of up to 12 links */
            uint32_t len = 1u + vx_test_rng_next(&rng) % 12u;
            for (uint32_t k = 0; k < len && g->count < items; k++) {
                b = vx_test_rng_next(&rng) % n;
                if (a != b && (g->moved[a] || g->moved[b])) graph_add(g, a, b);
                a = b;
            }
        } else if (kind == 1) { /* a pair with up to 4 points */
            uint32_t pts = 1u + vx_test_rng_next(&rng) % 4u;
            for (uint32_t k = 0; k < pts && room > 0 && a != b && (g->moved[a] || g->moved[b]); k++, room--)
                graph_add(g, a, b);
        } else if (kind == 2) { /* a dense cluster among up to 8 nearby bodies */
            uint32_t base = a, width = 2u + vx_test_rng_next(&rng) % 7u;
            for (uint32_t k = 0; k < 2u * width && g->count < items; k++) {
                uint32_t x = (base + vx_test_rng_next(&rng) % width) % n;
                uint32_t y = (base + vx_test_rng_next(&rng) % width) % n;
                if (x != y && (g->moved[x] || g->moved[y])) graph_add(g, x, y);
            }
        } else { /* a single random constraint, in either direction */
            if (a != b && (g->moved[a] || g->moved[b])) graph_add(g, a, b);
        }
    }
}

Test(physics_colors, random_graphs_keep_every_invariant)
{
    for (uint32_t seed = 1; seed <= 150; seed++) {
        vx_test_rng rng = {seed * 2654435761u};
        size_t bodies = 2u + vx_test_rng_next(&rng) % 300u;
        size_t items = vx_test_rng_next(&rng) % 1200u;
        graph g;
        random_graph(&g, seed, bodies, items);
        check_both(&g);
        graph_free(&g);
    }
}

/* Few bodies and many constraints: levels with more than 32 colours. */
Test(physics_colors, crowded_random_graphs_keep_every_invariant)
{
    for (uint32_t seed = 500; seed < 530; seed++) {
        graph g;
        random_graph(&g, seed, 12u + seed % 20u, 2000u);
        check_both(&g);
        graph_free(&g);
    }
}

static void assert_same_result(const vx_solve_order *x, const vx_solve_order *y, const char *what)
{
    cr_assert_eq(x->count, y->count, "%s: count", what);
    cr_assert_eq(x->range_count, y->range_count, "%s: ranges", what);
    cr_assert_eq(x->unit_count, y->unit_count, "%s: units", what);
    if (x->count == 0) return;
    cr_assert(memcmp(x->sequence, y->sequence, x->count * sizeof *x->sequence) == 0, "%s: order", what);
    for (size_t r = 0; r < x->range_count; r++) {
        cr_assert_eq(x->ranges[r].begin, y->ranges[r].begin, "%s: range %zu", what, r);
        cr_assert_eq(x->ranges[r].end, y->ranges[r].end, "%s: range %zu", what, r);
        cr_assert_eq(x->ranges[r].serial, y->ranges[r].serial, "%s: range %zu", what, r);
        cr_assert_eq(x->ranges[r].level, y->ranges[r].level, "%s: range %zu", what, r);
    }
    cr_assert(memcmp(x->unit_start, y->unit_start, (x->unit_count + 1u) * sizeof *x->unit_start) == 0, "%s: units",
              what);
}

Test(physics_colors, same_input_gives_the_same_order)
{
    for (uint32_t seed = 900; seed < 940; seed++) {
        graph g;
        random_graph(&g, seed, 150u, 700u);
        for (int colored = 0; colored < 2; colored++) {
            vx_solve_order x, y;
            colors_init(&x);
            colors_init(&y);
            cr_assert_eq(run_colors(&x, &g, colored != 0), VX_OK);
            cr_assert_eq(run_colors(&y, &g, colored != 0), VX_OK);
            assert_same_result(&x, &y, "two fresh runs");
            /* and again in x, now with x's buffers full of the first run */
            cr_assert_eq(run_colors(&x, &g, colored != 0), VX_OK);
            assert_same_result(&x, &y, "a rerun");
            vx_solve_order_free(&x);
            vx_solve_order_free(&y);
        }
        graph_free(&g);
    }
}

/* One vx_solve_order through graphs of every size, as a wave uses it:
 * big, then small (fewer bodies, fewer items), then big again, in both
 * orders in turn. Each result equals that of a fresh structure. */
Test(physics_colors, reuse_across_sizes_leaks_no_stale_state)
{
    vx_solve_order reused;
    colors_init(&reused);
    const size_t sizes[][2] = {{400, 1500}, {10, 30}, {3, 2}, {250, 900}, {2, 0}, {60, 200}, {500, 40}, {30, 800},
                               {400, 1500}, {5, 12}};
    for (int round = 0; round < 2; round++) {
        for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
            graph g;
            random_graph(&g, 7000u + (uint32_t)k * 31u + (uint32_t)round, sizes[k][0], sizes[k][1]);
            bool colored = ((k + (size_t)round) % 3u) != 0;
            vx_solve_order fresh;
            colors_init(&fresh);
            cr_assert_eq(run_colors(&fresh, &g, colored), VX_OK);
            cr_assert_eq(run_colors(&reused, &g, colored), VX_OK);
            assert_same_result(&reused, &fresh, colored ? "coloured, reused" : "sequential, reused");
            if (colored)
                check_colored(&reused, &g);
            else
                check_sequential(&reused, &g);
            vx_solve_order_free(&fresh);
            graph_free(&g);
        }
    }
    vx_solve_order_free(&reused);
}

/* The same items as the call before keep its order (a settled pile has the
 * same pairs every wave); any change of an item, of their number or of the
 * kind of order computes it again, equal to a fresh structure's. */
Test(physics_colors, unchanged_items_keep_the_order_and_any_change_recomputes)
{
    for (uint32_t seed = 1200; seed < 1210; seed++) {
        graph g;
        random_graph(&g, seed, 120u, 500u);
        cr_assert_gt(g.count, 10u);
        for (int colored = 0; colored < 2; colored++) {
            vx_solve_order c;
            colors_init(&c);
            cr_assert_eq(run_colors(&c, &g, colored != 0), VX_OK);
            cr_assert_not(c.kept, "a first call has nothing to keep");
            cr_assert_eq(run_colors(&c, &g, colored != 0), VX_OK);
            cr_assert(c.kept, "the same items keep the order");
            for (int change = 0; change < 6; change++) {
                graph h = g;
                h.items = malloc(g.capacity * sizeof *g.items);
                cr_assert_not_null(h.items);
                memcpy(h.items, g.items, g.count * sizeof *g.items);
                size_t k = g.count / 2u;
                bool flip = colored != 0;
                switch (change) {
                case 0: h.items[k].b = (h.items[k].b + 1u) % (uint32_t)g.body_count; break;
                case 1: h.items[k].a = (h.items[k].a + 7u) % (uint32_t)g.body_count; break;
                case 2: /* a static body starts moving (a kinematic switched to dynamic) */
                    h.moved = malloc(g.body_count * sizeof *g.moved);
                    cr_assert_not_null(h.moved);
                    memcpy(h.moved, g.moved, g.body_count * sizeof *g.moved);
                    for (size_t i = 0; i < h.count; i++)
                        if (!h.moved[h.items[i].a]) {
                            h.moved[h.items[i].a] = true;
                            break;
                        }
                    for (size_t i = 0; i < h.count; i++) {
                        h.items[i].moved_a = h.moved[h.items[i].a];
                        h.items[i].moved_b = h.moved[h.items[i].b];
                    }
                    break;
                case 3: h.count--; break;
                case 4: h.items[h.count - 1u].id += 5u; break;
                default: flip = !flip; break;
                }
                /* item k stays a pair of two bodies, at least one moved */
                item *it = &h.items[k];
                while (it->a == it->b || !(h.moved[it->a] || h.moved[it->b]))
                    it->b = (it->b + 1u) % (uint32_t)g.body_count;
                it->moved_a = h.moved[it->a];
                it->moved_b = h.moved[it->b];
                vx_solve_order fresh;
                colors_init(&fresh);
                cr_assert_eq(run_colors(&fresh, &h, flip), VX_OK);
                cr_assert_eq(run_colors(&c, &h, flip), VX_OK);
                cr_assert_not(c.kept, "change %d must compute the order again", change);
                assert_same_result(&c, &fresh, "after a change");
                if (flip)
                    check_colored(&c, &h);
                else
                    check_sequential(&c, &h);
                /* and back to g: computed again, equal to g's fresh order */
                cr_assert_eq(run_colors(&c, &g, colored != 0), VX_OK);
                cr_assert_not(c.kept);
                vx_solve_order_free(&fresh);
                colors_init(&fresh);
                cr_assert_eq(run_colors(&fresh, &g, colored != 0), VX_OK);
                assert_same_result(&c, &fresh, "back to the first items");
                vx_solve_order_free(&fresh);
                if (h.moved != g.moved) free(h.moved);
                free(h.items);
            }
            vx_solve_order_free(&c);
        }
        graph_free(&g);
    }
}
