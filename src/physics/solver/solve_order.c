/* Depth levels and greedy colours of the contact constraints
 * (solve_order.h). */
#include "physics/solver/solve_order.h"

#include <stdlib.h>
#include <string.h>

#include "common/array.h"
#include "common/assert.h"
#include "common/union_find.h"

#define NONE UINT32_MAX
#define LEFTOVER VX_LEVEL_COLORS /* the colour of a level's items that found none free */

vx_solve_order_tuning vx_solve_order_tuning_default(void)
{
    vx_solve_order_tuning t = {true, VX_ISLAND_BIN_MIN, VX_WAVE_SPLIT_MIN_ITEMS, VX_FLOW_MIN_ITEMS};
    return t;
}

void vx_solve_order_init(vx_solve_order *c)
{
    memset(c, 0, sizeof *c);
    c->tuning = vx_solve_order_tuning_default();
}

void vx_solve_order_free(vx_solve_order *c)
{
    free(c->sequence);
    free(c->ranges);
    free(c->unit_start);
    free(c->split_unit);
    free(c->unit_rank);
    free(c->unit_apart);
    free(c->flow_dep_start);
    free(c->flow_dep);
    free(c->ids);
    free(c->a);
    free(c->b);
    free(c->moved);
    free(c->color);
    free(c->by_level);
    free(c->next);
    free(c->depth);
    free(c->head);
    free(c->queue);
    free(c->mask);
    free(c->stamp);
    free(c->cursor);
    vx_solve_order_tuning tuning = c->tuning;
    vx_solve_order_init(c);
    c->tuning = tuning;
}

vx_status vx_solve_order_begin(vx_solve_order *c, size_t max_items, size_t body_count)
{
    size_t cap;
    vx_status st = VX_OK;
    c->same = c->last_valid; /* the last call's result stands until an item differs */
    c->last_count = c->count;
    c->last_ranges = c->range_count;
    c->last_units = c->unit_count;
    c->last_valid = false; /* until the next end succeeds */
    c->count = 0;
    c->range_count = 0;
    c->unit_count = 0;
    if (max_items > c->capacity) {
        st = vx_grow_capacity(c->capacity, max_items, 64u, 2u * sizeof *c->next, &cap);
        VX_GROW_ARRAY(st, c->sequence, cap);
        VX_GROW_ARRAY(st, c->ids, cap);
        VX_GROW_ARRAY(st, c->a, cap);
        VX_GROW_ARRAY(st, c->b, cap);
        VX_GROW_ARRAY(st, c->moved, cap);
        VX_GROW_ARRAY(st, c->color, cap);
        VX_GROW_ARRAY(st, c->by_level, cap);
        VX_GROW_ARRAY(st, c->next, 2u * cap);
        if (st == VX_OK) c->capacity = cap;
    }
    if (st == VX_OK && max_items + 1u > c->unit_capacity) {
        st = vx_grow_capacity(c->unit_capacity, max_items + 1u, 64u, sizeof *c->unit_start, &cap);
        VX_GROW_ARRAY(st, c->unit_start, cap);
        VX_GROW_ARRAY(st, c->split_unit, cap);
        VX_GROW_ARRAY(st, c->unit_rank, cap);
        VX_GROW_ARRAY(st, c->unit_apart, cap);
        VX_GROW_ARRAY(st, c->flow_dep_start, cap);
        if (st == VX_OK) c->unit_capacity = cap;
    }
    /* a unit's dependencies: at most its items' two bodies each */
    if (st == VX_OK && 2u * max_items > c->flow_dep_capacity) {
        st = vx_grow_capacity(c->flow_dep_capacity, 2u * max_items, 64u, sizeof *c->flow_dep, &cap);
        VX_GROW_ARRAY(st, c->flow_dep, cap);
        if (st == VX_OK) c->flow_dep_capacity = cap;
    }
    if (st == VX_OK && body_count > c->body_capacity) {
        st = vx_grow_capacity(c->body_capacity, body_count, 64u, sizeof *c->mask, &cap);
        VX_GROW_ARRAY(st, c->depth, cap);
        VX_GROW_ARRAY(st, c->head, cap);
        VX_GROW_ARRAY(st, c->queue, cap);
        VX_GROW_ARRAY(st, c->mask, cap);
        VX_GROW_ARRAY(st, c->stamp, cap);
        if (st == VX_OK) c->body_capacity = cap;
    }
    if (st != VX_OK) return st;
    for (size_t i = 0; i < body_count; i++) {
        c->head[i] = NONE;
        c->depth[i] = NONE;
        c->stamp[i] = 0u; /* levels stamp l + 1 */
    }
    return VX_OK;
}

void vx_solve_order_add(vx_solve_order *c, uint32_t item, uint32_t a, bool moved_a, uint32_t b, bool moved_b)
{
    uint32_t i = (uint32_t)c->count++;
    VX_ASSERT(c->count <= c->capacity);
    uint8_t moved = (uint8_t)((moved_a ? 1u : 0u) | (moved_b ? 2u : 0u));
    if (c->same && (i >= c->last_count || c->ids[i] != item || c->a[i] != a || c->b[i] != b || c->moved[i] != moved))
        c->same = false;
    c->ids[i] = item;
    c->a[i] = a;
    c->b[i] = b;
    c->moved[i] = moved;
    /* adjacency of the moved bodies: link 2i is a's, 2i + 1 is b's */
    if (moved_a) {
        c->next[2u * i] = c->head[a];
        c->head[a] = 2u * i;
    }
    if (moved_b) {
        c->next[2u * i + 1u] = c->head[b];
        c->head[b] = 2u * i + 1u;
    }
}

/* Breadth first from the queue's bodies (depth set), over moved bodies. */
static void spread_depth(vx_solve_order *c, size_t qhead, size_t qtail)
{
    while (qhead < qtail) {
        uint32_t u = c->queue[qhead++];
        for (uint32_t link = c->head[u]; link != NONE; link = c->next[link]) {
            uint32_t i = link >> 1;
            if (c->moved[i] != 3u) continue;
            uint32_t v = (link & 1u) ? c->a[i] : c->b[i];
            if (c->depth[v] != NONE) continue;
            c->depth[v] = c->depth[u] + 1u;
            c->queue[qtail++] = v;
        }
    }
}

static void find_depths(vx_solve_order *c)
{
    size_t tail = 0;
    /* depth 1: moved bodies touching one that is not moved */
    for (size_t i = 0; i < c->count; i++) {
        if (c->moved[i] == 3u) continue;
        uint32_t v = (c->moved[i] & 1u) ? c->a[i] : c->b[i];
        if (c->depth[v] != NONE) continue;
        c->depth[v] = 1u;
        c->queue[tail++] = v;
    }
    spread_depth(c, 0, tail);
    /* clusters touching nothing fixed: from their first body in item order */
    for (size_t i = 0; i < c->count; i++) {
        if (c->moved[i] != 3u || c->depth[c->a[i]] != NONE) continue;
        c->depth[c->a[i]] = 1u;
        c->queue[0] = c->a[i];
        spread_depth(c, 0, 1);
    }
}

static uint32_t level_of(const vx_solve_order *c, size_t i)
{
    if (c->moved[i] != 3u) return 0u;
    uint32_t da = c->depth[c->a[i]], db = c->depth[c->b[i]];
    return da < db ? da : db;
}

static vx_status reserve_cursor(vx_solve_order *c, size_t n)
{
    if (n <= c->cursor_capacity) return VX_OK;
    size_t cap;
    vx_status st = vx_grow_capacity(c->cursor_capacity, n, 64u, sizeof *c->cursor, &cap);
    VX_GROW_ARRAY(st, c->cursor, cap);
    if (st == VX_OK) c->cursor_capacity = cap;
    return st;
}

/* Positions [begin, end) of one colour (or the whole sequential order) as
 * a range of new units of unit_size positions (1 for a level's leftovers,
 * which may share bodies: one per unit, one after the other); a serial range
 * right after a serial range of the same level joins it. */
/* Units [first_unit, end_unit) as a range; a serial range right after a
 * serial range of the same level joins it. */
static vx_status push_range(vx_solve_order *c, uint32_t first_unit, uint32_t end_unit, bool serial, uint32_t level)
{
    if (serial && c->range_count > 0 && c->ranges[c->range_count - 1].serial &&
        c->ranges[c->range_count - 1].end == first_unit && c->ranges[c->range_count - 1].level == level) {
        c->ranges[c->range_count - 1].end = end_unit;
        return VX_OK;
    }
    if (c->range_count == c->range_capacity) {
        size_t cap;
        vx_status st = vx_grow_capacity(c->range_capacity, c->range_count + 1u, 16u, sizeof *c->ranges, &cap);
        VX_GROW_ARRAY(st, c->ranges, cap);
        if (st != VX_OK) return st;
        c->range_capacity = cap;
    }
    vx_solve_range r = {first_unit, end_unit, serial, level};
    c->ranges[c->range_count++] = r;
    return VX_OK;
}

static vx_status add_range(vx_solve_order *c, uint32_t begin, uint32_t end, bool serial, uint32_t level,
                           uint32_t unit_size)
{
    if (end <= begin) return VX_OK;
    uint32_t first_unit = (uint32_t)c->unit_count;
    for (uint32_t p = begin; p < end; p += unit_size) {
        /* a colour's units share no moved body; a leftover's may */
        c->unit_apart[c->unit_count] = unit_size == VX_SOLVE_UNIT && p + unit_size < end;
        c->unit_start[c->unit_count++] = p;
    }
    c->unit_start[c->unit_count] = end;
    return push_range(c, first_unit, (uint32_t)c->unit_count, serial, level);
}

static unsigned first_free(uint64_t used)
{
    for (unsigned k = 0; k < VX_LEVEL_COLORS; k++)
        if (!(used >> k & 1u)) return k;
    return LEFTOVER;
}

/* The order of add as one serial range (units of VX_SOLVE_UNIT positions
 * that may share bodies: not lanes); only with tuning.lanes off. */
static vx_status order_of_add(vx_solve_order *c)
{
    for (size_t i = 0; i < c->count; i++) c->sequence[i] = c->ids[i];
    c->lanes = false;
    vx_status st = add_range(c, 0u, (uint32_t)c->count, true, 0u, VX_SOLVE_UNIT);
    if (st != VX_OK) c->count = 0;
    for (size_t u = 0; u < c->unit_count; u++) c->unit_apart[u] = 0; /* its units may share bodies */
    return st;
}

/* The first split (a bin's first unit) starting at or after position p. */
static uint32_t split_at(const vx_solve_order *c, size_t p)
{
    size_t lo = 0, hi = c->split_count;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2u;
        if (c->unit_start[c->split_unit[mid]] < p)
            lo = mid + 1u;
        else
            hi = mid;
    }
    return c->split_unit[lo];
}

void vx_solve_order_split(const vx_solve_order *c, size_t first, size_t last, size_t *b, size_t *e)
{
    *b = split_at(c, first);
    *e = split_at(c, last);
}

/* Item i's moved body on side k (0: a, 1: b), or NONE. */
static uint32_t moved_body(const vx_solve_order *c, uint32_t i, int k)
{
    if (!(c->moved[i] & (1u << k))) return NONE;
    return k == 0 ? c->a[i] : c->b[i];
}

/* The flow's per-unit data of one bin in lanes (order holds item indices):
 * unit_rank and, per unit, the last unit before it to touch each of its
 * moved bodies. A first sweep finds each body's last unit of a pass (what
 * a pass's first unit of that body waits for); the second walks the pass. */
static void flow_deps(vx_solve_order *c)
{
    uint32_t *last = c->depth; /* per moved body: its latest unit */
    for (size_t p = 0; p < c->count; p++)
        for (int k = 0; k < 2; k++) {
            uint32_t x = moved_body(c, c->sequence[p], k);
            if (x != NONE) last[x] = NONE;
        }
    for (uint32_t u = 0; u < (uint32_t)c->unit_count; u++)
        for (uint32_t p = c->unit_start[u]; p < c->unit_start[u + 1u]; p++)
            for (int k = 0; k < 2; k++) {
                uint32_t x = moved_body(c, c->sequence[p], k);
                if (x != NONE) last[x] = u;
            }
    uint32_t deps = 0;
    for (uint32_t u = 0; u < (uint32_t)c->unit_count; u++) {
        c->flow_dep_start[u] = deps;
        c->unit_rank[u] = c->sequence[c->unit_start[u]]; /* a wave's items go in the order of add */
        for (uint32_t p = c->unit_start[u]; p < c->unit_start[u + 1u]; p++)
            for (int k = 0; k < 2; k++) {
                uint32_t x = moved_body(c, c->sequence[p], k);
                if (x == NONE) continue;
                uint32_t d = last[x];
                last[x] = u;
                if (d == u) continue; /* the body's only unit */
                bool seen = false;
                for (uint32_t j = c->flow_dep_start[u]; j < deps; j++) seen = seen || c->flow_dep[j] == d;
                if (!seen) c->flow_dep[deps++] = d;
            }
    }
    c->flow_dep_start[c->unit_count] = deps;
    c->flow = true;
}

/* One bin in lanes: a range per wave wide enough to split between the
 * threads (each its own level: the sweeps reverse ranges only within a
 * level), the waves between them in serial ranges, so the order of the
 * waves, and the results, are the same for any number of threads. order
 * still holds item indices. */
static vx_status wave_ranges(vx_solve_order *c, const uint32_t *wave)
{
    uint32_t level = 0;
    bool last_serial = false;
    for (uint32_t u = 0; u < (uint32_t)c->unit_count;) {
        uint32_t s = wave[c->sequence[c->unit_start[u]]], e = u + 1u;
        while (e < (uint32_t)c->unit_count && wave[c->sequence[c->unit_start[e]]] == s) e++;
        bool serial = c->unit_start[e] - c->unit_start[u] < VX_WAVE_MIN_PARALLEL;
        if (!(serial && last_serial)) level++; /* serial waves in a row join one range */
        vx_status st = push_range(c, u, e, serial, level);
        if (st != VX_OK) return st;
        last_serial = serial;
        u = e;
    }
    return VX_OK;
}

/* The sequential order with the results of the order of add, in lanes.
 * bin[i] (NULL: all 0) is item i's bin, bins share no moved body and go in
 * turn. An item's wave is one more than the highest wave of the items
 * before it that share a moved body with it; a bin's items go by wave (in
 * the order of add within a wave), in units of up to VX_SOLVE_UNIT items of
 * one wave. Items of one wave share no moved body, and every item still
 * comes after the items before it that share its bodies, so solving a
 * unit's items side by side in SIMD lanes gives the results of the order of
 * add bit for bit. A pyramid of 20 boxes a side is 590 items in 111 waves:
 * 77 % of the lanes filled. One bin is a range per wide wave and serial
 * ranges between (wave_ranges), or one serial range when it is small; more
 * are one parallel range that the threads split only where a bin starts. */
static vx_status in_lanes(vx_solve_order *c, const uint32_t *bin, uint32_t bins)
{
    size_t n = c->count;
    /* scratch: the adjacency links, which the sequential order never reads */
    uint32_t *by_wave = c->next, *wave = c->next + n;
    uint32_t *last = c->depth; /* per moved body: the wave after its latest item */
    for (size_t i = 0; i < n; i++) last[c->a[i]] = last[c->b[i]] = 0u;
    uint32_t waves = 0;
    for (size_t i = 0; i < n; i++) {
        uint32_t s = 0u;
        if (c->moved[i] & 1u) s = last[c->a[i]];
        if ((c->moved[i] & 2u) && last[c->b[i]] > s) s = last[c->b[i]];
        wave[i] = s;
        if (c->moved[i] & 1u) last[c->a[i]] = s + 1u;
        if (c->moved[i] & 2u) last[c->b[i]] = s + 1u;
        if (s + 1u > waves) waves = s + 1u;
    }
    vx_status st = reserve_cursor(c, (size_t)(waves > bins ? waves : bins) + 1u);
    if (st != VX_OK) {
        c->count = 0;
        return st;
    }
    /* counting sorts, stable: by wave, then by bin; order holds item
     * indices until the units are cut */
    memset(c->cursor, 0, ((size_t)waves + 1u) * sizeof *c->cursor);
    for (size_t i = 0; i < n; i++) c->cursor[wave[i] + 1u]++;
    for (uint32_t s = 1; s <= waves; s++) c->cursor[s] += c->cursor[s - 1u];
    for (size_t i = 0; i < n; i++) by_wave[c->cursor[wave[i]]++] = (uint32_t)i;
    memset(c->cursor, 0, ((size_t)bins + 1u) * sizeof *c->cursor);
    for (size_t i = 0; i < n; i++) c->cursor[(bin ? bin[i] : 0u) + 1u]++;
    for (uint32_t k = 1; k <= bins; k++) c->cursor[k] += c->cursor[k - 1u];
    for (size_t p = 0; p < n; p++) {
        uint32_t i = by_wave[p];
        c->sequence[c->cursor[bin ? bin[i] : 0u]++] = i;
    }
    /* units: a new one at a bin's start, a wave's start or after VX_SOLVE_UNIT */
    size_t unit_first = 0;
    c->split_count = 0;
    for (size_t p = 0; p < n; p++) {
        uint32_t i = c->sequence[p], f = c->sequence[unit_first];
        bool new_bin = p == 0 || (bin && bin[i] != bin[c->sequence[p - 1u]]);
        if (new_bin || wave[i] != wave[f] || p - unit_first == VX_SOLVE_UNIT) {
            if (new_bin && bins > 1u) c->split_unit[c->split_count++] = (uint32_t)c->unit_count;
            c->unit_start[c->unit_count++] = (uint32_t)p;
            unit_first = p;
        }
    }
    c->unit_start[c->unit_count] = (uint32_t)n;
    if (bins > 1u) c->split_unit[c->split_count] = (uint32_t)c->unit_count; /* the end */
    for (size_t u = 0; u + 1u < c->unit_count; u++) {
        uint32_t i = c->sequence[c->unit_start[u]], j = c->sequence[c->unit_start[u + 1u]];
        c->unit_apart[u] = wave[i] == wave[j] || (bin && bin[i] != bin[j]);
    }
    if (c->unit_count > 0) c->unit_apart[c->unit_count - 1u] = 0;
    c->lanes = true;
    if (bins > 1u)
        st = push_range(c, 0u, (uint32_t)c->unit_count, false, 0u);
    else if (n < c->tuning.wave_split_min)
        st = push_range(c, 0u, (uint32_t)c->unit_count, true, 0u);
    else
        st = wave_ranges(c, wave);
    if (st == VX_OK && bins == 1u && n >= c->tuning.flow_min) flow_deps(c);
    for (size_t p = 0; p < n; p++) c->sequence[p] = c->ids[c->sequence[p]];
    if (st != VX_OK) {
        c->count = 0;
        c->unit_count = 0;
        c->split_count = 0;
    }
    return st;
}

/* The sequential order split into islands: items that share a moved body,
 * directly or through others, are one island, and no two islands share a
 * body the solver moves, so the threads may solve islands apart. Islands
 * are gathered, in the order of their first items, into bins of at least
 * VX_ISLAND_BIN_MIN items (and of n / VX_ISLAND_BINS), all in one parallel
 * range that the threads split only between bins; a bin's items go in lanes
 * (in_lanes), which interleaves its islands (one island's items in a row
 * would each wait for the one before: a sphere column solved alone ran 30 %
 * slower). Every item still comes after the items before it that share its
 * bodies, so the results are those of the order of add bit for bit. One
 * bin: one serial range. */
static vx_status sequential_islands(vx_solve_order *c)
{
    if (!c->tuning.lanes) return order_of_add(c);
    size_t n = c->count;
    uint32_t *parent = c->queue; /* per body: its island's union-find parent */
    for (size_t i = 0; i < n; i++) {
        parent[c->a[i]] = c->a[i];
        parent[c->b[i]] = c->b[i];
    }
    for (size_t i = 0; i < n; i++) {
        if (c->moved[i] != 3u) continue;
        vx_union_find_join(parent, c->a[i], c->b[i]);
    }
    /* islands numbered by first item (stamp: number + 1 per root); the
     * items' islands in by_level, the islands' sizes in cursor[1 ..] */
    uint32_t islands = 0;
    for (size_t i = 0; i < n; i++) {
        uint32_t r = vx_union_find_root(parent, (c->moved[i] & 1u) ? c->a[i] : c->b[i]);
        if (c->stamp[r] == 0u) {
            if (reserve_cursor(c, (size_t)islands + 2u) != VX_OK) {
                c->count = 0;
                return VX_ERR_NOMEM;
            }
            c->stamp[r] = ++islands;
            c->cursor[islands] = 0u;
        }
        c->by_level[i] = c->stamp[r] - 1u;
        c->cursor[c->stamp[r]]++;
    }
    /* bins of consecutive islands: cursor[k + 1] becomes island k's bin */
    size_t bin_min = n / VX_ISLAND_BINS > c->tuning.island_bin_min ? n / VX_ISLAND_BINS : c->tuning.island_bin_min;
    uint32_t bins = 0;
    size_t filled = 0;
    for (uint32_t k = 0; k < islands; k++) {
        filled += c->cursor[k + 1u];
        c->cursor[k + 1u] = bins;
        if (filled >= bin_min) {
            bins++;
            filled = 0;
        }
    }
    if (filled > 0) bins++;
    if (bins < 2u) return in_lanes(c, NULL, 1u);
    for (size_t i = 0; i < n; i++) c->by_level[i] = c->cursor[c->by_level[i] + 1u];
    return in_lanes(c, c->by_level, bins);
}

static vx_status order_items(vx_solve_order *c, bool colored);

static bool same_tuning(const vx_solve_order_tuning *a, const vx_solve_order_tuning *b)
{
    return a->lanes == b->lanes && a->island_bin_min == b->island_bin_min && a->wave_split_min == b->wave_split_min &&
           a->flow_min == b->flow_min;
}

vx_status vx_solve_order_end(vx_solve_order *c, bool colored)
{
    if (c->same && c->count == c->last_count && colored == c->last_colored &&
        same_tuning(&c->tuning, &c->last_tuning)) {
        c->range_count = c->last_ranges; /* order, ranges and units are the last call's */
        c->unit_count = c->last_units;
        c->last_valid = true;
        c->kept = true;
        return VX_OK;
    }
    c->kept = false;
    c->version++;
    vx_status st = order_items(c, colored);
    VX_ASSERT(st != VX_OK || c->count == 0 || (c->unit_start[c->unit_count] == c->count &&
                                               c->ranges[c->range_count - 1u].end == c->unit_count));
    c->last_valid = st == VX_OK;
    c->last_colored = colored;
    c->last_tuning = c->tuning;
    return st;
}

static vx_status order_items(vx_solve_order *c, bool colored)
{
    size_t n = c->count;
    c->split_count = 0;
    c->flow = false;
    if (n == 0) return VX_OK;
    if (!colored) return sequential_islands(c);
    c->lanes = true;
    find_depths(c);
    /* the items by level (counting sort, stable) */
    uint32_t max_level = 0;
    for (size_t i = 0; i < n; i++) {
        uint32_t l = level_of(c, i);
        if (l > max_level) max_level = l;
    }
    vx_status st = reserve_cursor(c, (size_t)max_level + 2u);
    if (st != VX_OK) {
        c->count = 0;
        return st;
    }
    memset(c->cursor, 0, ((size_t)max_level + 2u) * sizeof *c->cursor);
    for (size_t i = 0; i < n; i++) c->cursor[level_of(c, i) + 1u]++;
    for (size_t l = 1; l <= (size_t)max_level + 1u; l++) c->cursor[l] += c->cursor[l - 1];
    uint32_t *by_level = c->by_level;
    for (size_t i = 0; i < n; i++) by_level[c->cursor[level_of(c, i)]++] = (uint32_t)i;
    /* now cursor[l] is the end of level l; its start is cursor[l - 1] (0) */

    /* per level: greedy colours, then the level's items by colour into order */
    uint32_t begin = 0;
    for (uint32_t l = 0; l <= max_level; l++) {
        uint32_t end = c->cursor[l];
        uint32_t counts[VX_LEVEL_COLORS + 1];
        memset(counts, 0, sizeof counts);
        uint8_t *color = c->color;
        for (uint32_t p = begin; p < end; p++) {
            uint32_t i = by_level[p];
            uint32_t a = c->a[i], b = c->b[i];
            bool ma = (c->moved[i] & 1u) != 0, mb = (c->moved[i] & 2u) != 0;
            if (ma && c->stamp[a] != l + 1u) {
                c->stamp[a] = l + 1u;
                c->mask[a] = 0u;
            }
            if (mb && c->stamp[b] != l + 1u) {
                c->stamp[b] = l + 1u;
                c->mask[b] = 0u;
            }
            unsigned k = first_free((ma ? c->mask[a] : 0u) | (mb ? c->mask[b] : 0u));
            if (k < LEFTOVER) {
                if (ma) c->mask[a] |= (uint64_t)1u << k;
                if (mb) c->mask[b] |= (uint64_t)1u << k;
            }
            color[i] = (uint8_t)k;
            counts[k]++;
        }
        uint32_t starts[VX_LEVEL_COLORS + 1];
        uint32_t sum = begin;
        for (unsigned k = 0; k <= LEFTOVER; k++) {
            starts[k] = sum;
            sum += counts[k];
        }
        for (unsigned k = 0; k <= LEFTOVER; k++) {
            st = add_range(c, starts[k], starts[k] + counts[k], k == LEFTOVER || counts[k] < VX_COLOR_MIN_PARALLEL, l,
                           k == LEFTOVER ? 1u : VX_SOLVE_UNIT);
            if (st != VX_OK) {
                c->count = 0;
                c->range_count = 0;
                return st;
            }
        }
        for (uint32_t p = begin; p < end; p++) {
            uint32_t i = by_level[p];
            c->sequence[starts[color[i]]++] = c->ids[i];
        }
        begin = end;
    }
    return VX_OK;
}
