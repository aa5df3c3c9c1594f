/* Pair lists for the broad-phase tests (physics/collision/test_broadphase.c,
 * test_broadphase_threads.c). */
#ifndef VOLTEX_TEST_PAIR_HELPERS_H
#define VOLTEX_TEST_PAIR_HELPERS_H

#include <criterion/criterion.h>
#include <stdint.h>
#include <stdlib.h>

#include "physics/collision/broadphase.h"

/* Appends (a, b) to l, growing it (the test fails if memory runs out). */
static inline void vx_test_push_pair(vx_broadphase_pair_list *l, uint32_t a, uint32_t b)
{
    if (l->count == l->capacity) {
        l->capacity = l->capacity ? 2u * l->capacity : 64u;
        l->items = realloc(l->items, l->capacity * sizeof *l->items);
        cr_assert_not_null(l->items);
    }
    l->items[l->count].a = a;
    l->items[l->count].b = b;
    l->count++;
}

#endif
