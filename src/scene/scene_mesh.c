/* "mesh" and "heightfield" colliders: their data read and checked, with the
 * JSON path (or the OBJ file and line) of anything wrong, and the shape
 * made by the scene's world (once per collider object: a shared shape is
 * one mesh for every entity that names it). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scene/obj_read.h"
#include "scene/scene_internal.h"

/* Elements of a JSON array (cJSON_GetArraySize counts the same way). */
static size_t array_size(const cJSON *array)
{
    size_t n = 0;
    for (const cJSON *e = array->child; e; e = e->next) n++;
    return n;
}

static vx_status made(vx_scene_builder *b, vx_status st, const vx_error *err)
{
    if (st == VX_ERR_NOMEM) return vx_scene_fail_nomem(b);
    if (st != VX_OK) return vx_json_fail(&b->json, st, "%s", err->message);
    return VX_OK;
}

/* "vertices": 3 or more [x, y, z]. */
static vx_status read_vertices(vx_scene_builder *b, const cJSON *item, vx_vec3 **out, size_t *count)
{
    vx_json_reader *r = &b->json;
    vx_status st = vx_json_expect_array(r, item);
    if (st != VX_OK) return st;
    size_t n = array_size(item);
    if (n < 3) return vx_json_fail(r, VX_ERR_INVALID, "must have at least 3 vertices (%zu given)", n);
    if (n > VX_MAX_MESH_VERTICES) return vx_json_fail(r, VX_ERR_INVALID, "more than %u vertices", VX_MAX_MESH_VERTICES);
    *out = malloc(n * sizeof **out);
    if (!*out) return vx_scene_fail_nomem(b);
    *count = n;
    size_t i = 0;
    for (const cJSON *e = item->child; st == VX_OK && e; e = e->next, i++) {
        size_t mark = vx_json_path_push_index(r, i);
        st = vx_json_read_vec3(r, e, VX_JSON_ANY, &(*out)[i]);
        vx_json_path_pop(r, mark);
    }
    return st;
}

/* One [i, j, k] of "triangles", indices into vertex_count vertices. */
static vx_status read_triangle(vx_json_reader *r, const cJSON *item, const vx_vec3 *v, size_t vertex_count,
                               uint32_t out[3])
{
    if (!cJSON_IsArray(item) || array_size(item) != 3)
        return vx_json_fail(r, VX_ERR_INVALID, "must be [i, j, k]: three vertex indices");
    size_t k = 0;
    for (const cJSON *e = item->child; e; e = e->next, k++) {
        size_t mark = vx_json_path_push_index(r, k);
        int64_t index = 0;
        vx_status st = vx_json_read_int(r, e, INT32_MIN, INT32_MAX, &index);
        if (st == VX_OK && (index < 0 || (uint64_t)index >= vertex_count))
            st = vx_json_fail(r, VX_ERR_INVALID, "index %lld is out of range (%zu vertices: 0..%zu)", (long long)index,
                              vertex_count, vertex_count - 1u);
        vx_json_path_pop(r, mark);
        if (st != VX_OK) return st;
        out[k] = (uint32_t)index;
    }
    if (vx_triangle_is_degenerate(v[out[0]], v[out[1]], v[out[2]]))
        return vx_json_fail(r, VX_ERR_INVALID, "degenerate triangle (its corners are on one line)");
    return VX_OK;
}

static vx_status read_triangles(vx_scene_builder *b, const cJSON *item, const vx_vec3 *v, size_t vertex_count,
                                uint32_t **out, size_t *count)
{
    vx_json_reader *r = &b->json;
    vx_status st = vx_json_expect_array(r, item);
    if (st != VX_OK) return st;
    size_t n = array_size(item);
    if (n == 0) return vx_json_fail(r, VX_ERR_INVALID, "must have at least 1 triangle");
    if (n > VX_MAX_MESH_TRIANGLES)
        return vx_json_fail(r, VX_ERR_INVALID, "more than %u triangles", VX_MAX_MESH_TRIANGLES);
    *out = malloc(3u * n * sizeof **out);
    if (!*out) return vx_scene_fail_nomem(b);
    *count = n;
    size_t i = 0;
    for (const cJSON *e = item->child; st == VX_OK && e; e = e->next, i++) {
        size_t mark = vx_json_path_push_index(r, i);
        st = read_triangle(r, e, v, vertex_count, &(*out)[3u * i]);
        vx_json_path_pop(r, mark);
    }
    return st;
}

/* The OBJ file's path: as given when absolute, else beside the scene file
 * (the working directory for a scene without a directory: stdin). */
static char *obj_path(const char *scene, const char *given)
{
    const char *slash = given[0] == '/' ? NULL : strrchr(scene, '/');
    size_t dir = slash ? (size_t)(slash - scene) + 1u : 0u, length = strlen(given);
    char *path = malloc(dir + length + 1u);
    if (!path) return NULL;
    memcpy(path, scene, dir);
    memcpy(path + dir, given, length + 1u);
    return path;
}

/* "obj": the file's vertices and faces (obj_read.h); run with "obj" on the path. */
static vx_status read_obj(vx_scene_builder *b, const cJSON *item, vx_collider *c)
{
    vx_json_reader *r = &b->json;
    const char *given = NULL;
    vx_status st = vx_json_read_string(r, item, &given);
    if (st != VX_OK) return st;
    if (given[0] == '\0') return vx_json_fail(r, VX_ERR_INVALID, "must name an OBJ file");
    char *path = obj_path(r->source, given);
    if (!path) return vx_scene_fail_nomem(b);
    char *text = NULL;
    size_t length = 0;
    vx_error err;
    st = vx_scene_read_file(path, &text, &length, &err);
    if (st == VX_ERR_NOMEM) st = vx_scene_fail_nomem(b);
    else if (st != VX_OK) st = vx_json_fail(r, st, "%s", err.message);
    vx_obj_mesh mesh;
    memset(&mesh, 0, sizeof mesh);
    if (st == VX_OK) {
        st = vx_obj_parse(text, length, path, &mesh, &err);
        if (st != VX_OK) vx_error_set(r->err, st, "%s", err.message); /* the file and line say where */
    }
    free(text);
    free(path);
    if (st == VX_OK) {
        st = vx_world_make_mesh(b->scene->world, mesh.vertices, mesh.vertex_count, mesh.indices,
                                mesh.triangle_count, &c->mesh, &err);
        st = made(b, st, &err);
    }
    vx_obj_mesh_free(&mesh);
    return st;
}

vx_status vx_scene_read_mesh(vx_scene_builder *b, const cJSON *vertices, const cJSON *triangles, const cJSON *obj,
                             vx_collider *c)
{
    vx_json_reader *r = &b->json;
    if (obj) {
        size_t mark = vx_json_path_push_key(r, "obj");
        vx_status st = vertices || triangles
                           ? vx_json_fail(r, VX_ERR_INVALID, "give either \"obj\" or \"vertices\" and \"triangles\"")
                           : read_obj(b, obj, c);
        vx_json_path_pop(r, mark);
        return st;
    }
    if (!vertices) return vx_json_missing(r, "vertices", " for a mesh, with \"triangles\" (or \"obj\")");
    if (!triangles) return vx_json_missing(r, "triangles", " for a mesh, with \"vertices\" (or \"obj\")");
    vx_vec3 *v = NULL;
    uint32_t *idx = NULL;
    size_t nv = 0, nt = 0;
    size_t mark = vx_json_path_push_key(r, "vertices");
    vx_status st = read_vertices(b, vertices, &v, &nv);
    vx_json_path_pop(r, mark);
    if (st == VX_OK) {
        mark = vx_json_path_push_key(r, "triangles");
        st = read_triangles(b, triangles, v, nv, &idx, &nt);
        vx_json_path_pop(r, mark);
    }
    if (st == VX_OK) {
        vx_error err;
        st = made(b, vx_world_make_mesh(b->scene->world, v, nv, idx, nt, &c->mesh, &err), &err);
    }
    free(v);
    free(idx);
    return st;
}

/* "heights": 2 or more rows of 2 or more heights each, every row as long
 * as the first; into a new array, row by row. */
static vx_status read_heights(vx_scene_builder *b, const cJSON *item, float **out, size_t *rows, size_t *columns)
{
    vx_json_reader *r = &b->json;
    vx_status st = vx_json_expect_array(r, item);
    if (st != VX_OK) return st;
    *rows = array_size(item);
    if (*rows < 2) return vx_json_fail(r, VX_ERR_INVALID, "must have at least 2 rows (%zu given)", *rows);
    *columns = 0;
    size_t j = 0;
    for (const cJSON *row = item->child; st == VX_OK && row; row = row->next, j++) {
        size_t mark = vx_json_path_push_index(r, j);
        st = vx_json_expect_array(r, row);
        size_t n = st == VX_OK ? array_size(row) : 0;
        if (st == VX_OK && j == 0 && n < 2)
            st = vx_json_fail(r, VX_ERR_INVALID, "must have at least 2 heights (%zu given)", n);
        if (st == VX_OK && j == 0) {
            *columns = n;
            if ((double)*rows * (double)n > (double)VX_MAX_MESH_TRIANGLES)
                st = vx_json_fail(r, VX_ERR_INVALID, "too many heights (more than %u)", VX_MAX_MESH_TRIANGLES);
            if (st == VX_OK && !(*out = malloc(*rows * n * sizeof **out))) st = vx_scene_fail_nomem(b);
        }
        if (st == VX_OK && n != *columns)
            st = vx_json_fail(r, VX_ERR_INVALID, "has %zu height%s, row 0 has %zu (every row as long)", n,
                              n == 1 ? "" : "s", *columns);
        size_t i = 0;
        for (const cJSON *e = st == VX_OK ? row->child : NULL; st == VX_OK && e; e = e->next, i++) {
            size_t element = vx_json_path_push_index(r, i);
            st = vx_json_read_float(r, e, VX_JSON_ANY, &(*out)[j * *columns + i]);
            vx_json_path_pop(r, element);
        }
        vx_json_path_pop(r, mark);
    }
    return st;
}

vx_status vx_scene_read_heightfield(vx_scene_builder *b, const cJSON *heights, const cJSON *spacing, vx_collider *c)
{
    vx_json_reader *r = &b->json;
    if (!heights) return vx_json_missing(r, "heights", " for a heightfield");
    if (!spacing) return vx_json_missing(r, "spacing", " for a heightfield");
    float d[2] = {0.0f, 0.0f};
    size_t mark = vx_json_path_push_key(r, "spacing");
    vx_status st = vx_json_read_floats(r, spacing, 2, VX_JSON_POSITIVE, d);
    vx_json_path_pop(r, mark);
    if (st != VX_OK) return st;
    float *h = NULL;
    size_t rows = 0, columns = 0;
    mark = vx_json_path_push_key(r, "heights");
    st = read_heights(b, heights, &h, &rows, &columns);
    vx_json_path_pop(r, mark);
    if (st == VX_OK) {
        vx_error err;
        st = made(b, vx_world_make_heightfield(b->scene->world, h, rows, columns, d[0], d[1], &c->mesh, &err), &err);
    }
    free(h);
    return st;
}
