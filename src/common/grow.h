/* Growth of the engine's reusable arrays: capacities double (amortised O(1)
 * appends, no allocation once a run has warmed up), with overflow checks. */
#ifndef VX_GROW_H
#define VX_GROW_H

#include <stdint.h>
#include <stdlib.h>

#include "voltex/error.h"

/* The capacity to hold `need` elements of at most `elem_size` bytes, growing
 * `current` (or starting at `initial`) by doubling; VX_ERR_NOMEM on overflow. */
static inline vx_status vx_grow_capacity(size_t current, size_t need, size_t initial, size_t elem_size,
                                         size_t *out)
{
    size_t cap = current ? current : initial;
    while (cap < need) {
        if (cap > SIZE_MAX / 2u / elem_size) return VX_ERR_NOMEM;
        cap *= 2u;
    }
    *out = cap;
    return VX_OK;
}

/* If status is VX_OK, reallocates `array` (an lvalue of pointer type) to
 * `count` elements; on failure status becomes VX_ERR_NOMEM and the array is
 * left as it was. A macro so that the pointer keeps its own type (no void **
 * aliasing). */
#define VX_GROW_ARRAY(status, array, count)                                       \
    do {                                                                          \
        if ((status) == VX_OK) {                                                  \
            void *vx_grown_ = realloc((array), (size_t)(count) * sizeof *(array)); \
            if (vx_grown_)                                                        \
                (array) = vx_grown_;                                              \
            else                                                                  \
                (status) = VX_ERR_NOMEM;                                          \
        }                                                                         \
    } while (0)

#endif
