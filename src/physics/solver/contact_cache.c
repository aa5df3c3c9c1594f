/* Warm-start cache, double buffered: see contact_cache.h. */
#include "physics/solver/contact_cache.h"

#include <stdlib.h>
#include <string.h>

#include "common/array.h"
#include "common/assert.h"

void vx_contact_cache_init(vx_contact_cache *c) { memset(c, 0, sizeof *c); }

void vx_contact_cache_free(vx_contact_cache *c)
{
    free(c->items);
    free(c->next);
    vx_contact_cache_init(c);
}

void vx_contact_cache_clear(vx_contact_cache *c)
{
    c->count = 0;
    c->next_count = 0;
}

static int compare_u32(uint32_t a, uint32_t b) { return (a > b) - (a < b); }

static int compare_pair(const vx_contact_cache_entry *e, uint32_t a_index, uint32_t b_index)
{
    int c = compare_u32(e->a_index, a_index);
    if (c == 0) c = compare_u32(e->b_index, b_index);
    return c;
}

static int compare_manifold(const vx_contact_cache_entry *e, uint32_t a_index, uint32_t b_index, uint32_t part)
{
    int c = compare_pair(e, a_index, b_index);
    if (c == 0) c = compare_u32(e->part, part);
    return c;
}

size_t vx_contact_cache_lower_bound(const vx_contact_cache *c, vx_entity a, vx_entity b, uint32_t part)
{
    size_t lo = 0, hi = c->count;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2u;
        if (compare_manifold(&c->items[mid], a.index, b.index, part) < 0)
            lo = mid + 1u;
        else
            hi = mid;
    }
    return lo;
}

size_t vx_contact_cache_find(const vx_contact_cache *c, size_t *cursor, vx_entity a, vx_entity b, uint32_t part,
                             size_t *first)
{
    size_t i = *cursor;
    while (i < c->count && compare_manifold(&c->items[i], a.index, b.index, part) < 0) i++;
    size_t end = i;
    while (end < c->count && compare_manifold(&c->items[end], a.index, b.index, part) == 0) end++;
    *cursor = end;
    *first = i;
    if (end == i) return 0;
    /* A slot reused by a new entity is not the old contact. */
    if (c->items[i].a_generation != a.generation || c->items[i].b_generation != b.generation) return 0;
    return end - i;
}

#ifndef NDEBUG
/* The entries in key order (the matching and the merges depend on it). */
static bool sorted_by_manifold(const vx_contact_cache_entry *items, size_t count)
{
    for (size_t i = 1; i < count; i++)
        if (compare_manifold(&items[i - 1], items[i].a_index, items[i].b_index, items[i].part) > 0) return false;
    return true;
}
#endif
void vx_contact_cache_commit(vx_contact_cache *c)
{
    VX_ASSERT(c->next_count <= c->next_capacity && sorted_by_manifold(c->next, c->next_count));
    vx_contact_cache_entry *items = c->items;
    size_t capacity = c->capacity;
    c->items = c->next;
    c->count = c->next_count;
    c->capacity = c->next_capacity;
    c->next = items;
    c->next_capacity = capacity;
    c->next_count = 0;
}

vx_status vx_contact_cache_begin_fill(vx_contact_cache *c, size_t most, vx_contact_cache_entry **entries)
{
    c->next_count = 0;
    vx_status st = VX_OK;
    VX_RESERVE(st, c->next, c->next_capacity, most, 64u);
    if (st != VX_OK) return st;
    *entries = c->next;
    return VX_OK;
}

void vx_contact_cache_commit_fill(vx_contact_cache *c, size_t count)
{
    c->next_count = count;
    vx_contact_cache_commit(c);
}

void vx_contact_cache_stash_free(vx_contact_cache_stash *s)
{
    free(s->items);
    memset(s, 0, sizeof *s);
}

vx_status vx_contact_cache_take(vx_contact_cache *c, bool (*take)(const vx_contact_cache_entry *e, void *context),
                                void *context, vx_contact_cache_stash *stash)
{
    stash->count = 0;
    vx_status st = VX_OK;
    VX_ARRAY_RESERVE(st, *stash, c->count, 64u); /* before anything moves */
    if (st != VX_OK) return st;
    size_t kept = 0;
    for (size_t i = 0; i < c->count; i++) {
        const vx_contact_cache_entry *e = &c->items[i];
        if (take(e, context))
            stash->items[stash->count++] = *e;
        else
            c->items[kept++] = *e;
    }
    c->count = kept;
    return VX_OK;
}

vx_status vx_contact_cache_put_back(vx_contact_cache *c, const vx_contact_cache_stash *stash)
{
    if (stash->count == 0) return VX_OK;
    vx_status st = VX_OK;
    VX_RESERVE(st, c->next, c->next_capacity, c->count + stash->count, 64u);
    if (st != VX_OK) return st;
    /* Merge by pair: the two sides hold different pairs, each pair's entries
     * stay together and in their order. */
    size_t i = 0, j = 0, k = 0;
    while (i < c->count && j < stash->count) {
        const vx_contact_cache_entry *x = &c->items[i], *y = &stash->items[j];
        if (compare_pair(y, x->a_index, x->b_index) < 0)
            c->next[k++] = stash->items[j++];
        else
            c->next[k++] = c->items[i++];
    }
    while (i < c->count) c->next[k++] = c->items[i++];
    while (j < stash->count) c->next[k++] = stash->items[j++];
    c->next_count = k;
    vx_contact_cache_commit(c);
    return VX_OK;
}
