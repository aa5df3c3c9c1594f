/* Colliders as triangles for --format glb (glb_mesh.h). */
#include "trace/glb_mesh.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common/assert.h"
#include "physics/body/hull.h"
#include "physics/body/mesh.h"

_Static_assert(VX_GLB_RINGS >= 4u && (VX_GLB_RINGS & (VX_GLB_RINGS - 1u)) == 0u, "rings: a power of two");
_Static_assert(VX_GLB_SEGMENTS == 2u * VX_GLB_RINGS, "one angle step around and from pole to pole");

#define VX_GLB_STEPS (2u * VX_GLB_RINGS) /* angle steps in a full turn */

/* cos and sin of k pi / VX_GLB_RINGS for k = 0 .. VX_GLB_STEPS: the step's
 * cosine by halving a right angle (sqrt is exactly rounded), then turns by
 * it in double, so every machine gets the same bits without libm's sin. */
static void unit_circle(double c[VX_GLB_STEPS + 1u], double s[VX_GLB_STEPS + 1u])
{
    double step_cos = 0.0; /* cos(pi / 2) */
    for (unsigned n = 2u; n < VX_GLB_RINGS; n *= 2u) step_cos = sqrt((1.0 + step_cos) * 0.5);
    double step_sin = sqrt((1.0 - step_cos) * (1.0 + step_cos));
    c[0] = 1.0;
    s[0] = 0.0;
    for (unsigned k = 1u; k <= VX_GLB_STEPS; k++) {
        c[k] = c[k - 1u] * step_cos - s[k - 1u] * step_sin;
        s[k] = s[k - 1u] * step_cos + c[k - 1u] * step_sin;
    }
}

static vx_status allocate(vx_glb_mesh *m, size_t vertices, size_t triangles, bool normals)
{
    memset(m, 0, sizeof *m);
    if (vertices > UINT32_MAX || triangles > UINT32_MAX / 3u) return VX_ERR_NOMEM;
    m->positions = malloc((vertices ? vertices : 1u) * 3u * sizeof *m->positions);
    m->normals = normals ? malloc((vertices ? vertices : 1u) * 3u * sizeof *m->normals) : NULL;
    m->indices = malloc((triangles ? triangles : 1u) * 3u * sizeof *m->indices);
    if (!m->positions || !m->indices || (normals && !m->normals)) {
        vx_glb_mesh_free(m);
        return VX_ERR_NOMEM;
    }
    m->vertex_count = (uint32_t)vertices;
    m->triangle_count = (uint32_t)triangles;
    return VX_OK;
}

static void put_vertex(vx_glb_mesh *m, uint32_t v, vx_vec3 p, vx_vec3 n)
{
    VX_ASSERT(v < m->vertex_count);
    float *pos = m->positions + 3u * v;
    pos[0] = p.x;
    pos[1] = p.y;
    pos[2] = p.z;
    if (!m->normals) return;
    float *nor = m->normals + 3u * v;
    nor[0] = n.x;
    nor[1] = n.y;
    nor[2] = n.z;
}

static void put_triangle(vx_glb_mesh *m, uint32_t *t, uint32_t a, uint32_t b, uint32_t c)
{
    VX_ASSERT(*t < m->triangle_count);
    uint32_t *idx = m->indices + 3u * *t;
    idx[0] = a;
    idx[1] = b;
    idx[2] = c;
    (*t)++;
}

/* A sphere (half_height 0) or a capsule along Y: a pole, rings of
 * VX_GLB_SEGMENTS vertices, the other pole; a capsule's middle ring twice,
 * at +half_height and -half_height, the band between them its cylinder. */
static vx_status round_shape(float radius, float half_height, vx_glb_mesh *m)
{
    const uint32_t segments = VX_GLB_SEGMENTS, half = VX_GLB_RINGS / 2u;
    const bool band = half_height > 0.0f;
    const uint32_t rows = VX_GLB_RINGS - 1u + (band ? 1u : 0u);
    vx_status st = allocate(m, 2u + (size_t)rows * segments, 2u * (size_t)segments * rows, true);
    if (st != VX_OK) return st;
    double c[VX_GLB_STEPS + 1u], s[VX_GLB_STEPS + 1u];
    unit_circle(c, s);
    const uint32_t bottom = 1u + rows * segments;
    put_vertex(m, 0u, vx_vec3_make(0.0f, radius + half_height, 0.0f), vx_vec3_make(0.0f, 1.0f, 0.0f));
    for (uint32_t row = 0; row < rows; row++) {
        uint32_t k = row + 1u - (band && row >= half ? 1u : 0u); /* the ring's angle from the top pole */
        float offset = band ? (row < half ? half_height : -half_height) : 0.0f;
        for (uint32_t j = 0; j < segments; j++) {
            vx_vec3 n = vx_vec3_make((float)(s[k] * c[j]), (float)c[k], (float)(s[k] * s[j]));
            vx_vec3 p = vx_vec3_make((float)((double)radius * s[k] * c[j]),
                                     (float)((double)radius * c[k] + (double)offset),
                                     (float)((double)radius * s[k] * s[j]));
            put_vertex(m, 1u + row * segments + j, p, n);
        }
    }
    put_vertex(m, bottom, vx_vec3_make(0.0f, -radius - half_height, 0.0f), vx_vec3_make(0.0f, -1.0f, 0.0f));
    uint32_t t = 0;
    for (uint32_t j = 0; j < segments; j++) {
        uint32_t next = (j + 1u) % segments;
        put_triangle(m, &t, 0u, 1u + next, 1u + j);
        for (uint32_t row = 0; row + 1u < rows; row++) {
            uint32_t u0 = 1u + row * segments + j, u1 = 1u + row * segments + next;
            uint32_t l0 = u0 + segments, l1 = u1 + segments;
            put_triangle(m, &t, u0, l1, l0);
            put_triangle(m, &t, u0, u1, l1);
        }
        uint32_t last = 1u + (rows - 1u) * segments;
        put_triangle(m, &t, last + j, last + next, bottom);
    }
    VX_ASSERT(t == m->triangle_count);
    return VX_OK;
}

/* Four corners per face, each face with its normal. */
static vx_status box(vx_vec3 half_extents, vx_glb_mesh *m)
{
    vx_status st = allocate(m, 24u, 12u, true);
    if (st != VX_OK) return st;
    static const float corner_u[4] = {-1.0f, 1.0f, 1.0f, -1.0f}, corner_v[4] = {-1.0f, -1.0f, 1.0f, 1.0f};
    uint32_t v = 0, t = 0;
    for (int axis = 0; axis < 3; axis++) {
        int u = (axis + 1) % 3, w = (axis + 2) % 3; /* e_u x e_w = e_axis */
        for (int side = 0; side < 2; side++) {
            float sign = side == 0 ? 1.0f : -1.0f;
            vx_vec3 n = vx_vec3_zero();
            vx_vec3_set(&n, axis, sign);
            for (int k = 0; k < 4; k++) {
                int corner = side == 0 ? k : 3 - k; /* counter-clockwise seen from outside */
                vx_vec3 p = vx_vec3_zero();
                vx_vec3_set(&p, axis, sign * vx_vec3_get(half_extents, axis));
                vx_vec3_set(&p, u, corner_u[corner] * vx_vec3_get(half_extents, u));
                vx_vec3_set(&p, w, corner_v[corner] * vx_vec3_get(half_extents, w));
                put_vertex(m, v + (uint32_t)k, p, n);
            }
            put_triangle(m, &t, v, v + 1u, v + 2u);
            put_triangle(m, &t, v, v + 2u, v + 3u);
            v += 4u;
        }
    }
    return VX_OK;
}

/* Each face's polygon as a fan, its corners with the face's normal, placed
 * by the hull's frame into the entity's. */
static vx_status hull(const vx_hull *h, vx_glb_mesh *m)
{
    size_t vertices = 0, triangles = 0;
    for (uint16_t f = 0; f < h->face_count; f++) {
        vertices += h->faces[f].edge_count;
        triangles += h->faces[f].edge_count - 2u;
    }
    vx_status st = allocate(m, vertices, triangles, true);
    if (st != VX_OK) return st;
    uint32_t v = 0, t = 0;
    for (uint16_t f = 0; f < h->face_count; f++) {
        const vx_hull_face *face = &h->faces[f];
        vx_vec3 n = vx_quat_rotate(h->frame.rotation, face->normal);
        uint16_t e = face->first_edge;
        for (uint16_t k = 0; k < face->edge_count; k++) {
            vx_vec3 p = vx_vec3_add(h->frame.position, vx_quat_rotate(h->frame.rotation, h->vertices[h->edges[e].origin]));
            put_vertex(m, v + k, p, n);
            if (k >= 2u) put_triangle(m, &t, v, v + k - 1u, v + k);
            e = h->edges[e].next;
        }
        VX_ASSERT(e == face->first_edge);
        v += face->edge_count;
    }
    return VX_OK;
}

static vx_status triangle_mesh(const vx_mesh *mesh, vx_glb_mesh *m)
{
    vx_status st = allocate(m, mesh->vertex_count, mesh->triangle_count, false);
    if (st != VX_OK) return st;
    for (uint32_t v = 0; v < mesh->vertex_count; v++) put_vertex(m, v, mesh->vertices[v], vx_vec3_zero());
    memcpy(m->indices, mesh->indices, (size_t)mesh->triangle_count * 3u * sizeof *m->indices);
    return VX_OK;
}

/* A vertex per height; each cell's two triangles share the diagonal from
 * (column i, row j) to (column i + 1, row j + 1), as the heightfield collides. */
static vx_status heightfield(const vx_mesh *mesh, vx_glb_mesh *m)
{
    const uint32_t rows = mesh->rows, columns = mesh->columns;
    vx_status st = allocate(m, (size_t)rows * columns, 2u * (size_t)(rows - 1u) * (columns - 1u), false);
    if (st != VX_OK) return st;
    for (uint32_t j = 0; j < rows; j++)
        for (uint32_t i = 0; i < columns; i++)
            put_vertex(m, j * columns + i,
                       vx_vec3_make((float)i * mesh->spacing_x, mesh->heights[(size_t)j * columns + i],
                                    (float)j * mesh->spacing_z),
                       vx_vec3_zero());
    uint32_t t = 0;
    for (uint32_t j = 0; j + 1u < rows; j++) {
        for (uint32_t i = 0; i + 1u < columns; i++) {
            uint32_t a = j * columns + i, b = a + 1u, d = a + columns, c = d + 1u;
            put_triangle(m, &t, a, c, b); /* front (+Y) up */
            put_triangle(m, &t, a, d, c);
        }
    }
    return VX_OK;
}

/* A compound: its parts' triangles one after the other, each placed by its
 * pose in the entity's frame. */
static vx_status compound(const vx_compound *comp, vx_glb_mesh *m)
{
    size_t count = vx_compound_get_info(comp).part_count;
    vx_glb_mesh *parts = calloc(count ? count : 1u, sizeof *parts);
    if (!parts) return VX_ERR_NOMEM;
    vx_status st = VX_OK;
    size_t vertices = 0, triangles = 0;
    for (size_t k = 0; k < count && st == VX_OK; k++) {
        vx_compound_part part = vx_compound_get_part(comp, k);
        st = vx_glb_mesh_make(&part.shape, &parts[k]);
        vertices += parts[k].vertex_count;
        triangles += parts[k].triangle_count;
    }
    if (st == VX_OK) st = allocate(m, vertices, triangles, true);
    if (st == VX_OK) {
        uint32_t v = 0, t = 0;
        for (size_t k = 0; k < count; k++) {
            vx_transform pose = vx_compound_get_part(comp, k).pose;
            const vx_glb_mesh *pm = &parts[k];
            VX_ASSERT(pm->normals); /* parts are convex: they have normals */
            for (uint32_t i = 0; i < pm->vertex_count; i++) {
                const float *p = pm->positions + 3u * i, *n = pm->normals + 3u * i;
                vx_vec3 at = vx_vec3_add(pose.position, vx_quat_rotate(pose.rotation, vx_vec3_make(p[0], p[1], p[2])));
                put_vertex(m, v + i, at, vx_quat_rotate(pose.rotation, vx_vec3_make(n[0], n[1], n[2])));
            }
            for (uint32_t i = 0; i < pm->triangle_count; i++)
                put_triangle(m, &t, v + pm->indices[3u * i], v + pm->indices[3u * i + 1u], v + pm->indices[3u * i + 2u]);
            v += pm->vertex_count;
        }
    }
    for (size_t k = 0; k < count; k++) vx_glb_mesh_free(&parts[k]);
    free(parts);
    return st;
}

vx_status vx_glb_mesh_make(const vx_collider *c, vx_glb_mesh *out)
{
    vx_status st;
    switch (c->type) {
    case VX_SHAPE_COMPOUND: return compound(c->compound, out);
    case VX_SHAPE_SPHERE: return round_shape(c->radius, 0.0f, out);
    case VX_SHAPE_CAPSULE: return round_shape(c->radius, c->half_height, out);
    case VX_SHAPE_BOX: return box(c->half_extents, out);
    case VX_SHAPE_HULL: return hull(c->hull, out);
    case VX_SHAPE_MESH:
    case VX_SHAPE_HEIGHTFIELD:
    default:
        st = c->mesh->kind == VX_MESH_HEIGHTFIELD ? heightfield(c->mesh, out) : triangle_mesh(c->mesh, out);
        out->two_sided = true;
        return st;
    }
}

void vx_glb_mesh_free(vx_glb_mesh *m)
{
    free(m->positions);
    free(m->normals);
    free(m->indices);
    memset(m, 0, sizeof *m);
}
