/* The "joints" array (docs/scene_format.md, "Joints"): read after the
 * entities, whose names they refer to, and made in the scene's world. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "scene/scene_internal.h"

#define KEYS(array) array, sizeof array / sizeof array[0]
#define DEG (3.14159265358979 / 180.0)

static const char *const ball_keys[] = {"name", "type", "a", "b", "anchor", "axis", "cone_deg", "collide_connected",
                                        "break_force"};
static const char *const hinge_keys[] = {"name",  "type",   "a",      "b",
                                         "anchor", "axis",  "limits_deg", "motor",
                                         "spring", "collide_connected", "break_force"};
static const char *const slider_keys[] = {"name",   "type", "a",      "b",      "anchor",          "axis",
                                          "limits", "motor", "spring", "collide_connected", "break_force"};
static const char *const fixed_keys[] = {"name", "type", "a", "b", "anchor", "collide_connected", "break_force"};
static const char *const distance_keys[] = {"name",   "type",   "a",      "b",      "anchor_a",          "anchor_b",
                                            "length", "limits", "spring", "collide_connected", "break_force"};
static const char *const any_joint_keys[] = {"name",     "type",     "a",          "b",      "anchor", "axis",
                                             "limits_deg", "limits", "cone_deg",   "motor",  "spring", "anchor_a",
                                             "anchor_b", "length",   "collide_connected", "break_force"};
static const char *const hinge_motor_keys[] = {"speed_deg", "max_torque"};
static const char *const slider_motor_keys[] = {"speed", "max_force"};
static const char *const hinge_spring_keys[] = {"frequency", "damping_ratio", "rest_deg"};
static const char *const spring_keys[] = {"frequency", "damping_ratio", "rest"};

typedef struct {
    const char *name;
    vx_joint_type type;
    const char *const *keys;
    size_t key_count;
} joint_info;

static const joint_info joint_types[] = {
    {"ball", VX_JOINT_BALL, KEYS(ball_keys)},          {"hinge", VX_JOINT_HINGE, KEYS(hinge_keys)},
    {"slider", VX_JOINT_SLIDER, KEYS(slider_keys)},    {"fixed", VX_JOINT_FIXED, KEYS(fixed_keys)},
    {"distance", VX_JOINT_DISTANCE, KEYS(distance_keys)},
};

/* The type decides which keys belong (vx_scene_read_kind). */
static vx_status read_type(vx_json_reader *r, const cJSON *object, const joint_info **out)
{
    const char *joint_type_names[sizeof joint_types / sizeof joint_types[0]];
    for (size_t i = 0; i < sizeof joint_types / sizeof joint_types[0]; i++) joint_type_names[i] = joint_types[i].name;
    size_t kind = 0;
    vx_status st = vx_scene_read_kind(r, object, joint_type_names, sizeof joint_types / sizeof joint_types[0], KEYS(any_joint_keys),
                                      "\"ball\", \"hinge\", \"slider\", \"fixed\" or \"distance\"", &kind);
    if (st == VX_OK) *out = &joint_types[kind];
    return st;
}

/* [lower, upper], both finite. */
static vx_status read_range(vx_json_reader *r, const cJSON *item, float *lower, float *upper)
{
    vx_status st = vx_json_expect_array(r, item);
    if (st == VX_OK && cJSON_GetArraySize(item) != 2)
        st = vx_json_fail(r, VX_ERR_INVALID, "must be [lower, upper]");
    float *out[2] = {lower, upper};
    size_t i = 0;
    for (const cJSON *e = st == VX_OK ? item->child : NULL; st == VX_OK && e; e = e->next, i++) {
        size_t mark = vx_json_path_push_index(r, i);
        st = vx_json_read_float(r, e, VX_JSON_ANY, out[i]);
        vx_json_path_pop(r, mark);
    }
    return st;
}

typedef struct {
    bool a, b, axis, anchor, anchor_a, anchor_b, length;
    int64_t entity[2]; /* scene indices, -1: the world */
} given_keys;

/* A sub-object's members (motor, spring) with their keys checked. */
typedef vx_status (*member_fn)(vx_json_reader *r, const cJSON *m, vx_joint_def *def, bool hinge);

static vx_status read_object(vx_json_reader *r, const cJSON *object, const char *const *keys, size_t key_count,
                             member_fn fn, vx_joint_def *def, bool hinge)
{
    vx_status st = vx_json_expect_object(r, object);
    for (const cJSON *m = st == VX_OK ? object->child : NULL; st == VX_OK && m; m = m->next) {
        size_t mark = vx_json_path_push_key(r, m->string);
        st = vx_json_check_member(r, object, m, keys, key_count);
        if (st == VX_OK) st = fn(r, m, def, hinge);
        vx_json_path_pop(r, mark);
    }
    return st;
}

static vx_status motor_member(vx_json_reader *r, const cJSON *m, vx_joint_def *def, bool hinge)
{
    const char *key = m->string;
    if (strcmp(key, "speed_deg") == 0 || strcmp(key, "speed") == 0) {
        vx_status st = vx_json_read_float(r, m, VX_JSON_ANY, &def->motor.speed);
        if (hinge) def->motor.speed = (float)(def->motor.speed * DEG);
        return st;
    }
    return vx_json_read_float(r, m, VX_JSON_NON_NEGATIVE, &def->motor.max_effort);
}

static vx_status spring_member(vx_json_reader *r, const cJSON *m, vx_joint_def *def, bool hinge)
{
    const char *key = m->string;
    if (strcmp(key, "frequency") == 0) return vx_json_read_float(r, m, VX_JSON_POSITIVE, &def->spring.frequency);
    if (strcmp(key, "damping_ratio") == 0)
        return vx_json_read_float(r, m, VX_JSON_NON_NEGATIVE, &def->spring.damping_ratio);
    vx_status st = vx_json_read_float(r, m, VX_JSON_ANY, &def->spring.rest);
    if (hinge) def->spring.rest = (float)(def->spring.rest * DEG);
    return st;
}

static vx_status read_motor(vx_json_reader *r, const cJSON *m, vx_joint_def *def)
{
    bool hinge = def->type == VX_JOINT_HINGE;
    const char *speed = hinge ? "speed_deg" : "speed", *effort = hinge ? "max_torque" : "max_force";
    vx_status st = hinge ? read_object(r, m, KEYS(hinge_motor_keys), motor_member, def, true)
                         : read_object(r, m, KEYS(slider_motor_keys), motor_member, def, false);
    if (st == VX_OK && !cJSON_GetObjectItemCaseSensitive(m, speed)) st = vx_json_missing(r, speed, " for a motor");
    if (st == VX_OK && !cJSON_GetObjectItemCaseSensitive(m, effort)) st = vx_json_missing(r, effort, " for a motor");
    def->motor.enabled = true;
    return st;
}

static vx_status read_spring(vx_json_reader *r, const cJSON *m, vx_joint_def *def)
{
    bool hinge = def->type == VX_JOINT_HINGE;
    vx_status st = hinge ? read_object(r, m, KEYS(hinge_spring_keys), spring_member, def, true)
                         : read_object(r, m, KEYS(spring_keys), spring_member, def, false);
    if (st == VX_OK && !cJSON_GetObjectItemCaseSensitive(m, "frequency"))
        st = vx_json_missing(r, "frequency", " for a spring");
    def->spring.enabled = true;
    return st;
}

static vx_status read_limits(vx_json_reader *r, const cJSON *m, vx_joint_def *def, bool degrees)
{
    vx_status st = read_range(r, m, &def->lower, &def->upper);
    if (st != VX_OK) return st;
    def->limit_enabled = true;
    if (def->type == VX_JOINT_DISTANCE) {
        if (!(def->lower >= 0.0f && def->lower <= def->upper && def->upper > 0.0f))
            return vx_json_fail(r, VX_ERR_INVALID, "must be [min, max] with 0 <= min <= max and max > 0");
        return VX_OK;
    }
    if (!(def->lower <= 0.0f && 0.0f <= def->upper))
        return vx_json_fail(r, VX_ERR_INVALID, "must contain 0, the position at load (lower <= 0 <= upper)");
    if (degrees) {
        def->lower = (float)(def->lower * DEG);
        def->upper = (float)(def->upper * DEG);
    }
    return VX_OK;
}

/* "a" / "b": an entity name or null (the world). */
static vx_status read_side(vx_scene_builder *b, const cJSON *m, int side, given_keys *given)
{
    given->entity[side] = -1;
    if (cJSON_IsNull(m)) return VX_OK;
    size_t index = 0;
    vx_status st = vx_scene_read_entity_ref(b, m, &index);
    if (st == VX_OK) given->entity[side] = (int64_t)index;
    return st;
}

static vx_status read_member(vx_scene_builder *b, const cJSON *m, vx_joint_def *def, given_keys *given)
{
    vx_json_reader *r = &b->json;
    const char *key = m->string;
    if (strcmp(key, "a") == 0 || strcmp(key, "b") == 0) return read_side(b, m, key[0] == 'a' ? 0 : 1, given);
    if (strcmp(key, "anchor") == 0) {
        given->anchor = true;
        return vx_json_read_vec3(r, m, VX_JSON_ANY, &def->anchor);
    }
    if (strcmp(key, "anchor_a") == 0) {
        given->anchor_a = true;
        return vx_json_read_vec3(r, m, VX_JSON_ANY, &def->anchor_a);
    }
    if (strcmp(key, "anchor_b") == 0) {
        given->anchor_b = true;
        return vx_json_read_vec3(r, m, VX_JSON_ANY, &def->anchor_b);
    }
    if (strcmp(key, "axis") == 0) {
        given->axis = true;
        vx_status st = vx_json_read_vec3(r, m, VX_JSON_ANY, &def->axis);
        if (st == VX_OK && !(vx_vec3_length(def->axis) > 0.0f)) st = vx_json_fail(r, VX_ERR_INVALID, "must not be zero");
        return st;
    }
    if (strcmp(key, "limits_deg") == 0) return read_limits(r, m, def, true);
    if (strcmp(key, "limits") == 0) return read_limits(r, m, def, false);
    if (strcmp(key, "cone_deg") == 0) {
        vx_status st = vx_json_read_float(r, m, VX_JSON_POSITIVE, &def->cone_angle);
        if (st == VX_OK && !(def->cone_angle < 180.0f))
            st = vx_json_fail(r, VX_ERR_INVALID, "must be in (0, 180) degrees");
        def->cone_angle = (float)(def->cone_angle * DEG);
        def->cone_enabled = true;
        return st;
    }
    if (strcmp(key, "motor") == 0) return read_motor(r, m, def);
    if (strcmp(key, "spring") == 0) return read_spring(r, m, def);
    if (strcmp(key, "length") == 0) {
        given->length = true;
        return vx_json_read_float(r, m, VX_JSON_POSITIVE, &def->length);
    }
    if (strcmp(key, "collide_connected") == 0) return vx_json_read_bool(r, m, &def->collide_connected);
    if (strcmp(key, "break_force") == 0) return vx_json_read_float(r, m, VX_JSON_POSITIVE, &def->break_force);
    return VX_OK; /* "type", read already; "name", read by the caller */
}

static bool is_dynamic(const vx_scene *scene, int64_t index)
{
    if (index < 0) return false;
    const vx_rigidbody *rb =
        vx_registry_get_const(vx_world_registry_const(scene->world), scene->entities[index], VX_COMPONENT_RIGIDBODY);
    return rb && rb->type == VX_BODY_DYNAMIC;
}

static vx_vec3 origin_of(const vx_scene *scene, int64_t index)
{
    if (index < 0) return vx_vec3_zero();
    const vx_transform *t =
        vx_registry_get_const(vx_world_registry_const(scene->world), scene->entities[index], VX_COMPONENT_TRANSFORM);
    return t ? t->position : vx_vec3_zero();
}

/* What the keys together must say, and the defaults that depend on the bodies. */
static vx_status check_joint(vx_scene_builder *b, const cJSON *joint, vx_joint_def *def, given_keys *given)
{
    vx_json_reader *r = &b->json;
    int64_t ea = given->entity[0], eb = given->entity[1];
    if (ea < 0 && eb < 0)
        return cJSON_GetObjectItemCaseSensitive(joint, "a") ? vx_json_fail(r, VX_ERR_INVALID, "a and b are both the world: at least one must be a body")
                                                            : vx_json_missing(r, "a", " (or b): the bodies the joint connects");
    if (ea == eb) {
        size_t mark = vx_json_path_push_key(r, "b");
        vx_status st = vx_json_fail(r, VX_ERR_INVALID, "the same entity as a (a joint connects two different bodies)");
        vx_json_path_pop(r, mark);
        return st;
    }
    if (!is_dynamic(b->scene, ea) && !is_dynamic(b->scene, eb))
        return vx_json_fail(r, VX_ERR_INVALID, "neither a nor b is a dynamic body");
    bool needs_axis = def->type == VX_JOINT_HINGE || def->type == VX_JOINT_SLIDER || def->cone_enabled;
    if (needs_axis && !given->axis)
        return vx_json_missing(r, "axis", def->cone_enabled ? " for a ball joint with cone_deg" : (def->type == VX_JOINT_HINGE ? " for a hinge" : " for a slider"));
    if (given->length && def->limit_enabled) {
        size_t mark = vx_json_path_push_key(r, "length");
        vx_status st = vx_json_fail(r, VX_ERR_INVALID, "not with limits (within them the length is free)");
        vx_json_path_pop(r, mark);
        return st;
    }
    def->a = ea < 0 ? VX_ENTITY_NULL : b->scene->entities[ea];
    def->b = eb < 0 ? VX_ENTITY_NULL : b->scene->entities[eb];
    if (!given->anchor) def->anchor = origin_of(b->scene, eb >= 0 ? eb : ea);
    if (!given->anchor_a) def->anchor_a = origin_of(b->scene, ea);
    if (!given->anchor_b) def->anchor_b = origin_of(b->scene, eb);
    return VX_OK;
}

static vx_joint_def def_of(vx_joint_type type)
{
    switch (type) {
    case VX_JOINT_HINGE: return vx_hinge_joint_def_default();
    case VX_JOINT_SLIDER: return vx_slider_joint_def_default();
    case VX_JOINT_FIXED: return vx_fixed_joint_def_default();
    case VX_JOINT_DISTANCE: return vx_distance_joint_def_default();
    case VX_JOINT_BALL:
    default: return vx_ball_joint_def_default();
    }
}

static vx_status read_joint(vx_scene_builder *b, vx_name_index *names, const cJSON *joint, size_t index)
{
    vx_json_reader *r = &b->json;
    vx_status st = vx_json_expect_object(r, joint);
    const joint_info *info = NULL;
    if (st == VX_OK) st = read_type(r, joint, &info);
    if (st != VX_OK) return st;
    vx_joint_def def = def_of(info->type);
    given_keys given;
    memset(&given, 0, sizeof given);
    given.entity[0] = given.entity[1] = -1;
    for (const cJSON *m = joint->child; st == VX_OK && m; m = m->next) {
        size_t mark = vx_json_path_push_key(r, m->string);
        st = vx_json_check_member(r, joint, m, info->keys, info->key_count);
        if (st == VX_OK) st = read_member(b, m, &def, &given);
        vx_json_path_pop(r, mark);
    }
    if (st == VX_OK) st = check_joint(b, joint, &def, &given);
    if (st == VX_OK) st = vx_scene_read_item_name(b, names, joint, index, "joint", "joints", b->scene->joint_names);
    if (st != VX_OK) return st;
    vx_scene_joint *sj = &b->scene->joints[index];
    sj->type = info->type;
    sj->entity_a = given.entity[0];
    sj->entity_b = given.entity[1];
    vx_error err;
    st = vx_world_create_joint(b->scene->world, &def, &sj->id, &err);
    if (st == VX_ERR_NOMEM) return vx_scene_fail_nomem(b);
    /* what the keys above did not catch (e.g. a distance of length 0) */
    if (st != VX_OK) return vx_json_fail(r, st, "%s", strncmp(err.message, "joint: ", 7) == 0 ? err.message + 7 : err.message);
    return VX_OK;
}

vx_status vx_scene_read_joints(vx_scene_builder *b, const cJSON *joints)
{
    vx_status st = vx_json_expect_array(&b->json, joints);
    if (st != VX_OK) return st;
    vx_scene *scene = b->scene;
    size_t count = (size_t)cJSON_GetArraySize(joints);
    if (count == 0) return VX_OK;
    scene->joints = calloc(count, sizeof *scene->joints);
    scene->joint_names = calloc(count, sizeof *scene->joint_names);
    if (!scene->joints || !scene->joint_names) return vx_scene_fail_nomem(b);
    scene->joint_count = count;
    vx_name_index names;
    if (vx_name_index_init(&names, count) != VX_OK) return vx_scene_fail_nomem(b);
    size_t index = 0;
    for (const cJSON *j = joints->child; st == VX_OK && j; j = j->next, index++) {
        size_t mark = vx_json_path_push_index(&b->json, index);
        st = read_joint(b, &names, j, index);
        vx_json_path_pop(&b->json, mark);
    }
    vx_name_index_free(&names);
    return st;
}
