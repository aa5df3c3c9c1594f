/* The JSON chunk of a --format glb file (glb_document.h): accessors and
 * buffer views in the order of the binary chunk, a node per entity, a mesh
 * per distinct shape, one animation of every entity's translation and
 * rotation, and the run in the scene's extras. */
#include <inttypes.h>
#include <stdio.h>

#include "trace/glb_document.h"
#include "voltex/voltex.h"

#define GL_FLOAT 5126
#define GL_UNSIGNED_INT 5125
#define GL_ARRAY_BUFFER 34962
#define GL_ELEMENT_ARRAY_BUFFER 34963

static void comma(vx_trace_out *o, size_t i)
{
    if (i > 0) vx_trace_out_char(o, ',');
}

static void floats(vx_trace_out *o, const float *v, size_t n)
{
    vx_trace_out_char(o, '[');
    for (size_t k = 0; k < n; k++) {
        comma(o, k);
        vx_trace_out_json_float(o, v[k]);
    }
    vx_trace_out_char(o, ']');
}

static void buffer_view(vx_trace_out *o, size_t *count, uint64_t offset, uint64_t length, int target)
{
    comma(o, (*count)++);
    vx_trace_out_str(o, "{\"buffer\":0,\"byteOffset\":");
    vx_trace_out_int(o, (int64_t)offset);
    vx_trace_out_str(o, ",\"byteLength\":");
    vx_trace_out_int(o, (int64_t)length);
    if (target) {
        vx_trace_out_str(o, ",\"target\":");
        vx_trace_out_int(o, target);
    }
    vx_trace_out_char(o, '}');
}

/* An accessor of count elements of type ("SCALAR", "VEC3", ...) in view. */
static void accessor(vx_trace_out *o, size_t *n, size_t view, uint64_t offset, int component, uint64_t count,
                     const char *type)
{
    comma(o, (*n)++);
    vx_trace_out_str(o, "{\"bufferView\":");
    vx_trace_out_int(o, (int64_t)view);
    if (offset) {
        vx_trace_out_str(o, ",\"byteOffset\":");
        vx_trace_out_int(o, (int64_t)offset);
    }
    vx_trace_out_str(o, ",\"componentType\":");
    vx_trace_out_int(o, component);
    vx_trace_out_str(o, ",\"count\":");
    vx_trace_out_int(o, (int64_t)count);
    vx_trace_out_str(o, ",\"type\":\"");
    vx_trace_out_str(o, type);
    vx_trace_out_char(o, '"');
}

/* The bounds of a shape's positions (glTF requires them). */
static void position_bounds(vx_trace_out *o, const vx_glb_mesh *m)
{
    float lo[3], hi[3];
    for (int k = 0; k < 3; k++) lo[k] = hi[k] = m->vertex_count ? m->positions[k] : 0.0f;
    for (uint32_t v = 0; v < m->vertex_count; v++) {
        for (int k = 0; k < 3; k++) {
            float x = m->positions[3u * v + (uint32_t)k];
            if (x < lo[k]) lo[k] = x;
            if (x > hi[k]) hi[k] = x;
        }
    }
    vx_trace_out_str(o, ",\"min\":");
    floats(o, lo, 3u);
    vx_trace_out_str(o, ",\"max\":");
    floats(o, hi, 3u);
}

/* Accessor numbers: per shape positions, [normals,] indices; then times,
 * then a translation and a rotation per entity. */
static void write_buffers(const vx_glb_document *d, vx_trace_out *o)
{
    const uint64_t frames = (uint64_t)d->samples->frame_count, entities = d->info->entity_count;
    size_t views = 0, accessors = 0;
    if (d->binary_length == 0) return; /* no shape, no animation: nothing in the buffer */
    vx_trace_out_str(o, ",\"bufferViews\":[");
    for (size_t s = 0; s < d->shape_count; s++) {
        const vx_glb_shape *shape = &d->shapes[s];
        uint64_t vertices = shape->mesh.vertex_count;
        buffer_view(o, &views, shape->positions, vertices * 12u, GL_ARRAY_BUFFER);
        if (shape->mesh.normals) buffer_view(o, &views, shape->normals, vertices * 12u, GL_ARRAY_BUFFER);
        buffer_view(o, &views, shape->indices, (uint64_t)shape->mesh.triangle_count * 12u, GL_ELEMENT_ARRAY_BUFFER);
    }
    size_t time_view = views;
    if (frames > 0 && entities > 0) {
        buffer_view(o, &views, d->times, frames * 4u, 0);
        buffer_view(o, &views, d->translations, frames * entities * 12u, 0);
        buffer_view(o, &views, d->rotations, frames * entities * 16u, 0);
    }
    vx_trace_out_str(o, "],\"accessors\":[");
    views = 0;
    for (size_t s = 0; s < d->shape_count; s++) {
        const vx_glb_mesh *m = &d->shapes[s].mesh;
        accessor(o, &accessors, views++, 0, GL_FLOAT, m->vertex_count, "VEC3");
        position_bounds(o, m);
        vx_trace_out_char(o, '}');
        if (m->normals) {
            accessor(o, &accessors, views++, 0, GL_FLOAT, m->vertex_count, "VEC3");
            vx_trace_out_char(o, '}');
        }
        accessor(o, &accessors, views++, 0, GL_UNSIGNED_INT, 3u * (uint64_t)m->triangle_count, "SCALAR");
        vx_trace_out_char(o, '}');
    }
    if (frames > 0 && entities > 0) {
        accessor(o, &accessors, time_view, 0, GL_FLOAT, frames, "SCALAR");
        vx_trace_out_str(o, ",\"min\":");
        floats(o, &d->samples->first_time, 1u);
        vx_trace_out_str(o, ",\"max\":");
        floats(o, &d->samples->last_time, 1u);
        vx_trace_out_char(o, '}');
        for (uint64_t e = 0; e < entities; e++) {
            accessor(o, &accessors, time_view + 1u, e * frames * 12u, GL_FLOAT, frames, "VEC3");
            vx_trace_out_char(o, '}');
        }
        for (uint64_t e = 0; e < entities; e++) {
            accessor(o, &accessors, time_view + 2u, e * frames * 16u, GL_FLOAT, frames, "VEC4");
            vx_trace_out_char(o, '}');
        }
    }
    vx_trace_out_str(o, "],\"buffers\":[{\"byteLength\":");
    vx_trace_out_int(o, (int64_t)d->binary_length);
    vx_trace_out_str(o, "}]");
}

/* The first accessor of each shape (its positions). */
static size_t shape_accessor(const vx_glb_document *d, size_t shape)
{
    size_t a = 0;
    for (size_t s = 0; s < shape; s++) a += d->shapes[s].mesh.normals ? 3u : 2u;
    return a;
}

static void write_meshes(const vx_glb_document *d, vx_trace_out *o)
{
    if (d->shape_count == 0) return;
    vx_trace_out_str(o, ",\"materials\":[{\"name\":\"solid\",\"pbrMetallicRoughness\":{\"baseColorFactor\":"
                        "[0.72,0.74,0.78,1],\"metallicFactor\":0,\"roughnessFactor\":0.7}},"
                        "{\"name\":\"two_sided\",\"doubleSided\":true,\"pbrMetallicRoughness\":{\"baseColorFactor\":"
                        "[0.45,0.55,0.45,1],\"metallicFactor\":0,\"roughnessFactor\":0.9}}]");
    vx_trace_out_str(o, ",\"meshes\":[");
    size_t a = 0;
    for (size_t s = 0; s < d->shape_count; s++) {
        const vx_glb_mesh *m = &d->shapes[s].mesh;
        comma(o, s);
        vx_trace_out_str(o, "{\"primitives\":[{\"attributes\":{\"POSITION\":");
        vx_trace_out_int(o, (int64_t)a++);
        if (m->normals) {
            vx_trace_out_str(o, ",\"NORMAL\":");
            vx_trace_out_int(o, (int64_t)a++);
        }
        vx_trace_out_str(o, "},\"indices\":");
        vx_trace_out_int(o, (int64_t)a++);
        vx_trace_out_str(o, m->two_sided ? ",\"material\":1}]}" : ",\"material\":0}]}");
    }
    vx_trace_out_char(o, ']');
}

static void write_nodes(const vx_glb_document *d, vx_trace_out *o)
{
    const vx_trace_info *info = d->info;
    if (info->entity_count == 0) return;
    vx_trace_out_str(o, ",\"nodes\":[");
    for (size_t i = 0; i < info->entity_count; i++) {
        comma(o, i);
        vx_trace_out_str(o, "{\"name\":");
        vx_trace_out_json_string(o, info->names[i]);
        if (d->node_shape[i] >= 0) {
            vx_trace_out_str(o, ",\"mesh\":");
            vx_trace_out_int(o, d->node_shape[i]);
        }
        if (d->first_pose) {
            vx_trace_out_str(o, ",\"translation\":");
            floats(o, d->first_pose + VX_GLB_POSE_FLOATS * i, 3u);
            vx_trace_out_str(o, ",\"rotation\":");
            floats(o, d->first_pose + VX_GLB_POSE_FLOATS * i + 3u, 4u);
        }
        vx_trace_out_char(o, '}');
    }
    vx_trace_out_char(o, ']');
}

/* Samplers 2i and 2i + 1: entity i's translation and rotation. */
static void write_animation(const vx_glb_document *d, vx_trace_out *o, size_t times_accessor)
{
    const size_t n = d->info->entity_count;
    if (n == 0 || d->samples->frame_count == 0) return;
    vx_trace_out_str(o, ",\"animations\":[{\"name\":\"run\",\"samplers\":[");
    for (size_t i = 0; i < 2u * n; i++) {
        comma(o, i);
        size_t output = times_accessor + 1u + (i % 2u == 0 ? i / 2u : n + i / 2u);
        vx_trace_out_str(o, "{\"input\":");
        vx_trace_out_int(o, (int64_t)times_accessor);
        vx_trace_out_str(o, ",\"output\":");
        vx_trace_out_int(o, (int64_t)output);
        vx_trace_out_str(o, ",\"interpolation\":\"LINEAR\"}");
    }
    vx_trace_out_str(o, "],\"channels\":[");
    for (size_t i = 0; i < 2u * n; i++) {
        comma(o, i);
        vx_trace_out_str(o, "{\"sampler\":");
        vx_trace_out_int(o, (int64_t)i);
        vx_trace_out_str(o, ",\"target\":{\"node\":");
        vx_trace_out_int(o, (int64_t)(i / 2u));
        vx_trace_out_str(o, i % 2u == 0 ? ",\"path\":\"translation\"}}" : ",\"path\":\"rotation\"}}");
    }
    vx_trace_out_str(o, "]}]");
}

void vx_glb_write_json(const vx_glb_document *d, vx_trace_out *o)
{
    const vx_trace_info *info = d->info;
    vx_trace_out_str(o, "{\"asset\":{\"version\":\"2.0\",\"generator\":\"voltex-sim " VOLTEX_VERSION "\"}");
    vx_trace_out_str(o, ",\"scene\":0,\"scenes\":[{\"name\":");
    vx_trace_out_json_string(o, info->scene_name);
    if (info->entity_count > 0) {
        vx_trace_out_str(o, ",\"nodes\":[");
        for (size_t i = 0; i < info->entity_count; i++) {
            comma(o, i);
            vx_trace_out_int(o, (int64_t)i);
        }
        vx_trace_out_char(o, ']');
    }
    vx_trace_out_str(o, ",\"extras\":{\"name\":");
    vx_trace_out_json_string(o, info->scene_name);
    vx_trace_out_str(o, ",\"dt\":");
    vx_trace_out_json_float(o, info->dt);
    vx_trace_out_str(o, ",\"steps\":");
    vx_trace_out_int(o, info->steps);
    vx_trace_out_str(o, ",\"frames\":");
    vx_trace_out_int(o, d->samples->frame_count);
    vx_trace_out_str(o, ",\"version\":\"" VOLTEX_VERSION "\"}}]");
    write_nodes(d, o);
    write_meshes(d, o);
    write_animation(d, o, shape_accessor(d, d->shape_count));
    write_buffers(d, o);
    vx_trace_out_char(o, '}');
}
