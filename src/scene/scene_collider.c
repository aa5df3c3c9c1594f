/* Collider objects: an entity's "collider", and a placed shape (a query's
 * "shape"): the shape named by "type" and that shape's keys. A convex
 * collider's hull is made by the scene's world while it is read, once per
 * object (a shared shape is one hull for every entity that names it). */
#include <stdlib.h>
#include <string.h>

#include "scene/did_you_mean.h"
#include "scene/scene_internal.h"

#define KEYS(array) array, sizeof array / sizeof array[0]

/* an entity's collider */
static const char *const sphere_keys[] = {"type", "radius", "sensor", "category", "mask"};
static const char *const box_keys[] = {"type", "half_extents", "sensor", "category", "mask"};
static const char *const capsule_keys[] = {"type", "radius", "half_height", "sensor", "category", "mask"};
static const char *const convex_keys[] = {"type", "points", "sensor", "category", "mask"};
static const char *const mesh_keys[] = {"type", "vertices", "triangles", "obj", "sensor", "category", "mask"};
static const char *const heightfield_keys[] = {"type", "heights", "spacing", "sensor", "category", "mask"};
static const char *const compound_keys[] = {"type", "parts", "sensor", "category", "mask"};
static const char *const any_shape_keys[] = {"type",    "radius", "half_extents", "half_height", "points",
                                             "vertices", "triangles", "obj", "heights", "spacing",
                                             "parts",   "sensor", "category", "mask"};
/* a placed shape: no sensor flag, a position and a rotation instead */
static const char *const placed_sphere_keys[] = {"type", "radius", "position", "rotation", "rotation_deg"};
static const char *const placed_box_keys[] = {"type", "half_extents", "position", "rotation", "rotation_deg"};
static const char *const placed_capsule_keys[] = {"type",     "radius",   "half_height",
                                                   "position", "rotation", "rotation_deg"};
static const char *const placed_convex_keys[] = {"type", "points", "position", "rotation", "rotation_deg"};
static const char *const placed_any_keys[] = {"type",     "radius",   "half_extents", "half_height", "points",
                                               "position", "rotation", "rotation_deg"};

typedef struct {
    const char *name;
    vx_shape_type type;
    const char *const *keys;
    size_t key_count;
    const char *const *placed_keys; /* NULL: not a placed shape's type */
    size_t placed_key_count;
} shape_info;

static const shape_info shape_types[] = {
    {"sphere", VX_SHAPE_SPHERE, KEYS(sphere_keys), KEYS(placed_sphere_keys)},
    {"box", VX_SHAPE_BOX, KEYS(box_keys), KEYS(placed_box_keys)},
    {"capsule", VX_SHAPE_CAPSULE, KEYS(capsule_keys), KEYS(placed_capsule_keys)},
    {"convex", VX_SHAPE_HULL, KEYS(convex_keys), KEYS(placed_convex_keys)},
    {"mesh", VX_SHAPE_MESH, KEYS(mesh_keys), NULL, 0},
    {"heightfield", VX_SHAPE_HEIGHTFIELD, KEYS(heightfield_keys), NULL, 0},
    {"compound", VX_SHAPE_COMPOUND, KEYS(compound_keys), NULL, 0},
};

/* Without a "type", a misspelt key ("Type", "tpye") is the likelier mistake:
 * name it before reporting the missing type. */
static vx_status missing_type(vx_json_reader *r, const cJSON *collider, bool placed)
{
    vx_status st = VX_OK;
    for (const cJSON *m = collider->child; st == VX_OK && m; m = m->next) {
        size_t mark = vx_json_path_push_key(r, m->string);
        if (placed)
            st = vx_json_check_member(r, collider, m, KEYS(placed_any_keys));
        else
            st = vx_json_check_member(r, collider, m, KEYS(any_shape_keys));
        vx_json_path_pop(r, mark);
    }
    return st != VX_OK ? st : vx_json_missing(r, "type", "");
}

/* The shape is read first: it decides which other keys belong. */
static vx_status read_shape(vx_json_reader *r, const cJSON *collider, bool placed, const shape_info **out)
{
    const cJSON *type = cJSON_GetObjectItemCaseSensitive(collider, "type");
    if (!type) return missing_type(r, collider, placed);
    size_t mark = vx_json_path_push_key(r, "type");
    const char *name = NULL;
    vx_status st = vx_json_read_string(r, type, &name);
    if (st == VX_OK) {
        *out = NULL;
        for (size_t i = 0; i < sizeof shape_types / sizeof shape_types[0]; i++)
            if (strcmp(name, shape_types[i].name) == 0 && (!placed || shape_types[i].placed_keys))
                *out = &shape_types[i];
        if (!*out && placed)
            st = vx_json_fail(r, VX_ERR_INVALID, "must be \"sphere\", \"box\", \"capsule\" or \"convex\"%s",
                              strcmp(name, "compound") == 0 ? " (compounds do not nest)" : "");
        else if (!*out)
            st = vx_json_fail(r, VX_ERR_INVALID,
                              "must be \"sphere\", \"box\", \"capsule\", \"convex\", \"mesh\", \"heightfield\" "
                              "or \"compound\"");
    }
    vx_json_path_pop(r, mark);
    return st;
}

typedef struct {
    bool radius, half_extents, half_height, points;
    const cJSON *vertices, *triangles, *obj, *heights, *spacing; /* a mesh's and a heightfield's, read at the end */
    const cJSON *parts;                                          /* a compound's, the same */
} given_keys;

static vx_status read_collider_object(vx_scene_builder *b, const cJSON *collider, vx_collider *out,
                                      vx_transform *pose);

/* "points": 4 to VX_MAX_HULL_POINTS finite [x, y, z], their hull made by
 * the scene's world. */
static vx_status read_points(vx_scene_builder *b, const cJSON *points, vx_collider *c)
{
    vx_json_reader *r = &b->json;
    vx_status st = vx_json_expect_array(r, points);
    if (st != VX_OK) return st;
    int count = cJSON_GetArraySize(points);
    if (count < 4 || count > VX_MAX_HULL_POINTS)
        return vx_json_fail(r, VX_ERR_INVALID, "must have 4 to %d points (%d given)", VX_MAX_HULL_POINTS, count);
    vx_vec3 pts[VX_MAX_HULL_POINTS];
    size_t n = 0;
    for (const cJSON *p = points->child; st == VX_OK && p; p = p->next) {
        size_t mark = vx_json_path_push_index(r, n);
        st = vx_json_read_vec3(r, p, VX_JSON_COORDINATE, &pts[n++]);
        vx_json_path_pop(r, mark);
    }
    if (st != VX_OK) return st;
    vx_error hull_err;
    st = vx_world_make_hull(b->scene->world, pts, n, &c->hull, &hull_err);
    if (st == VX_ERR_NOMEM) return vx_scene_fail_nomem(b);
    if (st != VX_OK) {
        const char *why = hull_err.message;
        if (strncmp(why, "hull: ", 6) == 0) why += 6;
        return vx_json_fail(r, VX_ERR_INVALID, "%s", why);
    }
    return VX_OK;
}

static vx_status read_collider_member(vx_scene_builder *b, const cJSON *m, vx_collider *c, given_keys *given,
                                      vx_transform *pose, const char **rotation_key)
{
    vx_json_reader *r = &b->json;
    const char *key = m->string;
    if (strcmp(key, "points") == 0) {
        given->points = true;
        return read_points(b, m, c);
    }
    const cJSON **mesh_data[] = {&given->vertices, &given->triangles, &given->obj,
                                 &given->heights,  &given->spacing,   &given->parts};
    const char *const mesh_data_keys[] = {"vertices", "triangles", "obj", "heights", "spacing", "parts"};
    for (size_t i = 0; i < sizeof mesh_data / sizeof mesh_data[0]; i++) {
        if (strcmp(key, mesh_data_keys[i]) != 0) continue;
        *mesh_data[i] = m;
        return VX_OK;
    }
    if (pose && (strcmp(key, "position") == 0 || strcmp(key, "rotation") == 0 || strcmp(key, "rotation_deg") == 0))
        return vx_scene_read_placement(r, m, pose, rotation_key);
    if (strcmp(key, "radius") == 0) {
        given->radius = true;
        return vx_json_read_float(r, m, VX_JSON_SIZE, &c->radius);
    }
    if (strcmp(key, "half_extents") == 0) {
        given->half_extents = true;
        return vx_json_read_vec3(r, m, VX_JSON_SIZE, &c->half_extents);
    }
    if (strcmp(key, "half_height") == 0) {
        given->half_height = true;
        return vx_json_read_float(r, m, VX_JSON_SIZE, &c->half_height);
    }
    if (strcmp(key, "sensor") == 0) return vx_json_read_bool(r, m, &c->sensor);
    if (strcmp(key, "category") == 0 || strcmp(key, "mask") == 0) {
        int64_t bits = 0;
        vx_status st = vx_json_read_int(r, m, 0, UINT32_MAX, &bits);
        if (st == VX_OK) *(strcmp(key, "category") == 0 ? &c->category : &c->mask) = (uint32_t)bits;
        return st;
    }
    return VX_OK; /* "type", read already */
}

/* "parts": 1 to VX_MAX_COMPOUND_PARTS placed shapes (sphere, box,
 * capsule, convex), their compound made by the scene's world. */
static vx_status read_parts(vx_scene_builder *b, const cJSON *parts, vx_collider *c)
{
    vx_json_reader *r = &b->json;
    size_t mark = vx_json_path_push_key(r, "parts");
    vx_status st = vx_json_expect_array(r, parts);
    int count = st == VX_OK ? cJSON_GetArraySize(parts) : 0;
    if (st == VX_OK && (count < 1 || count > VX_MAX_COMPOUND_PARTS))
        st = vx_json_fail(r, VX_ERR_INVALID, "must have 1 to %d parts (%d given)", VX_MAX_COMPOUND_PARTS, count);
    vx_compound_part *list = NULL;
    if (st == VX_OK) {
        list = calloc((size_t)count, sizeof *list);
        if (!list) st = vx_scene_fail_nomem(b);
    }
    size_t n = 0;
    for (const cJSON *p = st == VX_OK ? parts->child : NULL; st == VX_OK && p; p = p->next) {
        size_t at = vx_json_path_push_index(r, n);
        st = read_collider_object(b, p, &list[n].shape, &list[n].pose);
        n++;
        vx_json_path_pop(r, at);
    }
    if (st == VX_OK) {
        vx_error made;
        st = vx_world_make_compound(b->scene->world, list, n, &c->compound, &made);
        if (st == VX_ERR_NOMEM) st = vx_scene_fail_nomem(b);
        else if (st != VX_OK) st = vx_json_fail(r, VX_ERR_INVALID, "%s", made.message);
    }
    free(list);
    vx_json_path_pop(r, mark);
    return st;
}

/* The keys a shape needs, and a mesh's or heightfield's data, made into
 * its shape once every key is known. */
static vx_status finish_shape(vx_scene_builder *b, vx_shape_type type, const given_keys *given, vx_collider *c)
{
    vx_json_reader *r = &b->json;
    switch (type) {
    case VX_SHAPE_MESH: return vx_scene_read_mesh(b, given->vertices, given->triangles, given->obj, c);
    case VX_SHAPE_HEIGHTFIELD: return vx_scene_read_heightfield(b, given->heights, given->spacing, c);
    case VX_SHAPE_COMPOUND:
        return given->parts ? read_parts(b, given->parts, c) : vx_json_missing(r, "parts", " for a compound");
    case VX_SHAPE_SPHERE:
        return given->radius ? VX_OK : vx_json_missing(r, "radius", " for a sphere");
    case VX_SHAPE_BOX:
        return given->half_extents ? VX_OK : vx_json_missing(r, "half_extents", " for a box");
    case VX_SHAPE_HULL:
        return given->points ? VX_OK : vx_json_missing(r, "points", " for a convex collider");
    case VX_SHAPE_CAPSULE:
    default:
        if (!given->radius) return vx_json_missing(r, "radius", " for a capsule");
        return given->half_height ? VX_OK : vx_json_missing(r, "half_height", " for a capsule");
    }
}

/* pose NULL: an entity's collider; else a placed shape whose position and
 * rotation go to *pose (identity unless given). */
static vx_status read_collider_object(vx_scene_builder *b, const cJSON *collider, vx_collider *out,
                                      vx_transform *pose)
{
    vx_json_reader *r = &b->json;
    vx_status st = vx_json_expect_object(r, collider);
    const shape_info *shape = NULL;
    if (st == VX_OK) st = read_shape(r, collider, pose != NULL, &shape);
    if (st != VX_OK) return st;

    vx_collider c;
    memset(&c, 0, sizeof c); /* components are copied bytewise: no stray padding */
    c.type = shape->type;
    c.category = VX_DEFAULT_CATEGORY;
    c.mask = VX_DEFAULT_MASK;
    if (pose) *pose = vx_transform_identity();
    const char *rotation_key = NULL;
    given_keys given;
    memset(&given, 0, sizeof given);
    for (const cJSON *m = collider->child; st == VX_OK && m; m = m->next) {
        size_t mark = vx_json_path_push_key(r, m->string);
        if (pose)
            st = vx_json_check_member(r, collider, m, shape->placed_keys, shape->placed_key_count);
        else
            st = vx_json_check_member(r, collider, m, shape->keys, shape->key_count);
        if (st == VX_OK) st = read_collider_member(b, m, &c, &given, pose, &rotation_key);
        vx_json_path_pop(r, mark);
    }
    if (st == VX_OK) st = finish_shape(b, shape->type, &given, &c);
    if (st == VX_OK) *out = c;
    return st;
}

/* A collider given by name: one of the top-level "shapes". */
static vx_status named_shape(vx_scene_builder *b, const cJSON *item, vx_collider *out)
{
    const char *name = item->valuestring;
    for (size_t i = 0; i < b->shape_count; i++) {
        if (strcmp(b->shape_names[i], name) == 0) {
            *out = b->shapes[i];
            return VX_OK;
        }
    }
    const char *hint = vx_did_you_mean(name, b->shape_names, b->shape_count);
    if (hint) return vx_json_fail(&b->json, VX_ERR_INVALID, "no shape named \"%s\" (did you mean \"%s\"?)", name, hint);
    if (b->shape_count == 0)
        return vx_json_fail(&b->json, VX_ERR_INVALID,
                            "no shape named \"%s\" (a collider is an object, or the name of one of the scene's \"shapes\")",
                            name);
    return vx_json_fail(&b->json, VX_ERR_INVALID, "no shape named \"%s\"", name);
}

vx_status vx_scene_read_collider(vx_scene_builder *b, const cJSON *collider, vx_scene_entity_def *def)
{
    vx_status st = cJSON_IsString(collider) ? named_shape(b, collider, &def->collider)
                                            : read_collider_object(b, collider, &def->collider, NULL);
    if (st == VX_OK) def->has_collider = true;
    return st;
}

vx_status vx_scene_read_shapes(vx_scene_builder *b, const cJSON *shapes_object)
{
    vx_status st = vx_json_expect_object(&b->json, shapes_object);
    if (st != VX_OK) return st;
    size_t count = (size_t)cJSON_GetArraySize(shapes_object);
    if (count == 0) return VX_OK;
    b->shape_names = calloc(count, sizeof *b->shape_names);
    b->shapes = calloc(count, sizeof *b->shapes);
    if (!b->shape_names || !b->shapes) return vx_scene_fail_nomem(b);
    for (const cJSON *m = shapes_object->child; st == VX_OK && m; m = m->next) {
        size_t mark = vx_json_path_push_key(&b->json, m->string);
        for (size_t i = 0; st == VX_OK && i < b->shape_count; i++)
            if (strcmp(b->shape_names[i], m->string) == 0) st = vx_json_fail(&b->json, VX_ERR_INVALID, "duplicate key");
        if (st == VX_OK && !vx_scene_name_valid(m->string))
            st = vx_json_fail(&b->json, VX_ERR_INVALID, "a shape's name must be 1-64 letters, digits, '_', '.' or '-'");
        if (st == VX_OK) st = read_collider_object(b, m, &b->shapes[b->shape_count], NULL);
        if (st == VX_OK) b->shape_names[b->shape_count++] = m->string;
        vx_json_path_pop(&b->json, mark);
    }
    return st;
}

vx_status vx_scene_read_placed_shape(vx_scene_builder *b, const cJSON *object, vx_collider *shape, vx_transform *pose)
{
    return read_collider_object(b, object, shape, pose);
}
