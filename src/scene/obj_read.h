/* Wavefront OBJ meshes for a scene's "mesh" collider: the vertices (`v x y
 * z`, further numbers ignored) and faces (`f` with 3 or more corners, each
 * `v`, `v/vt`, `v//vn` or `v/vt/vn`; an index counts from 1, a negative
 * one back from the last vertex so far), every polygon fanned into
 * triangles from its first corner. Other statements (vt, vn, o, g, s,
 * usemtl, mtllib, l, ...) are read past. Errors name the file and line:
 * "PATH:LINE: ...". */
#ifndef VX_SCENE_OBJ_READ_H
#define VX_SCENE_OBJ_READ_H

#include <stddef.h>
#include <stdint.h>

#include "voltex/error.h"
#include "voltex/math.h"

typedef struct {
    vx_vec3 *vertices;
    size_t vertex_count, vertex_capacity;
    uint32_t *indices; /* 3 per triangle */
    size_t triangle_count, index_capacity;
} vx_obj_mesh;

/* Parses text[0, length) (path names it in messages) into *out, which the
 * caller frees with vx_obj_mesh_free (also on failure). VX_ERR_SYNTAX for a
 * malformed statement, VX_ERR_INVALID for an index out of range, a
 * degenerate triangle or no faces at all, VX_ERR_NOMEM. */
vx_status vx_obj_parse(const char *text, size_t length, const char *path, vx_obj_mesh *out, vx_error *err);
void vx_obj_mesh_free(vx_obj_mesh *mesh);

#endif
