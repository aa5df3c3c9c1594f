/* An entity's "transform": position and orientation (a quaternion, or Euler
 * angles in degrees), normalised on load. */
#include <math.h>
#include <string.h>

#include "scene/scene_internal.h"
#include "common/det_math.h"

#define VX_PI 3.14159265358979323846

static const char *const transform_keys[] = {"position", "rotation", "rotation_deg"};

/* Orientation arithmetic in double so that the stored float is the rounded
 * exact value, whatever the order of the terms. */
typedef struct {
    double x, y, z, w;
} quat_d;

static quat_d quat_d_mul(quat_d a, quat_d b)
{
    quat_d q;
    q.x = a.w * b.x + a.x * b.w + a.y * b.z - a.z * b.y;
    q.y = a.w * b.y - a.x * b.z + a.y * b.w + a.z * b.x;
    q.z = a.w * b.z + a.x * b.y - a.y * b.x + a.z * b.w;
    q.w = a.w * b.w - a.x * b.x - a.y * b.y - a.z * b.z;
    return q;
}

/* q / |q| as floats; |q| must be > 0. */
static vx_quat quat_d_unit(quat_d q)
{
    double length = sqrt(q.x * q.x + q.y * q.y + q.z * q.z + q.w * q.w);
    return vx_quat_make((float)(q.x / length), (float)(q.y / length), (float)(q.z / length),
                        (float)(q.w / length));
}

/* Rotation by deg.x about X, then deg.y about Y, then deg.z about Z (all fixed
 * world axes): q = qz * qy * qx. */
static vx_quat quat_from_degrees(vx_vec3 deg)
{
    double hx = (double)deg.x * (VX_PI / 360.0); /* half angles in radians */
    double hy = (double)deg.y * (VX_PI / 360.0);
    double hz = (double)deg.z * (VX_PI / 360.0);
    quat_d qx = {vx_det_sin(hx), 0.0, 0.0, vx_det_cos(hx)};
    quat_d qy = {0.0, vx_det_sin(hy), 0.0, vx_det_cos(hy)};
    quat_d qz = {0.0, 0.0, vx_det_sin(hz), vx_det_cos(hz)};
    return quat_d_unit(quat_d_mul(qz, quat_d_mul(qy, qx)));
}

static vx_status read_rotation(vx_json_reader *r, const cJSON *item, vx_quat *out)
{
    vx_quat q;
    vx_status st = vx_json_read_quat(r, item, &q);
    if (st != VX_OK) return st;
    if (q.x == 0.0f && q.y == 0.0f && q.z == 0.0f && q.w == 0.0f)
        return vx_json_fail(r, VX_ERR_INVALID, "must not be all zero");
    quat_d d = {q.x, q.y, q.z, q.w};
    *out = quat_d_unit(d);
    return VX_OK;
}

vx_status vx_scene_read_placement(vx_json_reader *r, const cJSON *m, vx_transform *t, const char **rotation_key)
{
    if (strcmp(m->string, "position") == 0) return vx_json_read_vec3(r, m, VX_JSON_ANY, &t->position);

    bool quaternion = strcmp(m->string, "rotation") == 0;
    const char *key = quaternion ? "rotation" : "rotation_deg";
    if (*rotation_key) /* the other one of the pair (a repeat is a duplicate key) */
        return vx_json_fail(r, VX_ERR_INVALID, "not together with %s", *rotation_key);
    *rotation_key = key;
    if (quaternion) return read_rotation(r, m, &t->rotation);
    vx_vec3 deg;
    vx_status st = vx_json_read_vec3(r, m, VX_JSON_ANY, &deg);
    if (st == VX_OK) t->rotation = quat_from_degrees(deg);
    return st;
}

vx_status vx_scene_read_transform(vx_scene_builder *b, const cJSON *transform, vx_scene_entity_def *def)
{
    vx_json_reader *r = &b->json;
    vx_status st = vx_json_expect_object(r, transform);
    if (st != VX_OK) return st;
    for (const cJSON *m = transform->child; st == VX_OK && m; m = m->next) {
        size_t mark = vx_json_path_push_key(r, m->string);
        st = vx_json_check_member(r, transform, m, transform_keys, sizeof transform_keys / sizeof transform_keys[0]);
        if (st == VX_OK) st = vx_scene_read_placement(r, m, &def->transform, &def->rotation_key);
        vx_json_path_pop(r, mark);
    }
    return st;
}
