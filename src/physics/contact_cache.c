/* Warm-start cache, double buffered: see contact_cache.h. */
#include "physics/contact_cache.h"

#include <stdlib.h>
#include <string.h>

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

size_t vx_contact_cache_find_pair(const vx_contact_cache *c, size_t *cursor, vx_entity a, vx_entity b,
                                  size_t *first)
{
    size_t i = *cursor;
    while (i < c->count && compare_pair(&c->items[i], a.index, b.index) < 0) i++;
    size_t end = i;
    while (end < c->count && compare_pair(&c->items[end], a.index, b.index) == 0) end++;
    *cursor = end;
    *first = i;
    if (end == i) return 0;
    /* A slot reused by a new entity is not the old contact. */
    if (c->items[i].a_generation != a.generation || c->items[i].b_generation != b.generation) return 0;
    return end - i;
}

void vx_contact_cache_begin(vx_contact_cache *c) { c->next_count = 0; }

vx_status vx_contact_cache_append(vx_contact_cache *c, const vx_contact_cache_entry *e)
{
    if (c->next_count == c->next_capacity) {
        size_t cap = c->next_capacity ? c->next_capacity * 2u : 64u;
        if (cap > SIZE_MAX / sizeof *c->next) return VX_ERR_NOMEM;
        vx_contact_cache_entry *items = realloc(c->next, cap * sizeof *items);
        if (!items) return VX_ERR_NOMEM;
        c->next = items;
        c->next_capacity = cap;
    }
    c->next[c->next_count++] = *e;
    return VX_OK;
}

void vx_contact_cache_commit(vx_contact_cache *c)
{
    vx_contact_cache_entry *items = c->items;
    size_t capacity = c->capacity;
    c->items = c->next;
    c->count = c->next_count;
    c->capacity = c->next_capacity;
    c->next = items;
    c->next_capacity = capacity;
    c->next_count = 0;
}
