/* Growable arrays: capacities double (amortised O(1) appends, no allocation
 * once a run has warmed up), with overflow checks. Macros, so that every
 * pointer keeps its own type (no void ** aliasing):
 *
 *   VX_ARRAY(T)            a struct of items, count and capacity; any struct
 *                          with those three fields works with the macros
 *                          below (the public lists do)
 *   VX_ARRAY_RESERVE       room for n items of such an array
 *   VX_RESERVE             room for n items of a bare pointer and capacity
 *   VX_RESERVE_ALIGNED     the same in a fresh 16-byte aligned block
 *   VX_GROW_ARRAY          one of several arrays sharing a capacity
 *   VX_RESERVE_INDEX       a table indexed by ids, new entries zeroed
 *
 * Each takes a status lvalue: it runs only while the status is VX_OK and
 * sets VX_ERR_NOMEM on failure, leaving the array as it was. */
#ifndef VOLTEX_COMMON_ARRAY_H
#define VOLTEX_COMMON_ARRAY_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

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

#define VX_ARRAY(T)          \
    struct {                 \
        T *items;            \
        size_t count;        \
        size_t capacity;     \
    }

/* Reallocates `array` (a pointer lvalue) to `count` elements. */
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

/* Room for `need` elements in `array` whose capacity is the size_t lvalue
 * `capacity` (starting at `initial`); the array is allocated even for 0. */
#define VX_RESERVE(status, array, capacity, need, initial)                                          \
    do {                                                                                          \
        if ((status) == VX_OK && ((size_t)(need) > (capacity) || !(array))) {                     \
            size_t vx_cap_ = 0;                                                                   \
            (status) = vx_grow_capacity((capacity), (size_t)(need), (initial), sizeof *(array), &vx_cap_); \
            VX_GROW_ARRAY(status, array, vx_cap_);                                                \
            if ((status) == VX_OK) (capacity) = vx_cap_;                                          \
        }                                                                                         \
    } while (0)

/* VX_RESERVE in a fresh block aligned to 16 bytes (SIMD loads): the old
 * contents are not kept. */
#define VX_RESERVE_ALIGNED(status, array, capacity, need, initial)                                   \
    do {                                                                                           \
        if ((status) == VX_OK && ((size_t)(need) > (capacity) || !(array))) {                      \
            size_t vx_cap_ = 0;                                                                    \
            (status) = vx_grow_capacity((capacity), (size_t)(need), (initial), sizeof *(array), &vx_cap_); \
            /* initial * 2^k elements: a multiple of 16 bytes for initial >= 16 */                 \
            void *vx_block_ = (status) == VX_OK ? aligned_alloc(16u, vx_cap_ * sizeof *(array)) : NULL; \
            if (vx_block_) {                                                                       \
                free(array);                                                                       \
                (array) = vx_block_;                                                               \
                (capacity) = vx_cap_;                                                              \
            } else if ((status) == VX_OK) {                                                        \
                (status) = VX_ERR_NOMEM;                                                           \
            }                                                                                      \
        }                                                                                          \
    } while (0)

#define VX_ARRAY_RESERVE(status, arr, need, initial) VX_RESERVE(status, (arr).items, (arr).capacity, need, initial)

/* Room for entry `index` of a table indexed by ids (`capacity` a uint32_t
 * lvalue, doubling from `initial`), the new entries zeroed; VX_ERR_INVALID
 * for UINT32_MAX, which is no id. */
#define VX_RESERVE_INDEX(status, array, capacity, index, initial)                                     \
    do {                                                                                              \
        if ((status) == VX_OK && (index) >= (capacity)) {                                             \
            if ((index) == UINT32_MAX) {                                                              \
                (status) = VX_ERR_INVALID;                                                            \
            } else {                                                                                  \
                uint32_t vx_cap_ = (capacity) ? (capacity) : (initial);                               \
                while (vx_cap_ <= (index)) vx_cap_ = vx_cap_ > UINT32_MAX / 2u ? UINT32_MAX : vx_cap_ * 2u; \
                void *vx_grown_ = realloc((array), (size_t)vx_cap_ * sizeof *(array));                \
                if (vx_grown_) {                                                                      \
                    (array) = vx_grown_;                                                              \
                    memset((array) + (capacity), 0, (size_t)(vx_cap_ - (capacity)) * sizeof *(array)); \
                    (capacity) = vx_cap_;                                                             \
                } else {                                                                              \
                    (status) = VX_ERR_NOMEM;                                                          \
                }                                                                                     \
            }                                                                                         \
        }                                                                                             \
    } while (0)

#endif
