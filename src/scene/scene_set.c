/* Overrides of a scene's keys before it is checked (voltex-sim --set
 * PATH=VALUE): the JSON path walked in the parsed tree, missing objects on
 * the way made, the value parsed as JSON (a bare word is a string) and put
 * in place. The scene's own checks then judge the result as if the file had
 * said it. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scene/scene_internal.h"

#define SET_KEY_MAX 64

typedef struct {
    const vx_scene_set *set;
    vx_error *err;
} set_ctx;

static vx_status set_fail(const set_ctx *c, const char *why, const char *detail)
{
    return vx_error_set(c->err, VX_ERR_INVALID, "--set %s: %s%s", c->set->path, why, detail ? detail : "");
}

/* One step of the path: a key (letters, digits, '_') or an index ([N]). */
typedef struct {
    bool is_index;
    size_t index;
    char key[SET_KEY_MAX];
} path_step;

/* The step at *p, and *p moved past it (and past a '.' before a key); false
 * for a malformed path. */
static bool next_step(const char **p, bool first, path_step *out)
{
    const char *s = *p;
    memset(out, 0, sizeof *out);
    if (*s == '[') {
        if (first) return false;
        s++;
        if (!isdigit((unsigned char)*s)) return false;
        size_t n = 0;
        while (isdigit((unsigned char)*s)) {
            if (n > 100000000u) return false;
            n = n * 10u + (size_t)(*s - '0');
            s++;
        }
        if (*s != ']') return false;
        out->is_index = true;
        out->index = n;
        *p = s + 1;
        return true;
    }
    if (!first) {
        if (*s != '.') return false;
        s++;
    }
    size_t k = 0;
    while (isalnum((unsigned char)*s) || *s == '_') {
        if (k + 1 >= SET_KEY_MAX) return false;
        out->key[k++] = *s++;
    }
    if (k == 0) return false;
    *p = s;
    return true;
}

/* The value's JSON, or the text as a string when it is not JSON. */
static cJSON *parse_value(const char *text)
{
    cJSON *v = cJSON_ParseWithOpts(text, NULL, true);
    return v ? v : cJSON_CreateString(text);
}

static vx_status apply_one(cJSON *root, const set_ctx *c)
{
    const char *p = c->set->path;
    path_step step;
    if (!next_step(&p, true, &step))
        return set_fail(c, "not a JSON path (keys and [index], e.g. entities[1].rigidbody.mass)", NULL);
    cJSON *node = root;
    for (;;) {
        path_step next;
        bool last = *p == '\0';
        if (!last && !next_step(&p, false, &next))
            return set_fail(c, "not a JSON path (keys and [index], e.g. entities[1].rigidbody.mass)", NULL);
        cJSON *child = NULL;
        if (step.is_index) {
            if (!cJSON_IsArray(node)) return set_fail(c, "indexes something that is not an array", NULL);
            size_t size = (size_t)cJSON_GetArraySize(node);
            if (step.index >= size) {
                char detail[64];
                snprintf(detail, sizeof detail, " (it has %zu)", size);
                return set_fail(c, "no such item", detail);
            }
            child = cJSON_GetArrayItem(node, (int)step.index);
        } else {
            if (!cJSON_IsObject(node)) return set_fail(c, "names a key of something that is not an object", NULL);
            child = cJSON_GetObjectItemCaseSensitive(node, step.key);
        }
        if (last) {
            cJSON *value = parse_value(c->set->value);
            if (!value) return vx_error_set(c->err, VX_ERR_NOMEM, "--set: out of memory");
            bool ok = step.is_index ? cJSON_ReplaceItemInArray(node, (int)step.index, value)
                      : child       ? cJSON_ReplaceItemInObjectCaseSensitive(node, step.key, value)
                                    : cJSON_AddItemToObject(node, step.key, value);
            if (!ok) {
                cJSON_Delete(value);
                return vx_error_set(c->err, VX_ERR_NOMEM, "--set: out of memory");
            }
            return VX_OK;
        }
        if (!child) { /* a missing object on the way: made, as the file could say it */
            if (next.is_index) return set_fail(c, "no such array", NULL);
            child = cJSON_AddObjectToObject(node, step.key);
            if (!child) return vx_error_set(c->err, VX_ERR_NOMEM, "--set: out of memory");
        }
        node = child;
        step = next;
    }
}

vx_status vx_scene_apply_sets(cJSON *root, const vx_scene_set *sets, size_t count, vx_error *err)
{
    if (count > 0 && !cJSON_IsObject(root)) return VX_OK; /* the loader says what is wrong with the root */
    for (size_t i = 0; i < count; i++) {
        set_ctx c = {&sets[i], err};
        if (!sets[i].path || !sets[i].value) return vx_error_set(err, VX_ERR_INVALID, "--set: no path or value");
        vx_status st = apply_one(root, &c);
        if (st != VX_OK) return st;
    }
    return VX_OK;
}
