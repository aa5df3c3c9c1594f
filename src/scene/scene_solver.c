/* The "solver" object: engine settings into the scene's world def. */
#include <string.h>

#include "scene/scene_internal.h"

static const char *const solver_keys[] = {
    "iterations",     "position_iterations", "substeps",       "warm_starting",        "sleeping",
    "threads",        "restitution_threshold", "baumgarte_slop", "baumgarte_percent", "max_correction",
    "speculative_distance", "broadphase", "order", "reuse_contacts", "restitution"};

static vx_status read_broadphase(vx_json_reader *r, const cJSON *item, vx_broadphase_kind *out)
{
    const char *name = NULL;
    vx_status st = vx_json_read_string(r, item, &name);
    if (st != VX_OK) return st;
    if (strcmp(name, "tree") == 0)
        *out = VX_BROADPHASE_DYNAMIC_TREE;
    else if (strcmp(name, "bvh") == 0)
        *out = VX_BROADPHASE_BVH;
    else
        return vx_json_fail(r, VX_ERR_INVALID, "must be \"tree\" or \"bvh\"");
    return VX_OK;
}

static vx_status read_order(vx_json_reader *r, const cJSON *item, vx_solver_order *out)
{
    const char *name = NULL;
    vx_status st = vx_json_read_string(r, item, &name);
    if (st != VX_OK) return st;
    if (!vx_solver_order_from_name(name, out))
        return vx_json_fail(r, VX_ERR_INVALID, "must be \"sequential\" or \"colored\"");
    return VX_OK;
}

static vx_status read_restitution(vx_json_reader *r, const cJSON *item, vx_restitution_model *out)
{
    const char *name = NULL;
    vx_status st = vx_json_read_string(r, item, &name);
    if (st != VX_OK) return st;
    if (!vx_restitution_model_from_name(name, out))
        return vx_json_fail(r, VX_ERR_INVALID, "must be \"sequential\" or \"simultaneous\"");
    return VX_OK;
}

static vx_status read_int_setting(vx_json_reader *r, const cJSON *item, int64_t min, int64_t max, int *out)
{
    int64_t v;
    vx_status st = vx_json_read_int(r, item, min, max, &v);
    if (st == VX_OK) *out = (int)v;
    return st;
}

static vx_status read_solver_member(vx_scene_builder *b, const cJSON *m, vx_world_def *c)
{
    vx_json_reader *r = &b->json;
    const char *key = m->string;
    if (strcmp(key, "iterations") == 0) return read_int_setting(r, m, 1, VX_MAX_ITERATIONS, &c->iterations);
    if (strcmp(key, "position_iterations") == 0)
        return read_int_setting(r, m, 0, VX_MAX_POSITION_ITERATIONS, &c->position_iterations);
    if (strcmp(key, "substeps") == 0) return read_int_setting(r, m, 1, VX_MAX_SUBSTEPS, &c->substeps);
    if (strcmp(key, "threads") == 0) return read_int_setting(r, m, 1, VX_MAX_THREADS, &c->threads);
    if (strcmp(key, "warm_starting") == 0) return vx_json_read_bool(r, m, &c->warm_starting);
    if (strcmp(key, "sleeping") == 0) return vx_json_read_bool(r, m, &c->sleeping);
    if (strcmp(key, "reuse_contacts") == 0) return vx_json_read_bool(r, m, &c->reuse_contacts);
    if (strcmp(key, "broadphase") == 0) return read_broadphase(r, m, &c->broadphase);
    if (strcmp(key, "order") == 0) return read_order(r, m, &c->order);
    if (strcmp(key, "restitution") == 0) return read_restitution(r, m, &c->restitution);
    if (strcmp(key, "restitution_threshold") == 0)
        return vx_json_read_float(r, m, VX_JSON_NON_NEGATIVE, &c->restitution_threshold);
    if (strcmp(key, "baumgarte_slop") == 0) return vx_json_read_float(r, m, VX_JSON_NON_NEGATIVE, &c->baumgarte_slop);
    if (strcmp(key, "max_correction") == 0) return vx_json_read_float(r, m, VX_JSON_POSITIVE, &c->max_correction);
    if (strcmp(key, "speculative_distance") == 0)
        return vx_json_read_float(r, m, VX_JSON_NON_NEGATIVE, &c->speculative_distance);
    return vx_json_read_float(r, m, VX_JSON_UNIT, &c->baumgarte_percent); /* baumgarte_percent */
}

vx_status vx_scene_read_solver(vx_scene_builder *b, const cJSON *solver)
{
    vx_json_reader *r = &b->json;
    vx_status st = vx_json_expect_object(r, solver);
    if (st != VX_OK) return st;
    for (const cJSON *m = solver->child; st == VX_OK && m; m = m->next) {
        size_t mark = vx_json_path_push_key(r, m->string);
        st = vx_json_check_member(r, solver, m, solver_keys, sizeof solver_keys / sizeof solver_keys[0]);
        if (st == VX_OK) st = read_solver_member(b, m, &b->def);
        vx_json_path_pop(r, mark);
    }
    return st;
}

vx_status vx_scene_set_solver(vx_world_def *config, const char *key, const char *value, const char *source,
                              vx_error *err)
{
    vx_scene_builder b;
    memset(&b, 0, sizeof b);
    vx_json_reader_init(&b.json, source ? source : "(settings)", err);
    if (!config || !key || !value) return vx_json_fail(&b.json, VX_ERR_INVALID, "no setting given");
    cJSON *item = cJSON_ParseWithOpts(value, NULL, 1);
    if (!item) item = cJSON_CreateString(value); /* a bare word: colored, bvh */
    cJSON *solver = cJSON_CreateObject();
    if (!item || !solver) {
        cJSON_Delete(item);
        cJSON_Delete(solver);
        return vx_json_fail(&b.json, VX_ERR_NOMEM, "out of memory");
    }
    if (!cJSON_AddItemToObject(solver, key, item)) {
        cJSON_Delete(item);
        cJSON_Delete(solver);
        return vx_json_fail(&b.json, VX_ERR_NOMEM, "out of memory");
    }
    /* read into a copy: config changes only when the value is good */
    vx_world_def copy = *config;
    size_t mark = vx_json_path_push_key(&b.json, "solver");
    size_t mark_key = vx_json_path_push_key(&b.json, key);
    vx_status st = vx_json_check_member(&b.json, solver, solver->child, solver_keys,
                                        sizeof solver_keys / sizeof solver_keys[0]);
    if (st == VX_OK) st = read_solver_member(&b, solver->child, &copy);
    vx_json_path_pop(&b.json, mark_key);
    vx_json_path_pop(&b.json, mark);
    cJSON_Delete(solver);
    if (st == VX_OK) *config = copy;
    return st;
}
