/* An entity's "rigidbody": body type and mass rules, then the optional
 * fields over the constructor's defaults. */
#include <string.h>

#include "scene/scene_internal.h"

static const char *const rigidbody_keys[] = {"type",           "mass",            "density",   "restitution",
                                             "friction",       "gravity_scale",   "velocity",  "angular_velocity",
                                             "lock_rotation",  "linear_damping",  "angular_damping", "can_sleep",
                                             "bullet"};

/* What the file gave; fields whose flag is false keep the constructor's value. */
typedef struct {
    bool type, mass, density, restitution, friction, gravity_scale, velocity, angular_velocity, lock_rotation,
        linear_damping, angular_damping, can_sleep, bullet;
    float density_value;
} given_fields;

static vx_status read_body_type(vx_json_reader *r, const cJSON *item, vx_body_type *out)
{
    const char *name = NULL;
    vx_status st = vx_json_read_string(r, item, &name);
    if (st != VX_OK) return st;
    if (strcmp(name, "dynamic") == 0)
        *out = VX_BODY_DYNAMIC;
    else if (strcmp(name, "static") == 0)
        *out = VX_BODY_STATIC;
    else if (strcmp(name, "kinematic") == 0)
        *out = VX_BODY_KINEMATIC;
    else
        return vx_json_fail(r, VX_ERR_INVALID, "must be \"dynamic\", \"static\" or \"kinematic\"");
    return VX_OK;
}

static vx_status read_member(vx_scene_builder *b, const cJSON *m, vx_rigidbody *v, given_fields *g)
{
    vx_json_reader *r = &b->json;
    const char *key = m->string;
    if (strcmp(key, "type") == 0) {
        g->type = true;
        return read_body_type(r, m, &v->type);
    }
    if (strcmp(key, "mass") == 0) {
        g->mass = true;
        return vx_json_read_float(r, m, VX_JSON_NON_NEGATIVE, &v->mass);
    }
    if (strcmp(key, "density") == 0) {
        g->density = true;
        return vx_json_read_float(r, m, VX_JSON_POSITIVE, &g->density_value);
    }
    if (strcmp(key, "restitution") == 0) {
        g->restitution = true;
        return vx_json_read_float(r, m, VX_JSON_UNIT, &v->restitution);
    }
    if (strcmp(key, "friction") == 0) {
        g->friction = true;
        return vx_json_read_float(r, m, VX_JSON_NON_NEGATIVE, &v->friction);
    }
    if (strcmp(key, "gravity_scale") == 0) {
        g->gravity_scale = true;
        return vx_json_read_float(r, m, VX_JSON_ANY, &v->gravity_scale);
    }
    if (strcmp(key, "velocity") == 0) {
        g->velocity = true;
        return vx_json_read_vec3(r, m, VX_JSON_ANY, &v->velocity);
    }
    if (strcmp(key, "angular_velocity") == 0) {
        g->angular_velocity = true;
        return vx_json_read_vec3(r, m, VX_JSON_ANY, &v->angular_velocity);
    }
    if (strcmp(key, "lock_rotation") == 0) {
        g->lock_rotation = true;
        return vx_json_read_bool(r, m, &v->lock_rotation);
    }
    if (strcmp(key, "linear_damping") == 0) {
        g->linear_damping = true;
        return vx_json_read_float(r, m, VX_JSON_NON_NEGATIVE, &v->linear_damping);
    }
    if (strcmp(key, "angular_damping") == 0) {
        g->angular_damping = true;
        return vx_json_read_float(r, m, VX_JSON_NON_NEGATIVE, &v->angular_damping);
    }
    if (strcmp(key, "can_sleep") == 0) {
        g->can_sleep = true;
        return vx_json_read_bool(r, m, &v->can_sleep);
    }
    g->bullet = true; /* "bullet" */
    return vx_json_read_bool(r, m, &v->bullet);
}

/* type defaults from mass (0: static, else dynamic), mass defaults to 1; a
 * dynamic body needs mass > 0 and the others take none. */
static vx_status make_body(vx_json_reader *r, const vx_rigidbody *v, const given_fields *g, vx_rigidbody *out)
{
    float mass = g->mass ? v->mass : 1.0f;
    vx_body_type type = g->type ? v->type : (mass == 0.0f ? VX_BODY_STATIC : VX_BODY_DYNAMIC);
    if (g->density) { /* the mass comes from the collider's volume once the entity is read */
        const char *density_problem = NULL;
        if (g->mass)
            density_problem = "not together with mass";
        else if (type != VX_BODY_DYNAMIC)
            density_problem = type == VX_BODY_STATIC ? "a static body has no density (leave it out)"
                                                     : "a kinematic body has no density (leave it out)";
        if (density_problem) {
            size_t mark = vx_json_path_push_key(r, "density");
            vx_status st = vx_json_fail(r, VX_ERR_INVALID, "%s", density_problem);
            vx_json_path_pop(r, mark);
            return st;
        }
    }
    const char *problem = NULL;
    if (type == VX_BODY_DYNAMIC && !(mass > 0.0f))
        problem = "a dynamic body needs mass > 0";
    else if (type == VX_BODY_STATIC && g->mass && mass > 0.0f)
        problem = "a static body has no mass (leave it out)";
    else if (type == VX_BODY_KINEMATIC && g->mass && mass > 0.0f)
        problem = "a kinematic body has no mass (leave it out)";
    if (problem) {
        size_t mark = vx_json_path_push_key(r, "mass");
        vx_status st = vx_json_fail(r, VX_ERR_INVALID, "%s", problem);
        vx_json_path_pop(r, mark);
        return st;
    }

    vx_rigidbody body = type == VX_BODY_DYNAMIC  ? vx_rigidbody_dynamic(mass)
                        : type == VX_BODY_STATIC ? vx_rigidbody_static()
                                                 : vx_rigidbody_kinematic();
    if (g->restitution) body.restitution = v->restitution;
    if (g->friction) body.friction = v->friction;
    if (g->gravity_scale) body.gravity_scale = v->gravity_scale;
    if (g->velocity) body.velocity = v->velocity;
    if (g->angular_velocity) body.angular_velocity = v->angular_velocity;
    if (g->lock_rotation) body.lock_rotation = v->lock_rotation;
    if (g->linear_damping) body.linear_damping = v->linear_damping;
    if (g->angular_damping) body.angular_damping = v->angular_damping;
    if (g->can_sleep) body.can_sleep = v->can_sleep;
    if (g->bullet) body.bullet = v->bullet;
    *out = body;
    return VX_OK;
}

vx_status vx_scene_read_rigidbody(vx_scene_builder *b, const cJSON *rigidbody, vx_scene_entity_def *def)
{
    vx_json_reader *r = &b->json;
    vx_status st = vx_json_expect_object(r, rigidbody);
    if (st != VX_OK) return st;
    vx_rigidbody values;
    memset(&values, 0, sizeof values);
    given_fields given;
    memset(&given, 0, sizeof given);
    for (const cJSON *m = rigidbody->child; st == VX_OK && m; m = m->next) {
        size_t mark = vx_json_path_push_key(r, m->string);
        st = vx_json_check_member(r, rigidbody, m, rigidbody_keys, sizeof rigidbody_keys / sizeof rigidbody_keys[0]);
        if (st == VX_OK) st = read_member(b, m, &values, &given);
        vx_json_path_pop(r, mark);
    }
    if (st == VX_OK) st = make_body(r, &values, &given, &def->body);
    if (st == VX_OK) {
        def->has_rigidbody = true;
        def->has_density = given.density;
        def->density = given.density_value;
    }
    return st;
}
