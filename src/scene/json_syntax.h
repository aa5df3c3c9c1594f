/* A strict RFC 8259 syntax check that names the first byte at which the text
 * stops being the start of a valid JSON document, with a short hint. cJSON
 * builds the tree afterwards; its own error offsets are too rough for
 * messages (one byte late where a key is expected, the first character of an
 * unterminated string) and it accepts "01", "1." and raw control characters. */
#ifndef VX_SCENE_JSON_SYNTAX_H
#define VX_SCENE_JSON_SYNTAX_H

#include <stdbool.h>
#include <stddef.h>

#define VX_JSON_MAX_DEPTH 64       /* nested arrays/objects: a scene needs 4; also bounds the recursion */
#define VX_JSON_MAX_NUMBER_BYTES 63 /* longest number cJSON 1.7.15 reads whole (its buffer is 64 bytes) */
#define VX_JSON_HINT_MAX 80

typedef struct {
    size_t offset; /* byte at fault; the text's length for a premature end */
    bool empty;    /* nothing but whitespace */
    char hint[VX_JSON_HINT_MAX];
} vx_json_syntax_error;

/* true when text[0..length) is exactly one JSON value surrounded by optional
 * whitespace; otherwise false and *out says where and why. A NUL byte is
 * never valid, raw or as \u0000 in a string (C strings, and cJSON, stop there). */
bool vx_json_check_syntax(const char *text, size_t length, vx_json_syntax_error *out);

#endif
