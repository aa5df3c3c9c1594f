/* Growable lists of contacts and of broad-phase pairs, and the deterministic
 * order of a step's contacts. */
#include <stdlib.h>
#include <string.h>

#include "common/array.h"
#include "common/assert.h"
#include "physics/contact_key.h"
#include "voltex/physics.h"

#define VX_LIST_MIN_CAPACITY 16u /* first allocation, then doubling */

void vx_contact_list_init(vx_contact_list *list)
{
    list->items = NULL;
    list->count = 0;
    list->capacity = 0;
}

void vx_contact_list_free(vx_contact_list *list)
{
    free(list->items);
    vx_contact_list_init(list);
}

void vx_contact_list_clear(vx_contact_list *list) { list->count = 0; }

vx_status vx_contact_list_push(vx_contact_list *list, const vx_contact *c)
{
    if (list->count == list->capacity) {
        size_t cap = list->capacity ? list->capacity * 2u : VX_LIST_MIN_CAPACITY;
        if (cap < list->capacity || cap > SIZE_MAX / sizeof *list->items) return VX_ERR_NOMEM;
        vx_contact *items = realloc(list->items, cap * sizeof *items);
        if (!items) return VX_ERR_NOMEM;
        list->items = items;
        list->capacity = cap;
    }
    list->items[list->count++] = *c;
    return VX_OK;
}

vx_status vx_contact_list_reserve(vx_contact_list *list, size_t capacity)
{
    if (capacity <= list->capacity) return VX_OK;
    size_t cap = 0;
    vx_status st = vx_grow_capacity(list->capacity, capacity, VX_LIST_MIN_CAPACITY, sizeof *list->items, &cap);
    VX_GROW_ARRAY(st, list->items, cap);
    if (st == VX_OK) list->capacity = cap;
    return st;
}

static int compare_u32(uint32_t a, uint32_t b) { return (a > b) - (a < b); }

/* A key whose unsigned order is the float order (-0 before +0, NaNs at the
 * ends), so the comparator below stays a total order even for odd values. */
static uint32_t float_key(float f)
{
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    return (u & 0x80000000u) ? ~u : (u | 0x80000000u);
}

static int compare_float(float a, float b) { return compare_u32(float_key(a), float_key(b)); }

static int compare_vec3(vx_vec3 a, vx_vec3 b)
{
    int c = compare_float(a.x, b.x);
    if (c == 0) c = compare_float(a.y, b.y);
    if (c == 0) c = compare_float(a.z, b.z);
    return c;
}

int vx_contact_compare_key(const vx_contact *a, const vx_contact *b)
{
    int c = compare_u32(a->entity_a.index, b->entity_a.index);
    if (c == 0) c = compare_u32(a->entity_b.index, b->entity_b.index);
    if (c == 0) c = compare_u32(a->part, b->part);
    if (c == 0) c = compare_u32(a->feature, b->feature);
    if (c == 0) c = compare_u32(a->entity_a.generation, b->entity_a.generation);
    if (c == 0) c = compare_u32(a->entity_b.generation, b->entity_b.generation);
    return c;
}

/* entity_a.index, entity_b.index, part, feature, then every remaining field, so no
 * two distinct contacts compare equal and qsort's instability cannot show. */
static int compare_contacts(const void *pa, const void *pb)
{
    const vx_contact *a = pa;
    const vx_contact *b = pb;
    int c = vx_contact_compare_key(a, b);
    if (c == 0) c = compare_float(a->depth, b->depth);
    if (c == 0) c = compare_vec3(a->normal, b->normal);
    if (c == 0) c = compare_vec3(a->point_on_a, b->point_on_a);
    if (c == 0) c = compare_vec3(a->point_on_b, b->point_on_b);
    if (c == 0) c = compare_float(a->impulse, b->impulse);
    if (c == 0) c = (int)a->sensor - (int)b->sensor;
    return c;
}

void vx_contact_list_sort(vx_contact_list *list)
{
    /* Detection emits contacts already in order (its pairs are sorted), so
     * a linear check usually saves the sort. */
    size_t i = 1;
    while (i < list->count && compare_contacts(&list->items[i - 1], &list->items[i]) <= 0) i++;
    if (i < list->count) qsort(list->items, list->count, sizeof *list->items, compare_contacts);
    for (size_t k = 1; k < list->count; k++) VX_ASSERT(compare_contacts(&list->items[k - 1], &list->items[k]) <= 0);
}
