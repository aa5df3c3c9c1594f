/* Every string of a scene, keys included, must be UTF-8 (RFC 3629: no
 * overlong forms, no surrogates, nothing past U+10FFFF), as JSON requires:
 * names go into the JSON trace and the messages. Checked on the parsed tree
 * (after --set) so that the message names the JSON path of the string. */
#ifndef VX_SCENE_JSON_UTF8_H
#define VX_SCENE_JSON_UTF8_H

#include <cjson/cJSON.h>
#include <stdbool.h>
#include <stddef.h>

#include "scene/json_read.h"

/* true when s is valid UTF-8; else false and *bad = the offset of the first
 * byte that does not start a valid sequence. */
bool vx_utf8_valid(const char *s, size_t *bad);

/* VX_ERR_INVALID "SOURCE: PATH: not valid UTF-8 (byte N of the string)" for
 * the first bad string or key of the tree under root, in document order. */
vx_status vx_json_check_utf8(vx_json_reader *r, const cJSON *root);

#endif
