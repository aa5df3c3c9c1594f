/* The "queries" array: rays, sphere casts and overlaps asked of the world at
 * every written frame (docs/scene_format.md, "Queries"). Read after the
 * entities, whose names they refer to. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scene/scene_internal.h"

#define KEYS(array) array, sizeof array / sizeof array[0]

static const char *const ray_keys[] = {"name",     "type",   "origin",  "direction", "max_distance",
                                       "attached_to", "ignore", "sensors", "all_hits"};
static const char *const sphere_cast_keys[] = {"name",        "type",   "origin",  "direction", "max_distance",
                                               "radius",      "attached_to", "ignore", "sensors", "all_hits"};
static const char *const overlap_keys[] = {"name", "type", "shape", "attached_to", "ignore", "sensors"};
static const char *const any_query_keys[] = {"name",   "type",        "origin", "direction", "max_distance", "radius",
                                             "shape",  "attached_to", "ignore", "sensors",   "all_hits"};

typedef struct {
    const char *name;
    vx_query_type type;
    const char *const *keys;
    size_t key_count;
} query_info;

static const query_info query_types[] = {
    {"ray", VX_QUERY_RAY, KEYS(ray_keys)},
    {"sphere_cast", VX_QUERY_SPHERE_CAST, KEYS(sphere_cast_keys)},
    {"overlap", VX_QUERY_OVERLAP, KEYS(overlap_keys)},
};

/* The type decides which keys belong (vx_scene_read_kind). */
static vx_status read_type(vx_json_reader *r, const cJSON *object, const query_info **out)
{
    const char *query_type_names[sizeof query_types / sizeof query_types[0]];
    for (size_t i = 0; i < sizeof query_types / sizeof query_types[0]; i++) query_type_names[i] = query_types[i].name;
    size_t kind = 0;
    vx_status st = vx_scene_read_kind(r, object, query_type_names, sizeof query_types / sizeof query_types[0], KEYS(any_query_keys),
                                      "\"ray\", \"sphere_cast\" or \"overlap\"", &kind);
    if (st == VX_OK) *out = &query_types[kind];
    return st;
}

static vx_status read_entity_name(vx_scene_builder *b, const cJSON *item, vx_entity *out)
{
    size_t index = 0;
    vx_status st = vx_scene_read_entity_ref(b, item, &index);
    if (st == VX_OK) *out = b->scene->entities[index];
    return st;
}

static vx_status read_ignore(vx_scene_builder *b, const cJSON *item, vx_query_def *q)
{
    vx_status st = vx_json_expect_array(&b->json, item);
    if (st != VX_OK) return st;
    size_t n = (size_t)cJSON_GetArraySize(item);
    vx_entity *ignore = calloc(n ? n : 1u, sizeof *ignore);
    if (!ignore) return vx_scene_fail_nomem(b);
    q->filter.ignore = ignore; /* owned by the scene from here on */
    size_t i = 0;
    for (const cJSON *e = item->child; st == VX_OK && e; e = e->next, i++) {
        size_t mark = vx_json_path_push_index(&b->json, i);
        st = read_entity_name(b, e, &ignore[i]);
        vx_json_path_pop(&b->json, mark);
    }
    q->filter.ignore_count = i;
    return st;
}

typedef struct {
    bool origin, direction, radius, shape;
} given_keys;

static vx_status read_query_member(vx_scene_builder *b, const cJSON *m, vx_query_def *q, given_keys *given)
{
    vx_json_reader *r = &b->json;
    const char *key = m->string;
    if (strcmp(key, "origin") == 0) {
        given->origin = true;
        return vx_json_read_vec3(r, m, VX_JSON_ANY, &q->origin);
    }
    if (strcmp(key, "direction") == 0) {
        given->direction = true;
        vx_status st = vx_json_read_vec3(r, m, VX_JSON_ANY, &q->direction);
        if (st == VX_OK && !(vx_vec3_length(q->direction) > 0.0f))
            st = vx_json_fail(r, VX_ERR_INVALID, "must not be zero");
        return st;
    }
    if (strcmp(key, "max_distance") == 0) return vx_json_read_float(r, m, VX_JSON_POSITIVE, &q->max_distance);
    if (strcmp(key, "radius") == 0) {
        given->radius = true;
        return vx_json_read_float(r, m, VX_JSON_POSITIVE, &q->radius);
    }
    if (strcmp(key, "shape") == 0) {
        given->shape = true;
        return vx_scene_read_placed_shape(b, m, &q->shape, &q->shape_pose);
    }
    if (strcmp(key, "attached_to") == 0) return read_entity_name(b, m, &q->attached_to);
    if (strcmp(key, "ignore") == 0) return read_ignore(b, m, q);
    if (strcmp(key, "sensors") == 0) return vx_json_read_bool(r, m, &q->filter.sensors);
    if (strcmp(key, "all_hits") == 0) return vx_json_read_bool(r, m, &q->all_hits);
    return VX_OK; /* "type", read already; "name", read by the caller */
}

static vx_status check_required(vx_json_reader *r, vx_query_type type, const given_keys *given)
{
    if (type == VX_QUERY_OVERLAP) return given->shape ? VX_OK : vx_json_missing(r, "shape", " for an overlap");
    const char *kind = type == VX_QUERY_RAY ? " for a ray" : " for a sphere_cast";
    if (!given->origin) return vx_json_missing(r, "origin", kind);
    if (!given->direction) return vx_json_missing(r, "direction", kind);
    if (type == VX_QUERY_SPHERE_CAST && !given->radius) return vx_json_missing(r, "radius", kind);
    return VX_OK;
}

static vx_status read_query(vx_scene_builder *b, vx_name_index *names, const cJSON *query, size_t index)
{
    vx_json_reader *r = &b->json;
    vx_status st = vx_json_expect_object(r, query);
    const query_info *info = NULL;
    if (st == VX_OK) st = read_type(r, query, &info);
    if (st != VX_OK) return st;
    vx_query_def *q = &b->scene->queries[index];
    q->type = info->type;
    given_keys given = {false, false, false, false};
    for (const cJSON *m = query->child; st == VX_OK && m; m = m->next) {
        size_t mark = vx_json_path_push_key(r, m->string);
        st = vx_json_check_member(r, query, m, info->keys, info->key_count);
        if (st == VX_OK) st = read_query_member(b, m, q, &given);
        vx_json_path_pop(r, mark);
    }
    if (st == VX_OK) st = check_required(r, info->type, &given);
    if (st == VX_OK) st = vx_scene_read_item_name(b, names, query, index, "query", "queries", b->scene->query_names);
    return st;
}

vx_status vx_scene_read_queries(vx_scene_builder *b, const cJSON *queries)
{
    vx_status st = vx_json_expect_array(&b->json, queries);
    if (st != VX_OK) return st;
    vx_scene *scene = b->scene;
    size_t count = (size_t)cJSON_GetArraySize(queries);
    if (count == 0) return VX_OK;
    scene->queries = calloc(count, sizeof *scene->queries);
    scene->query_names = calloc(count, sizeof *scene->query_names);
    if (!scene->queries || !scene->query_names) return vx_scene_fail_nomem(b);
    scene->query_count = count; /* every query has its defaults from here, so the scene frees them all */
    for (size_t i = 0; i < count; i++) scene->queries[i] = vx_query_def_default();
    vx_name_index names;
    if (vx_name_index_init(&names, count) != VX_OK) return vx_scene_fail_nomem(b);
    size_t index = 0;
    for (const cJSON *q = queries->child; st == VX_OK && q; q = q->next, index++) {
        size_t mark = vx_json_path_push_index(&b->json, index);
        st = read_query(b, &names, q, index);
        vx_json_path_pop(&b->json, mark);
    }
    vx_name_index_free(&names);
    return st;
}
