#include "scene/json_utf8.h"

#include <stdint.h>

/* Length of the valid sequence at p (1..4), or 0. */
static size_t sequence_length(const unsigned char *p)
{
    unsigned char b = p[0];
    if (b < 0x80u) return 1;
    size_t n;
    uint32_t code, min;
    if ((b & 0xE0u) == 0xC0u) {
        n = 2;
        code = b & 0x1Fu;
        min = 0x80u;
    } else if ((b & 0xF0u) == 0xE0u) {
        n = 3;
        code = b & 0x0Fu;
        min = 0x800u;
    } else if ((b & 0xF8u) == 0xF0u) {
        n = 4;
        code = b & 0x07u;
        min = 0x10000u;
    } else {
        return 0; /* a continuation byte, or 0xF8.. */
    }
    for (size_t i = 1; i < n; i++) {
        if ((p[i] & 0xC0u) != 0x80u) return 0; /* also stops at the '\0' */
        code = (code << 6) | (p[i] & 0x3Fu);
    }
    if (code < min || code > 0x10FFFFu || (code >= 0xD800u && code <= 0xDFFFu)) return 0;
    return n;
}

bool vx_utf8_valid(const char *s, size_t *bad)
{
    const unsigned char *p = (const unsigned char *)s;
    size_t i = 0;
    while (p[i]) {
        size_t n = sequence_length(p + i);
        if (n == 0) {
            *bad = i;
            return false;
        }
        i += n;
    }
    return true;
}

static vx_status fail_utf8(vx_json_reader *r, size_t bad, const char *what)
{
    return vx_json_fail(r, VX_ERR_INVALID, "not valid UTF-8 (byte %zu of the %s)", bad + 1, what);
}

vx_status vx_json_check_utf8(vx_json_reader *r, const cJSON *item)
{
    size_t bad = 0;
    if (cJSON_IsString(item) && !vx_utf8_valid(item->valuestring, &bad)) return fail_utf8(r, bad, "string");
    size_t index = 0;
    for (const cJSON *child = item->child; child; child = child->next, index++) {
        size_t mark;
        if (cJSON_IsObject(item)) {
            mark = vx_json_path_push_key(r, child->string);
            if (!vx_utf8_valid(child->string, &bad)) {
                vx_status st = fail_utf8(r, bad, "key");
                vx_json_path_pop(r, mark);
                return st;
            }
        } else {
            mark = vx_json_path_push_index(r, index);
        }
        vx_status st = vx_json_check_utf8(r, child);
        vx_json_path_pop(r, mark);
        if (st != VX_OK) return st;
    }
    return VX_OK;
}
