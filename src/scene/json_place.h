/* Byte offsets in a JSON text as the line:column an editor shows. */
#ifndef VX_SCENE_JSON_PLACE_H
#define VX_SCENE_JSON_PLACE_H

#include <stddef.h>

typedef struct {
    size_t line;   /* 1-based; lines end at '\n' */
    size_t column; /* 1-based, in bytes */
} vx_json_place;

/* Place of text[offset] (offset may equal length: the end of the text). */
vx_json_place vx_json_place_of(const char *text, size_t length, size_t offset);

#endif
