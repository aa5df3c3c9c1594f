/* The broad-phase interface and its two kinds (broadphase.h). The dynamic
 * tree kind keeps last call's pairs that name no changed id, re-queries the
 * changed ids, and merges the radix-sorted new pairs in. The queries and the
 * tight filter are split between bp->pool's threads by index; the pairs are
 * the same for any split. See docs/simulation.md, "Broad phase". */
#include "physics/collision/broadphase.h"

#include <stdlib.h>
#include <string.h>

#include "common/array.h"
#include "common/assert.h"
#include "common/parallel.h"

#define SLOT_PRESENT 1u
#define SLOT_STATIC 2u
#define SLOT_DIRTY 4u

#define RADIX_BITS 11u /* digit width of the pair sort: 2048 counters */
/* A dirty id's queries walk two trees: about the work of 16 items of the
 * step's plain loops, for the choice of one thread below some work
 * (the pool's grain, common/parallel.h). */
#define QUERY_WEIGHT 16u

void vx_broadphase_pair_list_init(vx_broadphase_pair_list *list) { memset(list, 0, sizeof *list); }

void vx_broadphase_pair_list_free(vx_broadphase_pair_list *list)
{
    free(list->items);
    vx_broadphase_pair_list_init(list);
}

vx_broadphase_config vx_broadphase_config_default(void)
{
    vx_broadphase_config c;
    memset(&c, 0, sizeof c);
    c.margin = VX_BROADPHASE_MARGIN;
    c.multiplier = VX_BROADPHASE_MULTIPLIER;
    c.tight_filter = false;
    return c;
}

static float non_negative(float x) { return x > 0.0f && isfinite(x) ? x : 0.0f; }

void vx_broadphase_init(vx_broadphase *bp, vx_broadphase_kind kind, const vx_broadphase_config *config)
{
    memset(bp, 0, sizeof *bp);
    bp->kind = kind;
    bp->config = config ? *config : vx_broadphase_config_default();
    bp->config.margin = non_negative(bp->config.margin);
    bp->config.multiplier = non_negative(bp->config.multiplier);
    vx_dynamic_tree_init(&bp->moving, bp->config.margin, bp->config.multiplier);
    vx_dynamic_tree_init(&bp->fixed, 0.0f, 0.0f);
    vx_bvh_init(&bp->bvh);
    vx_pair_list_init(&bp->bvh_pairs);
}

void vx_broadphase_free(vx_broadphase *bp)
{
    free(bp->slots);
    vx_dynamic_tree_free(&bp->moving);
    vx_dynamic_tree_free(&bp->fixed);
    free(bp->dirty);
    free(bp->pairs);
    free(bp->fresh);
    free(bp->spare);
    for (size_t w = 0; w < bp->worker_count; w++) {
        free(bp->workers[w].stack);
        free(bp->workers[w].pairs);
    }
    free(bp->workers);
    vx_bvh_free(&bp->bvh);
    free(bp->entries);
    vx_pair_list_free(&bp->bvh_pairs);
    vx_broadphase_config config = bp->config;
    vx_broadphase_init(bp, bp->kind, &config);
}

static vx_status check_box(vx_aabb b)
{
    if (!vx_aabb_is_finite(b)) return VX_ERR_NONFINITE;
    if (b.min.x > b.max.x || b.min.y > b.max.y || b.min.z > b.max.z) return VX_ERR_INVALID;
    return VX_OK;
}

static bool present(const vx_broadphase *bp, uint32_t id)
{
    return id < bp->slot_capacity && (bp->slots[id].flags & SLOT_PRESENT) != 0u;
}

static vx_status reserve_slot(vx_broadphase *bp, uint32_t id)
{
    vx_status st = VX_OK;
    VX_RESERVE_INDEX(st, bp->slots, bp->slot_capacity, id, 64u);
    return st;
}

/* Room for one more dirty id, taken before the trees change, so that marking
 * can no longer fail once they have. */
static vx_status reserve_dirty(vx_broadphase *bp)
{
    vx_status st = VX_OK;
    VX_RESERVE(st, bp->dirty, bp->dirty_capacity, bp->dirty_count + 1u, 64u);
    return st;
}

static void mark_dirty(vx_broadphase *bp, uint32_t id)
{
    vx_broadphase_slot *s = &bp->slots[id];
    if (s->flags & SLOT_DIRTY) return;
    s->flags = (uint8_t)(s->flags | SLOT_DIRTY);
    bp->dirty[bp->dirty_count++] = id;
}

static vx_dynamic_tree *tree_of(vx_broadphase *bp, const vx_broadphase_slot *s)
{
    return (s->flags & SLOT_STATIC) ? &bp->fixed : &bp->moving;
}

static const vx_dynamic_tree *const_tree_of(const vx_broadphase *bp, const vx_broadphase_slot *s)
{
    return (s->flags & SLOT_STATIC) ? &bp->fixed : &bp->moving;
}

vx_status vx_broadphase_add(vx_broadphase *bp, uint32_t id, vx_aabb aabb, bool is_static)
{
    vx_status st = check_box(aabb);
    if (st != VX_OK) return st;
    if (id == UINT32_MAX || present(bp, id)) return VX_ERR_INVALID;
    st = reserve_slot(bp, id);
    if (st == VX_OK && bp->kind == VX_BROADPHASE_DYNAMIC_TREE) st = reserve_dirty(bp);
    if (st != VX_OK) return st;

    vx_broadphase_slot *s = &bp->slots[id];
    uint8_t flags = (uint8_t)((s->flags & SLOT_DIRTY) | SLOT_PRESENT | (is_static ? SLOT_STATIC : 0u));
    if (bp->kind == VX_BROADPHASE_DYNAMIC_TREE) {
        vx_dynamic_tree *tree = is_static ? &bp->fixed : &bp->moving;
        st = vx_dynamic_tree_create_proxy(tree, aabb, vx_vec3_zero(), id, &s->proxy);
        if (st != VX_OK) return st;
    }
    s->tight = aabb;
    s->flags = flags;
    if (bp->kind == VX_BROADPHASE_DYNAMIC_TREE) mark_dirty(bp, id);
    bp->count++;
    if (is_static) bp->static_count++;
    return VX_OK;
}

vx_status vx_broadphase_update(vx_broadphase *bp, uint32_t id, vx_aabb aabb, vx_vec3 displacement)
{
    vx_status st = check_box(aabb);
    if (st == VX_OK && !vx_vec3_is_finite(displacement)) st = VX_ERR_NONFINITE;
    if (st != VX_OK) return st;
    if (!present(bp, id)) return VX_ERR_INVALID;
    vx_broadphase_slot *s = &bp->slots[id];
    s->tight = aabb;
    if (bp->kind != VX_BROADPHASE_DYNAMIC_TREE) return VX_OK;

    st = reserve_dirty(bp);
    if (st != VX_OK) return st;
    bool is_static = (s->flags & SLOT_STATIC) != 0u;
    /* The static tree has margin 0: any change of a static box reinserts. */
    if (vx_dynamic_tree_move_proxy(tree_of(bp, s), s->proxy, aabb, is_static ? vx_vec3_zero() : displacement))
        mark_dirty(bp, id);
    return VX_OK;
}

bool vx_broadphase_update_in_place(vx_broadphase *bp, uint32_t id, vx_aabb aabb, vx_vec3 displacement)
{
    if (check_box(aabb) != VX_OK || !vx_vec3_is_finite(displacement) || !present(bp, id)) return false;
    vx_broadphase_slot *s = &bp->slots[id];
    if (bp->kind == VX_BROADPHASE_DYNAMIC_TREE) {
        /* as update asks vx_dynamic_tree_move_proxy, which would do nothing */
        bool is_static = (s->flags & SLOT_STATIC) != 0u;
        if (vx_dynamic_tree_needs_move(const_tree_of(bp, s), s->proxy, aabb,
                                       is_static ? vx_vec3_zero() : displacement))
            return false;
    }
    s->tight = aabb;
    return true;
}

vx_status vx_broadphase_remove(vx_broadphase *bp, uint32_t id)
{
    if (!present(bp, id)) return VX_ERR_INVALID;
    vx_broadphase_slot *s = &bp->slots[id];
    if (bp->kind == VX_BROADPHASE_DYNAMIC_TREE) {
        vx_status st = reserve_dirty(bp);
        if (st != VX_OK) return st;
        vx_dynamic_tree_destroy_proxy(tree_of(bp, s), s->proxy);
        mark_dirty(bp, id);
    }
    if (s->flags & SLOT_STATIC) bp->static_count--;
    s->flags = (uint8_t)(s->flags & SLOT_DIRTY);
    memset(&s->tight, 0, sizeof s->tight);
    s->proxy = 0;
    bp->count--;
    return VX_OK;
}

/* ---- pairs ---- */

static bool pair_less(vx_broadphase_pair x, vx_broadphase_pair y) { return x.a < y.a || (x.a == y.a && x.b < y.b); }

static uint64_t pair_key(vx_broadphase_pair p, unsigned bits) { return ((uint64_t)p.a << bits) | p.b; }

/* Stable LSD radix sort of pairs by (a, b), with ids below 2^bits: the key
 * a * 2^bits + b in digits of RADIX_BITS. buffer holds n pairs; the result
 * ends in items. */
static void radix_sort_pairs(vx_broadphase_pair *items, vx_broadphase_pair *buffer, size_t n, unsigned bits)
{
    if (n < 2) return;
    vx_broadphase_pair *src = items, *dst = buffer;
    size_t counts[1u << RADIX_BITS];
    const uint64_t mask = (1u << RADIX_BITS) - 1u;
    for (unsigned shift = 0; shift < 2u * bits; shift += RADIX_BITS) {
        memset(counts, 0, sizeof counts);
        for (size_t i = 0; i < n; i++) counts[(pair_key(src[i], bits) >> shift) & mask]++;
        size_t sum = 0;
        for (size_t d = 0; d <= mask; d++) {
            size_t c = counts[d];
            counts[d] = sum;
            sum += c;
        }
        for (size_t i = 0; i < n; i++) dst[counts[(pair_key(src[i], bits) >> shift) & mask]++] = src[i];
        vx_broadphase_pair *t = src;
        src = dst;
        dst = t;
    }
    if (src != items) memcpy(items, src, n * sizeof *items);
}

static unsigned bit_width(uint32_t x)
{
    unsigned bits = 0;
    while (bits < 32u && (x >> bits) != 0u) bits++;
    return bits;
}

/* ---- work split between the threads ---- */

/* One worker per thread of bp->pool, each stack deep enough for both trees:
 * grown here so that the threads allocate nothing but pairs. */
static vx_status prepare_workers(vx_broadphase *bp)
{
    size_t threads = (size_t)vx_thread_pool_size(bp->pool);
    if (bp->worker_count < threads) {
        vx_broadphase_worker *w = realloc(bp->workers, threads * sizeof *w);
        if (!w) return VX_ERR_NOMEM;
        memset(w + bp->worker_count, 0, (threads - bp->worker_count) * sizeof *w);
        bp->workers = w;
        bp->worker_count = threads;
    }
    uint32_t need = vx_dynamic_tree_query_stack_size(&bp->moving);
    uint32_t need_fixed = vx_dynamic_tree_query_stack_size(&bp->fixed);
    if (need < need_fixed) need = need_fixed;
    for (size_t i = 0; i < bp->worker_count; i++) {
        vx_broadphase_worker *w = &bp->workers[i];
        if (w->stack_capacity >= need) continue;
        uint32_t cap = need < 64u ? 64u : 2u * need;
        uint32_t *stack = realloc(w->stack, (size_t)cap * sizeof *stack);
        if (!stack) return VX_ERR_NOMEM;
        w->stack = stack;
        w->stack_capacity = cap;
    }
    return VX_OK;
}

/* A loop over items split between the threads by thread index: thread t
 * takes range t (vx_thread_share) with worker t, so the workers hold the
 * ranges in item order. */
typedef struct split_job split_job;
typedef void (*split_range_fn)(split_job *job, vx_broadphase_worker *w, size_t begin, size_t end);
struct split_job {
    vx_broadphase *bp;
    const vx_broadphase_pair *set; /* the filter's input */
    vx_broadphase_pair *out;       /* ... and output */
    size_t n;                      /* items */
    split_range_fn fn;
};

static void split_thread(void *ctx, int t, int threads)
{
    split_job *job = ctx;
    vx_broadphase_worker *w = &job->bp->workers[t];
    size_t begin, end;
    vx_thread_share(job->n, t, threads, &begin, &end);
    w->begin = begin;
    w->count = 0;
    w->status = VX_OK;
    if (end > begin) job->fn(job, w, begin, end);
}

/* Runs fn over items [0, n) and returns how many workers took a range
 * (workers [0, that), in item order). An item counts as `weight` items of
 * a plain loop for the choice of one thread below some work
 * (vx_parallel_pool). */
static size_t run_split(split_job *job, size_t n, size_t weight, split_range_fn fn)
{
    job->n = n;
    job->fn = fn;
    vx_thread_pool *pool = vx_parallel_pool(job->bp->pool, n <= SIZE_MAX / weight ? n * weight : n);
    vx_thread_pool_run(pool, split_thread, job);
    return (size_t)vx_thread_pool_size(pool);
}

/* ---- queries of the dirty ids ---- */

typedef struct {
    const vx_broadphase *bp;
    vx_broadphase_worker *worker; /* receives the pairs */
    uint32_t id;                  /* the dirty id whose box is the query */
} query_context;

static bool collect_pair(void *context, uint32_t proxy, uint32_t other)
{
    (void)proxy;
    query_context *q = context;
    vx_broadphase_worker *w = q->worker;
    if (other == q->id) return true;
    /* Both changed: the query of the lower id keeps the pair. */
    if ((q->bp->slots[other].flags & SLOT_DIRTY) && other < q->id) return true;
    if (q->bp->max_pairs && w->count >= q->bp->max_pairs) {
        w->status = VX_ERR_BUDGET; /* stop before the pairs take the memory */
        return false;
    }
    if (w->count == w->capacity) {
        VX_RESERVE(w->status, w->pairs, w->capacity, w->count + 1u, 64u);
        if (w->status != VX_OK) return false;
    }
    vx_broadphase_pair *p = &w->pairs[w->count++];
    p->a = q->id < other ? q->id : other;
    p->b = q->id < other ? other : q->id;
    return true;
}

static void query_dirty(const vx_broadphase *bp, vx_broadphase_worker *w, uint32_t id)
{
    const vx_broadphase_slot *s = &bp->slots[id];
    query_context q = {bp, w, id};
    bool is_static = (s->flags & SLOT_STATIC) != 0u;
    vx_aabb box = vx_dynamic_tree_fat_aabb(const_tree_of(bp, s), s->proxy);
    vx_dynamic_tree_query_with_stack(&bp->moving, box, collect_pair, &q, w->stack);
    if (w->status == VX_OK && !is_static) vx_dynamic_tree_query_with_stack(&bp->fixed, box, collect_pair, &q, w->stack);
}

/* Dirty ids [begin, end): their new pairs into a worker. */
static void query_range(split_job *job, vx_broadphase_worker *w, size_t begin, size_t end)
{
    const vx_broadphase *bp = job->bp;
    for (size_t d = begin; d < end && w->status == VX_OK; d++) {
        uint32_t id = bp->dirty[d];
        if (present(bp, id)) query_dirty(bp, w, id);
    }
}

/* ---- output ---- */

static bool tight_overlap(const vx_broadphase *bp, vx_broadphase_pair p)
{
    return present(bp, p.a) && present(bp, p.b) && vx_aabb_intersects(bp->slots[p.a].tight, bp->slots[p.b].tight);
}

/* set[begin, end): the tightly overlapping pairs to out[begin, ...), their
 * number to the worker. */
static void filter_range(split_job *job, vx_broadphase_worker *w, size_t begin, size_t end)
{
    size_t k = begin;
    for (size_t i = begin; i < end; i++)
        if (tight_overlap(job->bp, job->set[i])) job->out[k++] = job->set[i];
    w->count = k - begin;
}

/* out = set (all of it, or the tightly overlapping pairs). */
static vx_status output_pairs(vx_broadphase *bp, const vx_broadphase_pair *set, size_t n, vx_broadphase_pair_list *out)
{
    vx_status st = VX_OK;
    VX_ARRAY_RESERVE(st, *out, n, 64u);
    if (st != VX_OK) return st;
    if (!bp->config.tight_filter) {
        if (n) memcpy(out->items, set, n * sizeof *set);
        out->count = n;
        return VX_OK;
    }
    split_job job = {.bp = bp, .set = set, .out = out->items};
    size_t m = run_split(&job, n, 1u, filter_range);
    /* each range's pairs after the previous ones' (k <= its start) */
    size_t k = 0;
    for (size_t i = 0; i < m; i++) {
        const vx_broadphase_worker *w = &bp->workers[i];
        if (k != w->begin && w->count) memmove(out->items + k, out->items + w->begin, w->count * sizeof *out->items);
        k += w->count;
    }
    out->count = k;
    return VX_OK;
}

static bool names_dirty(const vx_broadphase *bp, vx_broadphase_pair p)
{
    return ((bp->slots[p.a].flags | bp->slots[p.b].flags) & SLOT_DIRTY) != 0u;
}

static vx_status find_pairs_tree(vx_broadphase *bp, vx_broadphase_pair_list *out)
{
    vx_status st = prepare_workers(bp);
    if (st != VX_OK) return st;
    bp->stats.requeried = bp->dirty_count;
    if (bp->dirty_count == 0) { /* nothing changed: the same set */
        bp->stats.fat_pairs = bp->pair_count;
        return output_pairs(bp, bp->pairs, bp->pair_count, out);
    }
    /* 2. Query around every changed id still present. A failure leaves the
     * dirty list as it is, so the next call re-queries the same ids. */
    split_job job = {.bp = bp};
    size_t m = run_split(&job, bp->dirty_count, QUERY_WEIGHT, query_range);
    size_t n = 0;
    for (size_t w = 0; w < m; w++) {
        if (bp->workers[w].status != VX_OK) return bp->workers[w].status;
        n += bp->workers[w].count;
    }
    if (bp->max_pairs) {
        size_t kept = 0;
        for (size_t i = 0; i < bp->pair_count; i++) kept += !names_dirty(bp, bp->pairs[i]);
        if (kept + n > bp->max_pairs) return VX_ERR_BUDGET;
    }
    VX_RESERVE(st, bp->fresh, bp->fresh_capacity, n, 64u);
    VX_RESERVE(st, bp->spare, bp->spare_capacity, bp->pair_count + n, 64u);
    if (st != VX_OK) return st;
    bp->fresh_count = 0;
    for (size_t w = 0; w < m; w++) {
        const vx_broadphase_worker *wk = &bp->workers[w];
        if (wk->count) memcpy(bp->fresh + bp->fresh_count, wk->pairs, wk->count * sizeof *wk->pairs);
        bp->fresh_count += wk->count;
    }

    /* 3. Sort the new pairs and merge them with the last set's pairs of
     * unchanged ids (1.: those naming a dirty id are skipped). */
    radix_sort_pairs(bp->fresh, bp->spare, n, bit_width(bp->slot_capacity - 1u));
    size_t i = 0, j = 0, k = 0, old = bp->pair_count;
    for (;;) {
        while (i < old && names_dirty(bp, bp->pairs[i])) i++;
        if (i == old || j == n) break;
        bp->spare[k++] = pair_less(bp->fresh[j], bp->pairs[i]) ? bp->fresh[j++] : bp->pairs[i++];
    }
    for (; i < old; i++)
        if (!names_dirty(bp, bp->pairs[i])) bp->spare[k++] = bp->pairs[i];
    while (j < n) bp->spare[k++] = bp->fresh[j++];
    vx_broadphase_pair *t = bp->pairs;
    size_t tc = bp->pair_capacity;
    bp->pairs = bp->spare;
    bp->pair_capacity = bp->spare_capacity;
    bp->pair_count = k;
    bp->spare = t;
    bp->spare_capacity = tc;

    for (size_t d = 0; d < bp->dirty_count; d++) {
        vx_broadphase_slot *s = &bp->slots[bp->dirty[d]];
        s->flags = (uint8_t)(s->flags & ~SLOT_DIRTY);
    }
    bp->dirty_count = 0;
    bp->stats.fat_pairs = bp->pair_count;
    return output_pairs(bp, bp->pairs, bp->pair_count, out);
}

static vx_status find_pairs_bvh(vx_broadphase *bp, vx_broadphase_pair_list *out)
{
    vx_status st = VX_OK;
    VX_RESERVE(st, bp->entries, bp->entry_capacity, bp->count, 64u);
    if (st != VX_OK) return st;
    size_t n = 0;
    for (uint32_t id = 0; id < bp->slot_capacity && n < bp->count; id++) {
        const vx_broadphase_slot *s = &bp->slots[id];
        if (!(s->flags & SLOT_PRESENT)) continue;
        vx_bvh_entry *e = &bp->entries[n++];
        e->entity.index = id;
        e->entity.generation = 0;
        e->aabb = s->tight;
    }
    bp->bvh_pairs.limit = bp->max_pairs ? bp->max_pairs : SIZE_MAX; /* static pairs count too */
    st = vx_bvh_build(&bp->bvh, bp->entries, n);
    if (st == VX_OK) st = vx_bvh_query_pairs(&bp->bvh, &bp->bvh_pairs);
    VX_ARRAY_RESERVE(st, *out, bp->bvh_pairs.count, 64u);
    if (st != VX_OK) return st;
    /* Already sorted by (a, b); drop static-static pairs. Fat boxes are the
     * tight boxes here, so the tight filter would change nothing. */
    size_t k = 0;
    for (size_t i = 0; i < bp->bvh_pairs.count; i++) {
        uint32_t a = bp->bvh_pairs.items[i].a.index, b = bp->bvh_pairs.items[i].b.index;
        if (bp->slots[a].flags & bp->slots[b].flags & SLOT_STATIC) continue;
        out->items[k].a = a;
        out->items[k].b = b;
        k++;
    }
    out->count = k;
    bp->stats.requeried = n;
    bp->stats.fat_pairs = k;
    return VX_OK;
}

#ifndef NDEBUG
/* Every pair once, a < b, in (a, b) order: what the narrow phase and the
 * sleeping code rely on. */
static bool pairs_in_order(const vx_broadphase_pair_list *list)
{
    for (size_t i = 0; i < list->count; i++) {
        if (list->items[i].a >= list->items[i].b) return false;
        if (i > 0 && !pair_less(list->items[i - 1], list->items[i])) return false;
    }
    return true;
}
#endif

vx_status vx_broadphase_find_pairs(vx_broadphase *bp, vx_broadphase_pair_list *out)
{
    out->count = 0;
    vx_status st = bp->kind == VX_BROADPHASE_DYNAMIC_TREE ? find_pairs_tree(bp, out) : find_pairs_bvh(bp, out);
    VX_ASSERT(st != VX_OK || pairs_in_order(out));
    return st;
}

size_t vx_broadphase_filter_tight(const vx_broadphase *bp, vx_broadphase_pair_list *pairs)
{
    size_t k = 0;
    for (size_t i = 0; i < pairs->count; i++)
        if (tight_overlap(bp, pairs->items[i])) pairs->items[k++] = pairs->items[i];
    size_t dropped = pairs->count - k;
    pairs->count = k;
    return dropped;
}

/* ---- queries of one id ---- */

bool vx_broadphase_contains(const vx_broadphase *bp, uint32_t id) { return present(bp, id); }

bool vx_broadphase_is_static(const vx_broadphase *bp, uint32_t id)
{
    return present(bp, id) && (bp->slots[id].flags & SLOT_STATIC) != 0u;
}

bool vx_broadphase_fat_aabb(const vx_broadphase *bp, uint32_t id, vx_aabb *out)
{
    if (!present(bp, id)) return false;
    const vx_broadphase_slot *s = &bp->slots[id];
    if (bp->kind != VX_BROADPHASE_DYNAMIC_TREE)
        *out = s->tight;
    else
        *out = vx_dynamic_tree_fat_aabb((s->flags & SLOT_STATIC) ? &bp->fixed : &bp->moving, s->proxy);
    return true;
}

bool vx_broadphase_tight_aabb(const vx_broadphase *bp, uint32_t id, vx_aabb *out)
{
    if (!present(bp, id)) return false;
    *out = bp->slots[id].tight;
    return true;
}

size_t vx_broadphase_count(const vx_broadphase *bp) { return bp->count; }

vx_broadphase_stats vx_broadphase_get_stats(const vx_broadphase *bp)
{
    vx_broadphase_stats s = bp->stats;
    s.proxies = bp->count;
    s.statics = bp->static_count;
    s.dynamic_height = vx_dynamic_tree_height(&bp->moving);
    s.static_height = vx_dynamic_tree_height(&bp->fixed);
    return s;
}
