/* Scene files to a world: the JSON syntax check and parse, the top-level
 * keys, and the scene's lifetime (scene_file.c reads the file). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scene/json_place.h"
#include "scene/json_syntax.h"
#include "scene/json_utf8.h"
#include "voltex/limits.h"
#include "scene/scene_internal.h"

/* "$schema": where an editor finds the scene's JSON Schema (voltex-sim
 * --schema); a string, not used by the loader. */
static const char *const top_keys[] = {"name",     "gravity", "dt",     "steps",  "solver",
                                       "shapes",   "entities", "queries", "joints", "$schema"};

static char *copy_string(const char *s, size_t length)
{
    char *copy = malloc(length + 1);
    if (copy) {
        memcpy(copy, s, length);
        copy[length] = '\0';
    }
    return copy;
}

/* The file name without its directory and without a trailing ".json". */
static char *default_scene_name(const char *source)
{
    if (strcmp(source, VX_SCENE_STDIN_NAME) == 0) return copy_string("stdin", 5);
    const char *base = strrchr(source, '/');
    base = base ? base + 1 : source;
    size_t length = strlen(base);
    if (length > 5 && strcmp(base + length - 5, ".json") == 0) length -= 5;
    if (length == 0) return copy_string("scene", 5); /* a path ending in '/' */
    return copy_string(base, length);
}

static vx_status read_dt(vx_json_reader *r, const cJSON *m, float *dt)
{
    vx_status st = vx_json_read_float(r, m, VX_JSON_POSITIVE, dt);
    if (st == VX_OK && *dt > VX_MAX_DT)
        st = vx_json_fail(r, VX_ERR_INVALID, "must be at most " VX_MAX_DT_TEXT " (s): %s", VX_MAX_DT_WHY);
    return st;
}

static vx_status read_top_member(vx_scene_builder *b, const cJSON *m)
{
    vx_json_reader *r = &b->json;
    vx_scene *scene = b->scene;
    const char *key = m->string;
    if (strcmp(key, "name") == 0) {
        const char *name = NULL;
        vx_status st = vx_json_read_string(r, m, &name);
        if (st != VX_OK) return st;
        scene->name = copy_string(name, strlen(name));
        return scene->name ? VX_OK : vx_scene_fail_nomem(b);
    }
    if (strcmp(key, "$schema") == 0) {
        const char *schema = NULL;
        return vx_json_read_string(r, m, &schema);
    }
    if (strcmp(key, "gravity") == 0) return vx_json_read_vec3(r, m, VX_JSON_ANY, &b->def.gravity);
    if (strcmp(key, "dt") == 0) return read_dt(r, m, &b->def.fixed_dt);
    if (strcmp(key, "steps") == 0) return vx_json_read_int(r, m, 0, VX_SCENE_MAX_STEPS, &scene->steps);
    if (strcmp(key, "solver") == 0) return vx_scene_read_solver(b, m);
    if (strcmp(key, "queries") == 0) {
        b->queries = m;
        return VX_OK;
    }
    if (strcmp(key, "joints") == 0) {
        b->joints = m;
        return VX_OK;
    }
    if (strcmp(key, "shapes") == 0) return VX_OK; /* read first */
    return vx_scene_read_entities(b, m);
}

static vx_status read_scene(vx_scene_builder *b, const cJSON *root)
{
    vx_scene *scene = b->scene;
    b->def = vx_world_def_default();
    scene->world = vx_world_create(&b->def, NULL);
    if (!scene->world) return vx_scene_fail_nomem(b);
    scene->steps = VX_SCENE_DEFAULT_STEPS;
    vx_status st = VX_OK;

    vx_json_reader *r = &b->json;
    if (!cJSON_IsObject(root)) return vx_json_fail(r, VX_ERR_INVALID, "must be a JSON object");
    const cJSON *shapes = cJSON_GetObjectItemCaseSensitive(root, "shapes");
    if (shapes) {
        size_t mark = vx_json_path_push_key(r, "shapes");
        st = vx_scene_read_shapes(b, shapes);
        vx_json_path_pop(r, mark);
        if (st != VX_OK) return st;
    }
    bool has_entities = false;
    for (const cJSON *m = root->child; st == VX_OK && m; m = m->next) {
        size_t mark = vx_json_path_push_key(r, m->string);
        st = vx_json_check_member(r, root, m, top_keys, sizeof top_keys / sizeof top_keys[0]);
        if (st == VX_OK) st = read_top_member(b, m);
        has_entities = has_entities || strcmp(m->string, "entities") == 0;
        vx_json_path_pop(r, mark);
    }
    if (st != VX_OK) return st;
    if (!has_entities) return vx_json_missing(r, "entities", "");
    if (b->queries) {
        size_t mark = vx_json_path_push_key(r, "queries");
        st = vx_scene_read_queries(b, b->queries);
        vx_json_path_pop(r, mark);
        if (st != VX_OK) return st;
    }
    if (b->joints) {
        size_t mark = vx_json_path_push_key(r, "joints");
        st = vx_scene_read_joints(b, b->joints);
        vx_json_path_pop(r, mark);
        if (st != VX_OK) return st;
    }
    vx_error def_err;
    st = vx_world_set_def(scene->world, &b->def, &def_err);
    if (st != VX_OK) return vx_error_set(r->err, st, "%s: %s", b->json.source, def_err.message);
    if (!scene->name) {
        scene->name = default_scene_name(b->json.source);
        if (!scene->name) return vx_scene_fail_nomem(b);
    }
    return VX_OK;
}

/* text[length] must be '\0' (cJSON's require_null_terminated checks for it). */
static vx_status load_text(const char *text, size_t length, const char *source, const vx_scene_set *sets,
                           size_t set_count, vx_scene *scene, vx_error *err)
{
    vx_json_syntax_error syntax;
    if (!vx_json_check_syntax(text, length, &syntax)) {
        vx_json_place at = vx_json_place_of(text, length, syntax.offset);
        return vx_error_set(err, VX_ERR_SYNTAX, syntax.empty ? "%s:%zu:%zu: %s" : "%s:%zu:%zu: invalid JSON (%s)",
                            source, at.line, at.column, syntax.hint);
    }
    const char *end = NULL;
    cJSON *root = cJSON_ParseWithLengthOpts(text, length + 1, &end, true);
    if (!root) {
        /* The strict check passed, so only cJSON's own limits (or memory) remain. */
        size_t offset = end && end >= text ? (size_t)(end - text) : 0;
        vx_json_place at = vx_json_place_of(text, length, offset);
        return vx_error_set(err, VX_ERR_SYNTAX, "%s:%zu:%zu: invalid JSON (rejected by the JSON parser)", source,
                            at.line, at.column);
    }
    vx_status st = vx_scene_apply_sets(root, sets, set_count, err);
    if (st != VX_OK) {
        cJSON_Delete(root);
        return st;
    }
    vx_scene_builder b;
    memset(&b, 0, sizeof b);
    vx_json_reader_init(&b.json, source, err);
    b.scene = scene;
    st = vx_json_check_utf8(&b.json, root);
    if (st == VX_OK) st = read_scene(&b, root);
    vx_name_index_free(&b.names);
    free(b.shape_names);
    free(b.shapes);
    cJSON_Delete(root);
    return st;
}

vx_status vx_scene_load(const vx_scene_source *source, vx_scene *scene, vx_error *err)
{
    memset(scene, 0, sizeof *scene);
    vx_error_clear(err);
    char *text = NULL;
    size_t length = 0;
    const char *name = source->path ? source->path : source->display_path ? source->display_path : "<fd>";
    vx_status st = source->path ? vx_scene_read_file(source->path, &text, &length, err)
                                : vx_scene_read_fd(source->fd, false, name, &text, &length, err);
    if (st != VX_OK) return st;
    st = load_text(text, length, name, source->sets, source->set_count, scene, err);
    free(text);
    if (st != VX_OK) vx_scene_destroy(scene);
    return st;
}

vx_status vx_scene_load_fd(int fd, const char *display_path, vx_scene *scene, vx_error *err)
{
    vx_scene_source source = {NULL, fd, display_path, NULL, 0};
    return vx_scene_load(&source, scene, err);
}

vx_status vx_scene_load_file(const char *path, vx_scene *scene, vx_error *err)
{
    vx_scene_source source = {path, -1, NULL, NULL, 0};
    return vx_scene_load(&source, scene, err);
}

vx_status vx_scene_load_string(const char *text, size_t length, const char *display_path, vx_scene *scene,
                               vx_error *err)
{
    memset(scene, 0, sizeof *scene);
    vx_error_clear(err);
    const char *source = display_path ? display_path : "<string>";
    if (!text && length > 0) return vx_error_set(err, VX_ERR_INVALID, "%s: no text given", source);
    char *copy = copy_string(text ? text : "", length); /* cJSON wants the '\0' inside its length */
    if (!copy) return vx_error_set(err, VX_ERR_NOMEM, "%s: out of memory", source);
    vx_status st = load_text(copy, length, source, NULL, 0, scene, err);
    free(copy);
    if (st != VX_OK) vx_scene_destroy(scene);
    return st;
}

void vx_scene_destroy(vx_scene *scene)
{
    if (!scene) return;
    vx_world_destroy(scene->world);
    if (scene->names)
        for (size_t i = 0; i < scene->entity_count; i++) free(scene->names[i]);
    free(scene->names);
    free(scene->entities);
    for (size_t i = 0; i < scene->query_count; i++) {
        free((void *)scene->queries[i].filter.ignore);
        if (scene->query_names) free(scene->query_names[i]);
    }
    free(scene->queries);
    if (scene->joint_names)
        for (size_t i = 0; i < scene->joint_count; i++) free(scene->joint_names[i]);
    free(scene->joint_names);
    free(scene->joints);
    free(scene->query_names);
    free(scene->name);
    memset(scene, 0, sizeof *scene);
}
