/* Typed reads of cJSON values with errors that name the JSON path of the
 * value: "SOURCE: entities[2].collider.radius: must be > 0". The reader keeps
 * the current path; callers push a key or an index before reading a member
 * and pop it afterwards. */
#ifndef VX_SCENE_JSON_READ_H
#define VX_SCENE_JSON_READ_H

#include <cjson/cJSON.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "voltex/error.h"
#include "voltex/math.h"

#define VX_JSON_PATH_MAX 192    /* bytes: the deepest known path plus one shortened unknown key */
#define VX_JSON_KEY_SHOWN_MAX 40 /* bytes of an unknown key shown in a path; longer ones end in "..." */

typedef struct {
    const char *source; /* file name that starts every message */
    vx_error *err;      /* where vx_json_fail writes (may be NULL) */
    size_t path_length;
    char path[VX_JSON_PATH_MAX]; /* "" is the root */
} vx_json_reader;

/* Accepted values of a float besides being finite and fitting a float. */
typedef enum {
    VX_JSON_ANY,          /* any finite value */
    VX_JSON_POSITIVE,     /* > 0 */
    VX_JSON_NON_NEGATIVE, /* >= 0 */
    VX_JSON_UNIT,         /* 0..1 */
    VX_JSON_SIZE,         /* a shape's size: > 0 and at most VX_MAX_SHAPE_SIZE */
    VX_JSON_COORDINATE    /* a point of a shape: -VX_MAX_SHAPE_SIZE..VX_MAX_SHAPE_SIZE */
} vx_json_range;

void vx_json_reader_init(vx_json_reader *r, const char *source, vx_error *err);

/* Appends ".key" (or "key" at the root) / "[index]"; returns a mark for pop.
 * Bytes of a key outside printable ASCII show as '?'. */
size_t vx_json_path_push_key(vx_json_reader *r, const char *key);
size_t vx_json_path_push_index(vx_json_reader *r, size_t index);
void vx_json_path_pop(vx_json_reader *r, size_t mark);

/* "SOURCE: PATH: <message>" ("(root)" for the empty path) into out. */
void vx_json_error_at(const vx_json_reader *r, vx_error *out, vx_status code, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;
/* The same into the reader's error; returns code. */
vx_status vx_json_fail(vx_json_reader *r, vx_status code, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
/* "SOURCE: PATH.key: missing (required<detail>)", detail e.g. " for a sphere" or "". */
vx_status vx_json_missing(vx_json_reader *r, const char *key, const char *detail);

/* Run with the member's key pushed: VX_ERR_INVALID when member's key is not
 * one of keys ("unknown key" with a did-you-mean hint or the list of keys) or
 * repeats an earlier key of object ("duplicate key"). */
vx_status vx_json_check_member(vx_json_reader *r, const cJSON *object, const cJSON *member,
                               const char *const *keys, size_t key_count);

vx_status vx_json_expect_object(vx_json_reader *r, const cJSON *item);
vx_status vx_json_expect_array(vx_json_reader *r, const cJSON *item);
/* A number that is finite and fits a float, converted, then checked against range. */
vx_status vx_json_read_float(vx_json_reader *r, const cJSON *item, vx_json_range range, float *out);
/* An integral number in min..max. */
vx_status vx_json_read_int(vx_json_reader *r, const cJSON *item, int64_t min, int64_t max, int64_t *out);
/* An array of exactly count numbers, each in range (element errors name
 * the element: "spacing[1]"). */
vx_status vx_json_read_floats(vx_json_reader *r, const cJSON *item, int count, vx_json_range range, float *out);
/* [x, y, z], each in range (element errors name the element: "position[1]"). */
vx_status vx_json_read_vec3(vx_json_reader *r, const cJSON *item, vx_json_range range, vx_vec3 *out);
/* [x, y, z, w] as given (not normalised). */
vx_status vx_json_read_quat(vx_json_reader *r, const cJSON *item, vx_quat *out);
vx_status vx_json_read_bool(vx_json_reader *r, const cJSON *item, bool *out);
/* The string stays owned by item. */
vx_status vx_json_read_string(vx_json_reader *r, const cJSON *item, const char **out);

#endif
