/* Open-addressing hash table of entity names (linear probing, FNV-1a). */
#include "scene/scene_names.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define VX_NAME_INDEX_MIN_SLOTS 16u /* at most half the slots are used, so probes stay short */

vx_status vx_name_index_init(vx_name_index *ix, size_t count)
{
    ix->slots = NULL;
    ix->mask = 0;
    size_t slots = VX_NAME_INDEX_MIN_SLOTS;
    while (slots / 2u < count) {
        if (slots > SIZE_MAX / 2u / sizeof *ix->slots) return VX_ERR_NOMEM;
        slots *= 2u;
    }
    ix->slots = malloc(slots * sizeof *ix->slots);
    if (!ix->slots) return VX_ERR_NOMEM;
    for (size_t i = 0; i < slots; i++) ix->slots[i] = VX_NAME_NONE;
    ix->mask = slots - 1u;
    return VX_OK;
}

void vx_name_index_free(vx_name_index *ix)
{
    free(ix->slots);
    ix->slots = NULL;
    ix->mask = 0;
}

static uint64_t hash_name(const char *name)
{
    uint64_t h = 14695981039346656037ull; /* FNV-1a 64-bit offset basis and prime */
    for (const unsigned char *p = (const unsigned char *)name; *p; p++) {
        h ^= *p;
        h *= 1099511628211ull;
    }
    return h;
}

size_t vx_name_index_claim(vx_name_index *ix, char *const *names, const char *name, size_t index)
{
    size_t slot = (size_t)hash_name(name) & ix->mask;
    while (ix->slots[slot] != VX_NAME_NONE) {
        size_t other = ix->slots[slot];
        if (strcmp(names[other], name) == 0) return other;
        slot = (slot + 1u) & ix->mask;
    }
    ix->slots[slot] = index;
    return VX_NAME_NONE;
}

size_t vx_name_index_find(const vx_name_index *ix, char *const *names, const char *name)
{
    if (!ix->slots) return VX_NAME_NONE;
    size_t slot = (size_t)hash_name(name) & ix->mask;
    while (ix->slots[slot] != VX_NAME_NONE) {
        size_t other = ix->slots[slot];
        if (strcmp(names[other], name) == 0) return other;
        slot = (slot + 1u) & ix->mask;
    }
    return VX_NAME_NONE;
}

static bool is_name_char(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '.' ||
           c == '-';
}

bool vx_scene_name_valid(const char *name)
{
    size_t length = 0;
    for (; name[length]; length++)
        if (length >= VX_SCENE_NAME_MAX || !is_name_char(name[length])) return false;
    return length > 0;
}
