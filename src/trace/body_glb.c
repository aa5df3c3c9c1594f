/* --format glb: frames go to a temporary file as the run goes
 * (glb_samples.c); at the end the shapes are tessellated (glb_mesh.c), the
 * layout worked out (glb_document.h) and the file written in one go: the
 * 12-byte header, the JSON chunk (glb_json.c), the binary chunk. */
#include <stdlib.h>
#include <string.h>

#include "trace/body_formats.h"
#include "trace/glb_document.h"

#define GLB_MAGIC 0x46546C67u      /* "glTF" */
#define GLB_CHUNK_JSON 0x4E4F534Au /* "JSON" */
#define GLB_CHUNK_BIN 0x004E4942u  /* "BIN\0" */

struct vx_glb_writer {
    vx_glb_samples samples;
};

vx_status vx_body_glb_begin(vx_body_writer *w, vx_error *err)
{
    w->glb = calloc(1u, sizeof *w->glb);
    if (!w->glb) {
        vx_error_set(err, VX_ERR_NOMEM, "out of memory");
        return VX_ERR_NOMEM;
    }
    return vx_glb_samples_open(&w->glb->samples, w->info->entity_count, err);
}

vx_status vx_body_glb_frame(vx_body_writer *w, int64_t frame, const vx_body_state *states, vx_error *err)
{
    return vx_glb_samples_add(&w->glb->samples, vx_trace_frame_time(frame, w->info->dt), states, err);
}

static bool same_shape(const vx_collider *a, const vx_collider *b)
{
    if (a->type != b->type) return false;
    switch (a->type) {
    case VX_SHAPE_SPHERE: return a->radius == b->radius;
    case VX_SHAPE_CAPSULE: return a->radius == b->radius && a->half_height == b->half_height;
    case VX_SHAPE_BOX:
        return a->half_extents.x == b->half_extents.x && a->half_extents.y == b->half_extents.y &&
               a->half_extents.z == b->half_extents.z;
    case VX_SHAPE_HULL: return a->hull == b->hull;
    case VX_SHAPE_COMPOUND: return a->compound == b->compound;
    case VX_SHAPE_MESH:
    case VX_SHAPE_HEIGHTFIELD:
    default: return a->mesh == b->mesh;
    }
}

static uint64_t aligned(uint64_t n) { return (n + 3u) & ~(uint64_t)3u; }

/* A shape per distinct collider, node_shape for every entity, and the
 * binary chunk's offsets. */
static vx_status lay_out(vx_glb_document *d, vx_error *err)
{
    const vx_trace_info *info = d->info;
    size_t n = info->entity_count;
    d->node_shape = malloc((n ? n : 1u) * sizeof *d->node_shape);
    d->shapes = malloc((n ? n : 1u) * sizeof *d->shapes);
    if (!d->node_shape || !d->shapes) goto out_of_memory;
    uint64_t offset = 0;
    for (size_t i = 0; i < n; i++) {
        const vx_collider *c = NULL;
        if (info->world && info->entities)
            c = vx_registry_get_const(vx_world_registry_const(info->world), info->entities[i], VX_COMPONENT_COLLIDER);
        d->node_shape[i] = -1;
        if (!c) continue;
        size_t s = 0;
        while (s < d->shape_count && !same_shape(&d->shapes[s].collider, c)) s++;
        d->node_shape[i] = (int64_t)s;
        if (s < d->shape_count) continue;
        vx_glb_shape *shape = &d->shapes[s];
        if (vx_glb_mesh_make(c, &shape->mesh) != VX_OK) goto out_of_memory;
        d->shape_count++;
        shape->collider = *c;
        uint64_t vertex_bytes = (uint64_t)shape->mesh.vertex_count * 12u;
        shape->positions = offset;
        offset += vertex_bytes;
        shape->normals = offset;
        if (shape->mesh.normals) offset += vertex_bytes;
        shape->indices = offset;
        offset += (uint64_t)shape->mesh.triangle_count * 12u;
    }
    uint64_t frames = (uint64_t)d->samples->frame_count;
    if (n == 0) frames = 0; /* no animation */
    d->times = offset;
    offset += aligned(frames * 4u);
    d->translations = offset;
    offset += frames * n * 12u;
    d->rotations = offset;
    offset += frames * n * 16u;
    d->binary_length = offset;
    if (d->samples->frame_count > 0) {
        d->first_pose = malloc((n ? n : 1u) * VX_GLB_POSE_FLOATS * sizeof *d->first_pose);
        if (!d->first_pose) goto out_of_memory;
        return vx_glb_samples_first(d->samples, d->first_pose, err);
    }
    return VX_OK;
out_of_memory:
    vx_error_set(err, VX_ERR_NOMEM, "out of memory");
    return VX_ERR_NOMEM;
}

static void document_free(vx_glb_document *d)
{
    for (size_t s = 0; s < d->shape_count; s++) vx_glb_mesh_free(&d->shapes[s].mesh);
    free(d->shapes);
    free(d->node_shape);
    free(d->first_pose);
}

/* The JSON chunk's text, in memory (it grows with the entities, not the frames). */
static vx_status json_text(const vx_glb_document *d, char **text, size_t *length, vx_error *err)
{
    *text = NULL;
    *length = 0;
    FILE *f = open_memstream(text, length);
    if (!f) {
        vx_error_set(err, VX_ERR_NOMEM, "out of memory");
        return VX_ERR_NOMEM;
    }
    vx_trace_out o;
    vx_trace_out_init(&o, f);
    vx_glb_write_json(d, &o);
    vx_status st = vx_trace_out_flush(&o, false, err);
    if (fclose(f) != 0 && st == VX_OK) {
        vx_error_set(err, VX_ERR_NOMEM, "out of memory");
        st = VX_ERR_NOMEM;
    }
    if (st != VX_OK) {
        free(*text);
        *text = NULL;
    }
    return st;
}

static void put_floats(vx_trace_out *o, const float *v, size_t n)
{
    for (size_t k = 0; k < n; k++) vx_glb_put_f32(o, v[k]);
}

static vx_status write_binary(const vx_glb_document *d, vx_trace_out *o, vx_error *err)
{
    for (size_t s = 0; s < d->shape_count; s++) {
        const vx_glb_mesh *m = &d->shapes[s].mesh;
        put_floats(o, m->positions, 3u * (size_t)m->vertex_count);
        if (m->normals) put_floats(o, m->normals, 3u * (size_t)m->vertex_count);
        for (size_t k = 0; k < 3u * (size_t)m->triangle_count; k++) vx_glb_put_u32(o, m->indices[k]);
    }
    if (d->translations == d->rotations) return VX_OK; /* no animation */
    vx_status st = vx_glb_samples_write_times(d->samples, o, err);
    if (st == VX_OK) st = vx_glb_samples_write_channel(d->samples, VX_GLB_TRANSLATION, o, err);
    if (st == VX_OK) st = vx_glb_samples_write_channel(d->samples, VX_GLB_ROTATION, o, err);
    return st;
}

static vx_status write_file(vx_body_writer *w, vx_error *err)
{
    vx_glb_document d;
    memset(&d, 0, sizeof d);
    d.info = w->info;
    d.samples = &w->glb->samples;
    char *json = NULL;
    size_t json_length = 0;
    vx_status st = lay_out(&d, err);
    if (st == VX_OK) st = json_text(&d, &json, &json_length, err);
    uint64_t json_chunk = aligned(json_length);
    uint64_t total = 12u + 8u + json_chunk + (d.binary_length ? 8u + d.binary_length : 0u);
    if (st == VX_OK && total > UINT32_MAX) {
        vx_error_set(err, VX_ERR_IO, "the glb file would be over 4 GiB (glTF's limit): write fewer frames (--every)");
        st = VX_ERR_IO;
    }
    if (st == VX_OK) {
        vx_trace_out o;
        vx_trace_out_init(&o, w->out);
        vx_glb_put_u32(&o, GLB_MAGIC);
        vx_glb_put_u32(&o, 2u);
        vx_glb_put_u32(&o, (uint32_t)total);
        vx_glb_put_u32(&o, (uint32_t)json_chunk);
        vx_glb_put_u32(&o, GLB_CHUNK_JSON);
        vx_trace_out_bytes(&o, json, json_length);
        for (uint64_t k = json_length; k < json_chunk; k++) vx_trace_out_char(&o, ' ');
        if (d.binary_length) {
            vx_glb_put_u32(&o, (uint32_t)d.binary_length);
            vx_glb_put_u32(&o, GLB_CHUNK_BIN);
            st = write_binary(&d, &o, err);
        }
        vx_error flush_err;
        vx_status flushed = vx_trace_out_flush(&o, true, &flush_err);
        if (st == VX_OK && flushed != VX_OK) {
            st = flushed;
            *err = flush_err;
        }
    }
    free(json);
    document_free(&d);
    return st;
}

vx_status vx_body_glb_end(vx_body_writer *w, vx_error *err)
{
    if (!w->glb) return vx_trace_file_flush(w->out, err);
    vx_status st = w->glb->samples.file ? write_file(w, err) : VX_OK;
    vx_glb_samples_close(&w->glb->samples);
    free(w->glb);
    w->glb = NULL;
    return st;
}
