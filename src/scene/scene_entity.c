/* The "entities" array: each entity's keys, its name, then the entity itself
 * in the world. */
#include <float.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/assert.h"
#include "scene/scene_internal.h"

static const char *const entity_keys[] = {"name", "transform", "collider", "rigidbody"};

/* Gives entity `index` its name (copied into the scene); run with "name" on the path. */
static vx_status claim_name(vx_scene_builder *b, const char *name, size_t index)
{
    size_t length = strlen(name);
    char *copy = malloc(length + 1);
    if (!copy) return vx_scene_fail_nomem(b);
    memcpy(copy, name, length + 1);
    b->scene->names[index] = copy;
    size_t other = vx_name_index_claim(&b->names, b->scene->names, copy, index);
    if (other != VX_NAME_NONE)
        return vx_json_fail(&b->json, VX_ERR_INVALID, "duplicate name \"%s\" (also entities[%zu])", name, other);
    return VX_OK;
}

static vx_status read_name(vx_scene_builder *b, const cJSON *item, size_t index)
{
    const char *name = NULL;
    vx_status st = vx_json_read_string(&b->json, item, &name);
    if (st == VX_OK && !vx_scene_name_valid(name))
        st = vx_json_fail(&b->json, VX_ERR_INVALID, "must be 1-64 letters, digits, '_', '.' or '-'");
    if (st == VX_OK) st = claim_name(b, name, index);
    return st;
}

static vx_status default_name(vx_scene_builder *b, size_t index)
{
    char name[32];
    snprintf(name, sizeof name, "entity%zu", index);
    size_t mark = vx_json_path_push_key(&b->json, "name");
    vx_status st = claim_name(b, name, index);
    vx_json_path_pop(&b->json, mark);
    return st;
}

/* A failure of the world API (the values were checked on reading: memory). */
static vx_status world_failed(vx_scene_builder *b, vx_status st, const vx_error *err)
{
    if (st == VX_ERR_NOMEM) return vx_scene_fail_nomem(b);
    return vx_json_fail(&b->json, st, "%s", err->message);
}

/* density * the collider's volume, with the density's path in a message. */
static vx_status mass_from_density(vx_scene_builder *b, const vx_scene_entity_def *def, float *mass)
{
    double m = (double)def->density * (double)vx_collider_volume(&def->collider);
    if (def->has_collider && m > 0.0 && m <= (double)FLT_MAX) {
        *mass = (float)m;
        return VX_OK;
    }
    size_t mark = vx_json_path_push_key(&b->json, "rigidbody");
    size_t mark_density = vx_json_path_push_key(&b->json, "density");
    vx_status st = def->has_collider
                       ? vx_json_fail(&b->json, VX_ERR_INVALID, "gives a mass of %g kg, out of range", m)
                       : vx_json_fail(&b->json, VX_ERR_INVALID, "needs a collider (the mass is spread over its volume)");
    vx_json_path_pop(&b->json, mark_density);
    vx_json_path_pop(&b->json, mark);
    return st;
}

/* An entity with neither collider nor rigidbody is a transform alone. */
static vx_status spawn_frame(vx_scene_builder *b, const vx_transform *t, vx_entity *e)
{
    vx_registry *registry = vx_world_registry(b->scene->world);
    vx_status st = vx_registry_spawn(registry, e);
    if (st == VX_OK) st = vx_registry_add(registry, *e, VX_COMPONENT_TRANSFORM, t);
    if (st == VX_ERR_NOMEM) return vx_scene_fail_nomem(b);
    if (st != VX_OK) return vx_json_fail(&b->json, st, "could not be added to the world");
    return VX_OK;
}

/* A mesh takes no dynamic body, a heightfield no moving one: said at the
 * collider, which is what would have to change. */
static vx_status check_surface_body(vx_scene_builder *b, const vx_scene_entity_def *def)
{
    vx_shape_type shape = def->collider.type;
    vx_body_type type = def->has_rigidbody ? def->body.type : VX_BODY_STATIC;
    const char *problem = NULL;
    if (shape == VX_SHAPE_MESH && type == VX_BODY_DYNAMIC)
        problem = "a mesh needs a static or kinematic body; a dynamic body needs a \"convex\" or \"compound\" "
                  "collider";
    if (shape == VX_SHAPE_HEIGHTFIELD && type != VX_BODY_STATIC)
        problem = "a heightfield needs a static body; a moving body needs a \"convex\" or \"compound\" collider";
    if (!problem) return VX_OK;
    size_t mark = vx_json_path_push_key(&b->json, "collider");
    vx_status st = vx_json_fail(&b->json, VX_ERR_INVALID, "%s", problem);
    vx_json_path_pop(&b->json, mark);
    return st;
}

/* Every entity has a transform; a collider without a rigidbody is a static body. */
static vx_status spawn(vx_scene_builder *b, const vx_scene_entity_def *def, size_t index)
{
    vx_entity e;
    vx_status st;
    if (def->has_collider) {
        st = check_surface_body(b, def);
        if (st != VX_OK) return st;
    }
    if (def->has_rigidbody || def->has_collider) {
        vx_rigidbody rb = def->has_rigidbody ? def->body : vx_rigidbody_static();
        if (def->has_density) {
            st = mass_from_density(b, def, &rb.mass);
            if (st != VX_OK) return st;
        }
        vx_body_def body = vx_body_def_of(&def->transform, &rb);
        vx_error err;
        st = vx_world_create_body(b->scene->world, &body, &e, &err);
        if (st == VX_OK && def->has_collider) st = vx_body_set_shape(b->scene->world, e, &def->collider, &err);
        if (st != VX_OK) return world_failed(b, st, &err);
    } else {
        st = spawn_frame(b, &def->transform, &e);
        if (st != VX_OK) return st;
    }
    VX_ASSERT(e.index == index); /* a fresh world hands out slots in order: the traces rely on it */
    b->scene->entities[index] = e;
    return VX_OK;
}

static vx_status read_entity_member(vx_scene_builder *b, const cJSON *m, size_t index, vx_scene_entity_def *def)
{
    const char *key = m->string;
    if (strcmp(key, "name") == 0) return read_name(b, m, index);
    if (strcmp(key, "transform") == 0) return vx_scene_read_transform(b, m, def);
    if (strcmp(key, "collider") == 0) return vx_scene_read_collider(b, m, def);
    return vx_scene_read_rigidbody(b, m, def);
}

static vx_status read_entity(vx_scene_builder *b, const cJSON *entity, size_t index)
{
    vx_json_reader *r = &b->json;
    vx_status st = vx_json_expect_object(r, entity);
    if (st != VX_OK) return st;
    vx_scene_entity_def def;
    memset(&def, 0, sizeof def);
    def.transform = vx_transform_identity();
    for (const cJSON *m = entity->child; st == VX_OK && m; m = m->next) {
        size_t mark = vx_json_path_push_key(r, m->string);
        st = vx_json_check_member(r, entity, m, entity_keys, sizeof entity_keys / sizeof entity_keys[0]);
        if (st == VX_OK) st = read_entity_member(b, m, index, &def);
        vx_json_path_pop(r, mark);
    }
    if (st == VX_OK && !b->scene->names[index]) st = default_name(b, index);
    if (st != VX_OK) return st;
    return spawn(b, &def, index);
}

vx_status vx_scene_read_entities(vx_scene_builder *b, const cJSON *entities)
{
    vx_status st = vx_json_expect_array(&b->json, entities);
    if (st != VX_OK) return st;
    size_t count = 0;
    for (const cJSON *e = entities->child; e; e = e->next) count++;
    if (vx_name_index_init(&b->names, count) != VX_OK) return vx_scene_fail_nomem(b);
    if (count > 0) {
        b->scene->entities = calloc(count, sizeof *b->scene->entities);
        b->scene->names = calloc(count, sizeof *b->scene->names);
        if (!b->scene->entities || !b->scene->names) return vx_scene_fail_nomem(b);
        b->scene->entity_count = count; /* names[] is filled as entities are read; the rest stay NULL */
    }
    size_t index = 0;
    for (const cJSON *e = entities->child; st == VX_OK && e; e = e->next, index++) {
        size_t mark = vx_json_path_push_index(&b->json, index);
        st = read_entity(b, e, index);
        vx_json_path_pop(&b->json, mark);
    }
    return st;
}
