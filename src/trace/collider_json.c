/* An entity's collider in the JSONL header, written with the scene format's
 * keys so a reader (a viewer, a script) can draw it. */
#include "physics/body/mesh.h"
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

/* A mesh's "vertices" and "triangles", or a heightfield's "heights" (rows
 * of columns) and "spacing", as the scene format writes them. */
static void json_mesh(vx_trace_out *o, const vx_mesh *m)
{
    if (m->kind == VX_MESH_HEIGHTFIELD) {
        vx_trace_out_str(o, "{\"type\":\"heightfield\",\"heights\":[");
        for (uint32_t j = 0; j < m->rows; j++) {
            vx_trace_out_str(o, j > 0 ? ",[" : "[");
            for (uint32_t i = 0; i < m->columns; i++) {
                if (i > 0) vx_trace_out_char(o, ',');
                vx_trace_out_json_float(o, m->heights[(size_t)j * m->columns + i]);
            }
            vx_trace_out_char(o, ']');
        }
        json_key_float(o, "],\"spacing\":[", m->spacing_x);
        json_key_float(o, ",", m->spacing_z);
        vx_trace_out_char(o, ']');
        return;
    }
    vx_trace_out_str(o, "{\"type\":\"mesh\",\"vertices\":[");
    for (uint32_t v = 0; v < m->vertex_count; v++) {
        if (v > 0) vx_trace_out_char(o, ',');
        vx_trace_out_json_vec3(o, m->vertices[v]);
    }
    vx_trace_out_str(o, "],\"triangles\":[");
    for (uint32_t t = 0; t < m->triangle_count; t++) {
        vx_trace_out_str(o, t > 0 ? ",[" : "[");
        for (int k = 0; k < 3; k++) {
            if (k > 0) vx_trace_out_char(o, ',');
            vx_trace_out_int(o, m->indices[3u * t + (uint32_t)k]);
        }
        vx_trace_out_char(o, ']');
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
    case VX_SHAPE_MESH:
    case VX_SHAPE_HEIGHTFIELD: json_mesh(o, c->mesh); break;
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
