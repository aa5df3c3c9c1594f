/* Typed, path-aware reads of cJSON values. */
#include "scene/json_read.h"

#include <float.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "scene/did_you_mean.h"
#include "voltex/limits.h"

#define VX_JSON_KEY_LIST_MAX 256 /* bytes of "a, b, c" listing the valid keys of an object */

void vx_json_reader_init(vx_json_reader *r, const char *source, vx_error *err)
{
    memset(r, 0, sizeof *r);
    r->source = source;
    r->err = err;
}

/* Appends bytes, dropping what does not fit (the message stays readable). */
static void path_append(vx_json_reader *r, const char *bytes, size_t count)
{
    size_t room = sizeof r->path - 1 - r->path_length;
    if (count > room) count = room;
    memcpy(r->path + r->path_length, bytes, count);
    r->path_length += count;
    r->path[r->path_length] = '\0';
}

size_t vx_json_path_push_key(vx_json_reader *r, const char *key)
{
    size_t mark = r->path_length;
    if (mark > 0) path_append(r, ".", 1);
    size_t length = strlen(key);
    size_t shown = length > VX_JSON_KEY_SHOWN_MAX ? VX_JSON_KEY_SHOWN_MAX : length;
    for (size_t i = 0; i < shown; i++) {
        unsigned char b = (unsigned char)key[i];
        char c = (b >= 0x20 && b < 0x7f) ? (char)b : '?'; /* keep control bytes out of one-line messages */
        path_append(r, &c, 1);
    }
    if (shown < length) path_append(r, "...", 3);
    return mark;
}

size_t vx_json_path_push_index(vx_json_reader *r, size_t index)
{
    size_t mark = r->path_length;
    char text[32];
    int n = snprintf(text, sizeof text, "[%zu]", index);
    if (n > 0) path_append(r, text, (size_t)n);
    return mark;
}

void vx_json_path_pop(vx_json_reader *r, size_t mark)
{
    if (mark < r->path_length) {
        r->path_length = mark;
        r->path[mark] = '\0';
    }
}

static void format_error(const vx_json_reader *r, vx_error *out, vx_status code, const char *fmt, va_list ap)
{
    if (!out) return;
    out->code = code;
    int n = snprintf(out->message, sizeof out->message, "%s: %s: ", r->source,
                     r->path_length > 0 ? r->path : "(root)");
    if (n < 0) n = 0;
    size_t used = (size_t)n < sizeof out->message ? (size_t)n : sizeof out->message - 1;
    vsnprintf(out->message + used, sizeof out->message - used, fmt, ap);
}

void vx_json_error_at(const vx_json_reader *r, vx_error *out, vx_status code, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    format_error(r, out, code, fmt, ap);
    va_end(ap);
}

vx_status vx_json_fail(vx_json_reader *r, vx_status code, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    format_error(r, r->err, code, fmt, ap);
    va_end(ap);
    return code;
}

vx_status vx_json_missing(vx_json_reader *r, const char *key, const char *detail)
{
    size_t mark = vx_json_path_push_key(r, key);
    vx_status st = vx_json_fail(r, VX_ERR_INVALID, "missing (required%s)", detail);
    vx_json_path_pop(r, mark);
    return st;
}

static void list_keys(char *out, size_t size, const char *const *keys, size_t key_count)
{
    size_t used = 0;
    out[0] = '\0';
    for (size_t i = 0; i < key_count && used < size; i++) {
        int n = snprintf(out + used, size - used, "%s%s", i > 0 ? ", " : "", keys[i]);
        if (n < 0) break;
        used += (size_t)n;
    }
}

vx_status vx_json_check_member(vx_json_reader *r, const cJSON *object, const cJSON *member,
                               const char *const *keys, size_t key_count)
{
    const char *key = member->string;
    bool known = false;
    for (size_t i = 0; i < key_count && !known; i++) known = strcmp(key, keys[i]) == 0;
    if (!known) {
        const char *hint = vx_did_you_mean(key, keys, key_count);
        if (hint) return vx_json_fail(r, VX_ERR_INVALID, "unknown key (did you mean \"%s\"?)", hint);
        char list[VX_JSON_KEY_LIST_MAX];
        list_keys(list, sizeof list, keys, key_count);
        return vx_json_fail(r, VX_ERR_INVALID, "unknown key (expected one of: %s)", list);
    }
    /* Only known, distinct keys come before member (an unknown or repeated one
     * stops the read), so this scan is short. */
    for (const cJSON *m = object->child; m && m != member; m = m->next)
        if (strcmp(m->string, key) == 0) return vx_json_fail(r, VX_ERR_INVALID, "duplicate key");
    return VX_OK;
}

vx_status vx_json_expect_object(vx_json_reader *r, const cJSON *item)
{
    return cJSON_IsObject(item) ? VX_OK : vx_json_fail(r, VX_ERR_INVALID, "must be an object");
}

vx_status vx_json_expect_array(vx_json_reader *r, const cJSON *item)
{
    return cJSON_IsArray(item) ? VX_OK : vx_json_fail(r, VX_ERR_INVALID, "must be an array");
}

static bool fits_float(double d) { return isfinite(d) && fabs(d) <= (double)FLT_MAX; }

static vx_status fail_not_float(vx_json_reader *r)
{
    return vx_json_fail(r, VX_ERR_INVALID, "must be a finite number that fits a 32-bit float");
}

vx_status vx_json_read_float(vx_json_reader *r, const cJSON *item, vx_json_range range, float *out)
{
    if (!cJSON_IsNumber(item)) return vx_json_fail(r, VX_ERR_INVALID, "must be a number");
    if (!fits_float(item->valuedouble)) return fail_not_float(r);
    /* The range is checked on the float that will be used, so 1e-50 is not "> 0". */
    float f = (float)item->valuedouble;
    switch (range) {
    case VX_JSON_POSITIVE:
        if (!(f > 0.0f)) return vx_json_fail(r, VX_ERR_INVALID, "must be > 0");
        break;
    case VX_JSON_NON_NEGATIVE:
        if (!(f >= 0.0f)) return vx_json_fail(r, VX_ERR_INVALID, "must be >= 0");
        break;
    case VX_JSON_UNIT:
        if (!(f >= 0.0f && f <= 1.0f)) return vx_json_fail(r, VX_ERR_INVALID, "must be between 0 and 1");
        break;
    case VX_JSON_SIZE:
        if (!(f > 0.0f)) return vx_json_fail(r, VX_ERR_INVALID, "must be > 0");
        if (!(f <= VX_MAX_SHAPE_SIZE))
            return vx_json_fail(r, VX_ERR_INVALID, "must be at most %g (m)", (double)VX_MAX_SHAPE_SIZE);
        break;
    case VX_JSON_COORDINATE:
        if (!(fabsf(f) <= VX_MAX_SHAPE_SIZE))
            return vx_json_fail(r, VX_ERR_INVALID, "must be between %g and %g (m)", -(double)VX_MAX_SHAPE_SIZE,
                                (double)VX_MAX_SHAPE_SIZE);
        break;
    case VX_JSON_ANY:
    default:
        break;
    }
    *out = f;
    return VX_OK;
}

vx_status vx_json_read_int(vx_json_reader *r, const cJSON *item, int64_t min, int64_t max, int64_t *out)
{
    if (!cJSON_IsNumber(item)) return vx_json_fail(r, VX_ERR_INVALID, "must be an integer");
    double d = item->valuedouble;
    if (!fits_float(d)) return fail_not_float(r);
    if (d != floor(d)) return vx_json_fail(r, VX_ERR_INVALID, "must be an integer");
    if (d < (double)min || d > (double)max)
        return vx_json_fail(r, VX_ERR_INVALID, "must be between %lld and %lld", (long long)min, (long long)max);
    *out = (int64_t)d;
    return VX_OK;
}

vx_status vx_json_read_floats(vx_json_reader *r, const cJSON *item, int count, vx_json_range range, float *out)
{
    if (!cJSON_IsArray(item) || cJSON_GetArraySize(item) != count)
        return vx_json_fail(r, VX_ERR_INVALID, "must be an array of %d numbers", count);
    size_t i = 0;
    for (const cJSON *e = item->child; e; e = e->next, i++) {
        size_t mark = vx_json_path_push_index(r, i);
        vx_status st = vx_json_read_float(r, e, range, &out[i]);
        vx_json_path_pop(r, mark);
        if (st != VX_OK) return st;
    }
    return VX_OK;
}

vx_status vx_json_read_vec3(vx_json_reader *r, const cJSON *item, vx_json_range range, vx_vec3 *out)
{
    float v[3];
    vx_status st = vx_json_read_floats(r, item, 3, range, v);
    if (st == VX_OK) *out = vx_vec3_make(v[0], v[1], v[2]);
    return st;
}

vx_status vx_json_read_quat(vx_json_reader *r, const cJSON *item, vx_quat *out)
{
    float v[4];
    vx_status st = vx_json_read_floats(r, item, 4, VX_JSON_ANY, v);
    if (st == VX_OK) *out = vx_quat_make(v[0], v[1], v[2], v[3]);
    return st;
}

vx_status vx_json_read_bool(vx_json_reader *r, const cJSON *item, bool *out)
{
    if (!cJSON_IsBool(item)) return vx_json_fail(r, VX_ERR_INVALID, "must be true or false");
    *out = cJSON_IsTrue(item) != 0;
    return VX_OK;
}

vx_status vx_json_read_string(vx_json_reader *r, const cJSON *item, const char **out)
{
    if (!cJSON_IsString(item) || !item->valuestring) return vx_json_fail(r, VX_ERR_INVALID, "must be a string");
    *out = item->valuestring;
    return VX_OK;
}
