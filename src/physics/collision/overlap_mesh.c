/* Whether a convex shape overlaps a mesh or heightfield (collide_mesh.h),
 * exactly, in double in the mesh's frame: a sphere or capsule when its
 * centre or segment comes closer than its radius to a triangle; a box or
 * hull when no axis separates it from a triangle, of the triangle's normal,
 * the shape's face normals and the cross products of their edges (two
 * convex polytopes, the triangle a flat one). Touching is not overlapping.
 * The triangles come from the mesh's tree under the shape's bounds. */
#include <math.h>
#include <string.h>

#include "common/assert.h"
#include "physics/body/hull.h"
#include "physics/body/shape.h"
#include "physics/collision/collide_internal.h"
#include "physics/collision/collide_mesh.h"
#include "physics/collision/triangle_geometry.h"

/* The most edge directions of a hull: 3 V - 6 (hull.h). */
#define OVERLAP_MAX_EDGES (3 * VX_HULL_MAX_POINTS - 6)
#define OVERLAP_MAX_FACES (2 * VX_HULL_MAX_POINTS - 4)

/* The shape in the mesh's frame. */
typedef struct {
    const vx_mesh *mesh;
    vx_shape_type type;
    double radius;
    double a[3], b[3]; /* sphere: the centre (a); capsule: the segment */
    int vertex_count, face_count, edge_count;
    double (*vertex)[3], (*face)[3], (*edge)[3];
    bool hit;
} overlap;

/* The shape's frame in the mesh's: x -> r x + t. */
typedef struct {
    double r[3][3], t[3];
} dframe;

static void place(const dframe *f, vx_vec3 local, double out[3])
{
    const double l[3] = {local.x, local.y, local.z};
    for (int i = 0; i < 3; i++) out[i] = f->r[i][0] * l[0] + f->r[i][1] * l[1] + f->r[i][2] * l[2] + f->t[i];
}

static void turn(const dframe *f, vx_vec3 local, double out[3])
{
    const double l[3] = {local.x, local.y, local.z};
    for (int i = 0; i < 3; i++) out[i] = f->r[i][0] * l[0] + f->r[i][1] * l[1] + f->r[i][2] * l[2];
}

/* Whether the intervals of the triangle and the polytope along axis overlap
 * with a length (an axis of touching or apart separates). */
static bool separates(const overlap *o, const vx_dtriangle *tr, const double axis[3])
{
    double tlo = vx_tri_dot(axis, tr->v[0]), thi = tlo;
    for (int k = 1; k < 3; k++) {
        double x = vx_tri_dot(axis, tr->v[k]);
        tlo = fmin(tlo, x);
        thi = fmax(thi, x);
    }
    double plo = vx_tri_dot(axis, o->vertex[0]), phi = plo;
    for (int k = 1; k < o->vertex_count; k++) {
        double x = vx_tri_dot(axis, o->vertex[k]);
        plo = fmin(plo, x);
        phi = fmax(phi, x);
    }
    return !(thi > plo && phi > tlo);
}

static bool polytope_overlaps(const overlap *o, const vx_dtriangle *tr)
{
    if (separates(o, tr, tr->n)) return false;
    for (int f = 0; f < o->face_count; f++)
        if (separates(o, tr, o->face[f])) return false;
    for (int k = 0; k < 3; k++) {
        double e[3];
        vx_tri_sub(tr->v[(k + 1) % 3], tr->v[k], e);
        double ee = vx_tri_dot(e, e);
        for (int j = 0; j < o->edge_count; j++) {
            double axis[3];
            vx_tri_cross(e, o->edge[j], axis);
            /* (nearly) parallel edges make no axis: the faces cover them */
            if (!(vx_tri_dot(axis, axis) > 1e-24 * ee * vx_tri_dot(o->edge[j], o->edge[j]))) continue;
            if (separates(o, tr, axis)) return false;
        }
    }
    return true;
}

static bool visit(void *context, uint32_t t)
{
    overlap *o = context;
    vx_dtriangle tr;
    vx_tri_load(o->mesh, t, &tr);
    double r_sq = o->radius * o->radius;
    switch (o->type) {
    case VX_SHAPE_SPHERE: o->hit = vx_tri_distance_sq(&tr, o->a) < r_sq; break;
    case VX_SHAPE_CAPSULE: o->hit = vx_tri_segment_distance_sq(&tr, o->a, o->b) < r_sq; break;
    default: o->hit = polytope_overlaps(o, &tr); break;
    }
    return !o->hit;
}

bool vx_overlap_mesh(const vx_collider *shape, const vx_transform *pose, const vx_collider *mesh,
                     const vx_transform *mesh_pose)
{
    VX_ASSERT(vx_collider_is_mesh(mesh) && !vx_collider_is_mesh(shape));
    /* the shape's frame in the mesh's: R = Rm^T Rs, t = Rm^T (ps - pm), in double */
    vx_quat qm = vx_collide_rotation(mesh_pose), qs = vx_collide_rotation(pose);
    vx_mat3 rm = vx_mat3_from_quat(qm), rs = vx_mat3_from_quat(qs);
    dframe f;
    for (int i = 0; i < 3; i++) {
        f.t[i] = 0.0;
        for (int j = 0; j < 3; j++) {
            f.r[i][j] = 0.0;
            for (int k = 0; k < 3; k++) f.r[i][j] += (double)rm.m[k][i] * (double)rs.m[k][j];
            f.t[i] += (double)rm.m[j][i] *
                      ((double)vx_vec3_get(pose->position, j) - (double)vx_vec3_get(mesh_pose->position, j));
        }
    }
    double vertex[VX_HULL_MAX_POINTS][3], face[OVERLAP_MAX_FACES][3], edge[OVERLAP_MAX_EDGES][3];
    overlap o;
    memset(&o, 0, sizeof o);
    o.mesh = mesh->mesh;
    o.type = shape->type;
    o.radius = shape->radius;
    o.vertex = vertex;
    o.face = face;
    o.edge = edge;
    switch (shape->type) {
    case VX_SHAPE_SPHERE: place(&f, vx_vec3_zero(), o.a); break;
    case VX_SHAPE_CAPSULE:
        place(&f, vx_vec3_make(0.0f, -shape->half_height, 0.0f), o.a);
        place(&f, vx_vec3_make(0.0f, shape->half_height, 0.0f), o.b);
        break;
    case VX_SHAPE_BOX: {
        vx_vec3 h = shape->half_extents;
        for (int i = 0; i < 8; i++)
            place(&f, vx_vec3_make(i & 1 ? h.x : -h.x, i & 2 ? h.y : -h.y, i & 4 ? h.z : -h.z), vertex[i]);
        for (int k = 0; k < 3; k++) {
            vx_vec3 axis = vx_vec3_zero();
            vx_vec3_set(&axis, k, 1.0f);
            turn(&f, axis, face[k]);
            turn(&f, axis, edge[k]);
        }
        o.vertex_count = 8;
        o.face_count = o.edge_count = 3;
        break;
    }
    case VX_SHAPE_HULL: {
        const vx_hull *h = shape->hull;
        for (int i = 0; i < h->vertex_count; i++) place(&f, h->vertices[i], vertex[i]);
        for (int k = 0; k < h->face_count; k++) turn(&f, h->faces[k].normal, face[k]);
        for (int e = 0; e < h->edge_count / 2; e++)
            turn(&f, vx_vec3_sub(h->vertices[h->edges[2 * e + 1].origin], h->vertices[h->edges[2 * e].origin]),
                 edge[e]);
        o.vertex_count = h->vertex_count;
        o.face_count = h->face_count;
        o.edge_count = h->edge_count / 2;
        break;
    }
    default: return false;
    }
    /* the triangles under the shape's bounds in the mesh's frame */
    vx_transform rel;
    rel.position = vx_vec3_make((float)f.t[0], (float)f.t[1], (float)f.t[2]);
    rel.rotation = vx_quat_mul(vx_quat_conjugate(qm), qs);
    vx_aabb box = vx_shape_aabb(shape, rel.position, rel.rotation);
    float pad = 1e-5f * (1.0f + vx_vec3_length(rel.position) + vx_collide_shape_reach(shape));
    vx_vec3 g = vx_vec3_make(pad, pad, pad);
    vx_mesh_query(o.mesh, vx_aabb_new(vx_vec3_sub(box.min, g), vx_vec3_add(box.max, g)), visit, &o);
    return o.hit;
}
