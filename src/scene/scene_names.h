/* Which earlier entity already has a name: a hash table of indices into the
 * scene's names array, so a scene of many thousands of entities is checked
 * in linear time. */
#ifndef VX_SCENE_NAMES_H
#define VX_SCENE_NAMES_H

#include <stdbool.h>
#include <stddef.h>

#include "voltex/error.h"

#define VX_NAME_NONE ((size_t)-1)

typedef struct {
    size_t *slots; /* entity index or VX_NAME_NONE */
    size_t mask;   /* slot count - 1 (a power of two) */
} vx_name_index;

/* Room for up to count names; VX_ERR_NOMEM on failure (ix then frees safely). */
vx_status vx_name_index_init(vx_name_index *ix, size_t count);
void vx_name_index_free(vx_name_index *ix);
/* The index of an earlier entity named `name` (names[j] for recorded j), or
 * VX_NAME_NONE after recording entity `index` under it. */
size_t vx_name_index_claim(vx_name_index *ix, char *const *names, const char *name, size_t index);
/* The index recorded under `name`, or VX_NAME_NONE. */
size_t vx_name_index_find(const vx_name_index *ix, char *const *names, const char *name);

#define VX_SCENE_NAME_MAX 64 /* bytes of a name */

/* 1 to 64 letters, digits, '_', '.' or '-': the names of entities and queries. */
bool vx_scene_name_valid(const char *name);

#endif
