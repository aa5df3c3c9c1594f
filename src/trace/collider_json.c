/* An entity's collider in the JSONL header, written with the scene format's
 * keys so a reader (a viewer, a script) can draw it. */
#include "trace/body_formats.h"

static void json_key_float(vx_trace_out *o, const char *key, float f)
{
    vx_trace_out_str(o, key);
    vx_trace_out_json_float(o, f);
}

static void json_hull_points(vx_trace_out *o, const vx_hull *hull)
{
    vx_hull_info hull_info = vx_hull_get_info(hull);
    vx_trace_out_str(o, ",\"points\":[");
    for (size_t k = 0; k < hull_info.vertex_count; k++) {
        if (k > 0) vx_trace_out_char(o, ',');
        vx_trace_out_json_vec3(o, vx_hull_vertex(hull, k));
    }
    vx_trace_out_char(o, ']');
}

static void json_parts(vx_trace_out *o, const vx_compound *compound);

/* The shape's type and keys: an object left open for more keys. */
static void json_shape(vx_trace_out *o, const vx_collider *c)
{
    switch (c->type) {
    case VX_SHAPE_SPHERE:
        vx_trace_out_str(o, "{\"type\":\"sphere\"");
        json_key_float(o, ",\"radius\":", c->radius);
        break;
    case VX_SHAPE_BOX:
        vx_trace_out_str(o, "{\"type\":\"box\",\"half_extents\":");
        vx_trace_out_json_vec3(o, c->half_extents);
        break;
    case VX_SHAPE_CAPSULE:
        vx_trace_out_str(o, "{\"type\":\"capsule\"");
        json_key_float(o, ",\"radius\":", c->radius);
        json_key_float(o, ",\"half_height\":", c->half_height);
        break;
    case VX_SHAPE_COMPOUND:
        vx_trace_out_str(o, "{\"type\":\"compound\"");
        json_parts(o, c->compound);
        break;
    case VX_SHAPE_HULL:
    default:
        vx_trace_out_str(o, "{\"type\":\"convex\"");
        json_hull_points(o, c->hull);
        break;
    }
}

/* A compound's parts as given, each with its placement. */
static void json_parts(vx_trace_out *o, const vx_compound *compound)
{
    vx_compound_info info = vx_compound_get_info(compound);
    vx_trace_out_str(o, ",\"parts\":[");
    for (size_t k = 0; k < info.part_count; k++) {
        vx_compound_part p = vx_compound_get_part(compound, k);
        if (k > 0) vx_trace_out_char(o, ',');
        json_shape(o, &p.shape);
        vx_trace_out_str(o, ",\"position\":");
        vx_trace_out_json_vec3(o, p.pose.position);
        vx_trace_out_str(o, ",\"rotation\":[");
        vx_trace_out_json_float(o, p.pose.rotation.x);
        vx_trace_out_char(o, ',');
        vx_trace_out_json_float(o, p.pose.rotation.y);
        vx_trace_out_char(o, ',');
        vx_trace_out_json_float(o, p.pose.rotation.z);
        vx_trace_out_char(o, ',');
        vx_trace_out_json_float(o, p.pose.rotation.w);
        vx_trace_out_str(o, "]}");
    }
    vx_trace_out_char(o, ']');
}

void vx_trace_json_entity_collider(vx_trace_out *o, const vx_trace_info *info, size_t i)
{
    const vx_collider *c = NULL;
    if (info->world && info->entities)
        c = vx_registry_get_const(vx_world_registry_const(info->world), info->entities[i], VX_COMPONENT_COLLIDER);
    if (!c) {
        vx_trace_out_str(o, "null");
        return;
    }
    json_shape(o, c);
    if (c->sensor) vx_trace_out_str(o, ",\"sensor\":true");
    vx_trace_out_char(o, '}');
}
