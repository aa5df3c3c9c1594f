/* Offset to line:column. */
#include "scene/json_place.h"

vx_json_place vx_json_place_of(const char *text, size_t length, size_t offset)
{
    vx_json_place place = {1, 1};
    if (offset > length) offset = length;
    for (size_t i = 0; i < offset; i++) {
        if (text[i] == '\n') {
            place.line++;
            place.column = 1;
        } else {
            place.column++;
        }
    }
    return place;
}
