/* A convex shape against a mesh or heightfield (collide_mesh.h).
 *
 * 1. The triangles whose bounds meet the shape's (in the mesh's frame,
 *    grown by the margin), one by one: the prism of the triangle facing the
 *    side the shape's centre is on, against the shape, by the hull code.
 * 2. A normal that is not the triangle's own (within VX_MESH_FACE_COS)
 *    stands only when the deepest point leans on an edge, or a corner's two
 *    edges, of which one is active from the shape's side (mesh.h: a border
 *    or a convex fold), as Jolt and Box3D keep their active edges. Every
 *    other contact is the face's: the shape's points over the triangle
 *    along its normal, all of them (a box's face clipped to the triangle,
 *    the sphere's lowest point, the capsule's segment clipped), not yet
 *    reduced. A flat surface of many triangles then gives one normal, and
 *    nothing leans over its inner edges.
 * 3. The triangles' points are gathered by normal, deepest triangles first
 *    (so that the order of the triangles does not matter), into groups
 *    within VX_MESH_SAME_NORMAL_COS of a group's deepest normal: a group's
 *    points are measured along that normal, points of one feature id or
 *    closer than a merge distance are one (the deeper kept), and a group
 *    keeps at most 4 (vx_contact_reduce: the deepest, the farthest, the
 *    largest triangle, the most area; a sphere 1, a capsule its 2 farthest
 *    apart). A box on a floor of many triangles gets the corners it gets on
 *    one box.
 * 4. Each group is a manifold whose part is its normal's cell on a cube map
 *    of 6 x 7 x 7 cells in the mesh's frame (an axis-aligned normal is in
 *    the middle of a cell), so that its warm-start entries follow it from
 *    step to step while it slides from triangle to triangle.
 *
 * Feature ids: kind VX_FEATURE_KIND_MESH in bits 24..27; a point that is a
 * feature of the shape alone (a box's or hull's vertex, the sphere's
 * point, a capsule's end) has bit 23 clear and that feature in bits 0..22,
 * the same whichever triangle it touches; any other point has bit 23 set
 * and a hash of its triangle and the hull code's id below. */
#include "physics/collision/collide_mesh.h"

#include <math.h>
#include <string.h>

#include "common/assert.h"
#include "physics/body/compound.h"
#include "physics/body/mesh.h"
#include "physics/body/shape.h"
#include "physics/body/triangle_hull.h"
#include "physics/collision/collide_internal.h"
#include "physics/collision/collide_prism_sphere.h"

/* cos of 1 degree: a contact normal this close to the triangle's is a face
 * contact; two normals this close are one group's. */
#define VX_MESH_FACE_COS 0.99984770f
#define VX_MESH_SAME_NORMAL_COS 0.99984770f
/* A point within this fraction of the triangle's size (plus 1 um) of an
 * edge's line lies on the edge. */
#define VX_MESH_ON_EDGE_REL 1e-3f
#define VX_MESH_ON_EDGE_ABS 1e-6f
/* A point this far (per m of the triangle's size and distance from the
 * mesh's origin) past a side of the triangle is still over it. */
#define VX_MESH_INSIDE_REL 1e-5f
/* Points of a group closer than this per m of the shape's reach (at least
 * 1 m) are one. */
#define VX_MESH_MERGE_REL 1e-5f
/* Groups gathered at most before the least similar is merged; points a
 * group holds before it is reduced to 4 and goes on. */
#define MESH_GROUPS_MAX 16
#define MESH_GROUP_POINTS 64
/* Triangle contacts gathered before they are grouped, deepest first (so
 * that the groups do not depend on the order the triangles come in). */
#define MESH_PENDING_MAX 32
/* Points of one triangle's face contact kept before the groups (a box's
 * face clipped by a triangle has at most 7). */
#define MESH_PATCH_MAX 16
/* The cube map of the parts: cells across a face (odd: the axes are cell
 * centres). */
#define MESH_PART_CELLS 7

#define MESH_TRIANGLE_POINT (1u << 23)

typedef struct {
    vx_vec3 normal; /* world, the group's deepest manifold's */
    float deepest;
    int count;
    vx_contact_candidate point[MESH_GROUP_POINTS]; /* on_ref: on the mesh, on_inc: on the shape */
} group;

/* A triangle's contact waiting to be grouped: its points (on_ref on the
 * mesh, on_inc on the shape, world frame) with their final ids. */
typedef struct {
    vx_vec3 normal;
    float deepest;
    int count;
    vx_contact_candidate point[MESH_PATCH_MAX];
} pending;

typedef struct {
    const vx_mesh *mesh;
    const vx_transform *pm;
    vx_mat3 r;          /* the mesh's rotation */
    const vx_collider *b;
    const vx_transform *pb;
    vx_vec3 centre;     /* the shape's centre in the mesh's frame */
    float thickness, margin, merge;
    /* a sphere, capsule or box: no triangle is touched whose plane or
     * edges' side planes the ball of this radius around the centre is
     * beyond (the reach, the margin and room for rounding); 0: no such test */
    float out_of_reach;
    group groups[MESH_GROUPS_MAX];
    int group_count;
    pending waiting[MESH_PENDING_MAX];
    int waiting_count;
} mesh_pair;

float vx_collide_shape_reach(const vx_collider *c)
{
    switch (c->type) {
    case VX_SHAPE_SPHERE: return c->radius;
    case VX_SHAPE_BOX: return vx_vec3_length(c->half_extents);
    case VX_SHAPE_CAPSULE: return c->half_height + c->radius;
    case VX_SHAPE_HULL: return c->hull->outer_radius;
    case VX_SHAPE_COMPOUND: return c->compound->outer_radius;
    case VX_SHAPE_MESH:
    case VX_SHAPE_HEIGHTFIELD:
    default: return c->mesh ? c->mesh->outer_radius : 0.0f;
    }
}

static vx_vec3 to_local(const mesh_pair *mp, vx_vec3 world)
{
    vx_mat3 rt = vx_mat3_transpose(&mp->r);
    return vx_mat3_mul_vec3(&rt, vx_vec3_sub(world, mp->pm->position));
}

static vx_vec3 dir_to_local(const mesh_pair *mp, vx_vec3 world)
{
    vx_mat3 rt = vx_mat3_transpose(&mp->r);
    return vx_mat3_mul_vec3(&rt, world);
}

static vx_vec3 to_world(const mesh_pair *mp, vx_vec3 local)
{
    return vx_vec3_add(mp->pm->position, vx_mat3_mul_vec3(&mp->r, local));
}

/* ---- one triangle ---- */

/* The sphere against the prism th, as a manifold of the hull code's kind. */
static bool collide_prism_sphere(const mesh_pair *mp, const vx_triangle_hull *th, vx_manifold *m)
{
    vx_prism_sphere_contact c;
    vx_manifold_reset(m);
    if (!vx_collide_prism_sphere(th, mp->centre, mp->b->radius, mp->margin, &c)) return false;
    m->normal = vx_mat3_mul_vec3(&mp->r, c.normal);
    vx_manifold_push(m, to_world(mp, c.on_prism), to_world(mp, c.on_sphere), c.depth,
                     VX_FEATURE_KIND_HULL_SPHERE << VX_FEATURE_KIND_SHIFT);
    return true;
}

/* The shape against the prism th, as the hull code finds it. */
static bool collide_prism(const mesh_pair *mp, const vx_triangle_hull *th, vx_manifold *m)
{
    const vx_collider *b = mp->b;
    const vx_hull *prism = &th->hull;
    switch (b->type) {
    case VX_SHAPE_SPHERE: return collide_prism_sphere(mp, th, m);
    case VX_SHAPE_BOX: return vx_collide_hull_box(prism, mp->pm, mp->pb, b->half_extents, mp->margin, m);
    case VX_SHAPE_CAPSULE:
        return vx_collide_hull_capsule(prism, mp->pm, mp->pb, b->radius, b->half_height, mp->margin, m);
    case VX_SHAPE_HULL: return vx_collide_hull_hull(prism, mp->pm, b->hull, mp->pb, mp->margin, m);
    default: return false;
    }
}

/* The signed distances of the local point p beyond the prism's top edges
 * (their side planes): <= 0 inside the triangle. */
static void edge_distances(const vx_triangle_hull *th, vx_vec3 p, float d[3])
{
    for (int k = 0; k < 3; k++) {
        const vx_hull_face *side = &th->faces[2 + k];
        d[k] = vx_vec3_dot(side->normal, p) - side->offset;
    }
}

static float triangle_size(const vx_triangle_hull *th)
{
    /* finite corners: comparisons, not libm's fminf and fmaxf */
    vx_vec3 lo = vx_mesh_min3(th->vertices[0], vx_mesh_min3(th->vertices[1], th->vertices[2]));
    vx_vec3 hi = vx_mesh_max3(th->vertices[0], vx_mesh_max3(th->vertices[1], th->vertices[2]));
    vx_vec3 e = vx_vec3_sub(hi, lo);
    float widest = e.x > e.y ? e.x : e.y;
    return widest > e.z ? widest : e.z;
}

/* Whether the contact m leans on an active edge: its deepest point is on
 * an edge (or a corner's two edges) of which one is active from the side
 * the prism faces. */
static bool on_active_edge(const mesh_pair *mp, const vx_triangle_hull *th, uint8_t edges, const vx_manifold *m)
{
    int deepest = 0;
    for (int k = 1; k < m->count; k++)
        if (m->points[k].depth > m->points[deepest].depth) deepest = k;
    float d[3];
    edge_distances(th, to_local(mp, m->points[deepest].point_a), d);
    float tol = VX_MESH_ON_EDGE_REL * triangle_size(th) + VX_MESH_ON_EDGE_ABS;
    unsigned side = th->back ? VX_MESH_EDGE_BACK : VX_MESH_EDGE_FRONT;
    for (int k = 0; k < 3; k++)
        if (d[k] >= -tol && (VX_MESH_EDGE_BITS(edges, vx_triangle_hull_edge(th, k)) & side)) return true;
    return false;
}

/* How far past a side of the triangle a point still counts as over it
 * (rounding of the side planes). */
static float inside_tolerance(const vx_triangle_hull *th)
{
    return VX_MESH_INSIDE_REL * (triangle_size(th) + vx_vec3_length(th->vertices[0]));
}

static void patch_push(const mesh_pair *mp, pending *p, vx_vec3 on_mesh, vx_vec3 on_shape, float depth, uint32_t id)
{
    if (!(depth > -mp->margin) || p->count >= MESH_PATCH_MAX) return;
    vx_contact_candidate *c = &p->point[p->count++];
    c->on_ref = to_world(mp, on_mesh);
    c->on_inc = to_world(mp, on_shape);
    c->depth = depth;
    c->id = id;
}

static uint32_t shape_id(uint32_t feature) { return (VX_FEATURE_KIND_MESH << VX_FEATURE_KIND_SHIFT) | feature; }

static uint32_t triangle_id(uint32_t triangle, uint32_t feature)
{
    uint32_t h = (triangle * 2654435761u) ^ (feature * 40503u + (feature >> 16));
    return (VX_FEATURE_KIND_MESH << VX_FEATURE_KIND_SHIFT) | MESH_TRIANGLE_POINT | (h & (MESH_TRIANGLE_POINT - 1u));
}

/* The sphere along the triangle's face: its lowest point, when its centre
 * is over the triangle. */
static void sphere_on_face(const mesh_pair *mp, const vx_triangle_hull *th, pending *p)
{
    const vx_hull_face *top = &th->faces[VX_TRIANGLE_HULL_TOP];
    vx_vec3 c = mp->centre;
    float height = vx_vec3_dot(top->normal, c) - top->offset;
    vx_vec3 q = vx_vec3_sub(c, vx_vec3_scale(top->normal, height));
    float d[3], tol = inside_tolerance(th);
    edge_distances(th, q, d);
    if (d[0] > tol || d[1] > tol || d[2] > tol) return;
    patch_push(mp, p, q, vx_vec3_sub(c, vx_vec3_scale(top->normal, mp->b->radius)), mp->b->radius - height,
               shape_id(0u));
}

/* The capsule along the triangle's face: its segment clipped to the
 * triangle (seen along the normal), the two ends of what is left (a
 * capsule's end keeps its own id). */
static void capsule_on_face(const mesh_pair *mp, const vx_triangle_hull *th, uint32_t triangle, pending *p)
{
    const vx_hull_face *top = &th->faces[VX_TRIANGLE_HULL_TOP];
    vx_vec3 axis = dir_to_local(mp, vx_collide_axis_y(vx_collide_rotation(mp->pb)));
    vx_vec3 e0 = vx_vec3_sub(mp->centre, vx_vec3_scale(axis, mp->b->half_height));
    vx_vec3 e1 = vx_vec3_add(mp->centre, vx_vec3_scale(axis, mp->b->half_height));
    float lo = 0.0f, hi = 1.0f, d0[3], d1[3], tol = inside_tolerance(th);
    edge_distances(th, e0, d0);
    edge_distances(th, e1, d1);
    for (int k = 0; k < 3; k++) {
        float a = d0[k] - tol, b = d1[k] - tol;
        if (a > 0.0f && b > 0.0f) return;
        if (a > 0.0f) lo = fmaxf(lo, a / (a - b));
        if (b > 0.0f) hi = fminf(hi, a / (a - b));
    }
    if (lo > hi) return;
    float at[2] = {lo, hi};
    for (int i = 0; i < (hi > lo ? 2 : 1); i++) {
        vx_vec3 s = vx_vec3_add(e0, vx_vec3_scale(vx_vec3_sub(e1, e0), at[i]));
        float height = vx_vec3_dot(top->normal, s) - top->offset;
        uint32_t id = at[i] == 0.0f ? shape_id(0u) : at[i] == 1.0f ? shape_id(1u) : triangle_id(triangle, (uint32_t)i);
        patch_push(mp, p, vx_vec3_sub(s, vx_vec3_scale(top->normal, height)),
                   vx_vec3_sub(s, vx_vec3_scale(top->normal, mp->b->radius)), mp->b->radius - height, id);
    }
}

/* A box or hull along the triangle's face: its face most against it
 * clipped to the triangle, every point (a vertex of the shape keeps its own
 * id). */
static void polyhedron_on_face(const mesh_pair *mp, const vx_triangle_hull *th, uint32_t triangle, pending *p)
{
    vx_contact_candidate c[MESH_PATCH_MAX];
    int n = vx_collide_hull_face(&th->hull, mp->pm, VX_TRIANGLE_HULL_TOP, mp->b, mp->pb, mp->margin, c,
                                 MESH_PATCH_MAX);
    for (int k = 0; k < n; k++) {
        uint32_t vertex;
        p->point[k] = c[k];
        p->point[k].id = vx_hull_contact_b_feature(c[k].id, &vertex) ? shape_id(vertex) : triangle_id(triangle, c[k].id);
    }
    p->count = n;
}

/* The shape's own feature at a point of the hull code's contact, when the
 * point is one: a box's or hull's vertex, the sphere's point, a capsule's
 * end (its point at either end of the segment). */
static bool shape_feature(const mesh_pair *mp, const vx_manifold_point *p, uint32_t *feature)
{
    if (mp->b->type != VX_SHAPE_CAPSULE) return vx_hull_contact_b_feature(p->feature, feature);
    vx_vec3 axis = vx_collide_axis_y(vx_collide_rotation(mp->pb));
    float s = vx_vec3_dot(vx_vec3_sub(p->point_b, mp->pb->position), axis);
    float end = mp->b->half_height * (1.0f - 1e-4f);
    if (s <= -end) *feature = 0u;
    else if (s >= end) *feature = 1u;
    else return false;
    return true;
}

/* The triangle's contact: m as the hull code found it when it leans on an
 * active edge, else the shape's points along the face. */
static void triangle_patch(const mesh_pair *mp, const vx_triangle_hull *th, uint8_t edges, uint32_t triangle,
                           const vx_manifold *m, pending *p)
{
    vx_vec3 face_n = th->faces[VX_TRIANGLE_HULL_TOP].normal;
    p->count = 0;
    if (m && vx_vec3_dot(dir_to_local(mp, m->normal), face_n) < VX_MESH_FACE_COS && on_active_edge(mp, th, edges, m)) {
        p->normal = m->normal;
        for (int k = 0; k < m->count; k++) {
            const vx_manifold_point *q = &m->points[k];
            uint32_t f;
            uint32_t id = shape_feature(mp, q, &f) ? shape_id(f) : triangle_id(triangle, q->feature);
            vx_contact_candidate *c = &p->point[p->count++];
            c->on_ref = q->point_a;
            c->on_inc = q->point_b;
            c->depth = q->depth;
            c->id = id;
        }
        return;
    }
    p->normal = vx_mat3_mul_vec3(&mp->r, face_n);
    switch (mp->b->type) {
    case VX_SHAPE_SPHERE: sphere_on_face(mp, th, p); break;
    case VX_SHAPE_CAPSULE: capsule_on_face(mp, th, triangle, p); break;
    case VX_SHAPE_BOX:
    case VX_SHAPE_HULL: polyhedron_on_face(mp, th, triangle, p); break;
    default: break;
    }
}

/* ---- groups ---- */

static group *group_for(mesh_pair *mp, vx_vec3 n)
{
    int best = -1;
    float best_dot = -2.0f;
    for (int g = 0; g < mp->group_count; g++) {
        float d = vx_vec3_dot(n, mp->groups[g].normal);
        if (d >= VX_MESH_SAME_NORMAL_COS) return &mp->groups[g];
        if (d > best_dot) {
            best_dot = d;
            best = g;
        }
    }
    if (mp->group_count < MESH_GROUPS_MAX) {
        group *g = &mp->groups[mp->group_count++];
        g->normal = n;
        g->deepest = -INFINITY;
        g->count = 0;
        return g;
    }
    return &mp->groups[best]; /* full: the nearest normal */
}

/* Adds a point to g: one of the same id, or as close as the merge distance,
 * keeps the deeper. */
static void group_add(mesh_pair *mp, group *g, vx_vec3 on_mesh, vx_vec3 on_shape, float depth, uint32_t id)
{
    for (int k = 0; k < g->count; k++) {
        vx_contact_candidate *c = &g->point[k];
        bool same = c->id == id || vx_vec3_length_sq(vx_vec3_sub(c->on_inc, on_shape)) <= mp->merge * mp->merge;
        if (!same) continue;
        if (depth > c->depth) {
            c->on_ref = on_mesh;
            c->on_inc = on_shape;
            c->depth = depth;
            c->id = id < c->id ? id : c->id;
        }
        return;
    }
    if (g->count == MESH_GROUP_POINTS) g->count = vx_contact_reduce(g->point, g->count, g->normal, mp->merge);
    vx_contact_candidate *c = &g->point[g->count++];
    c->on_ref = on_mesh;
    c->on_inc = on_shape;
    c->depth = depth;
    c->id = id;
}

static void add_patch(mesh_pair *mp, const pending *p)
{
    group *g = group_for(mp, p->normal);
    if (p->deepest > g->deepest) {
        g->deepest = p->deepest;
        g->normal = p->normal;
    }
    for (int k = 0; k < p->count; k++)
        group_add(mp, g, p->point[k].on_ref, p->point[k].on_inc, p->point[k].depth, p->point[k].id);
}

/* a before b: deeper, then by normal, then by their first point's id */
static bool pending_before(const pending *a, const pending *b)
{
    if (a->deepest != b->deepest) return a->deepest > b->deepest;
    for (int k = 0; k < 3; k++) {
        float x = vx_vec3_get(a->normal, k), y = vx_vec3_get(b->normal, k);
        if (x != y) return x < y;
    }
    return a->point[0].id < b->point[0].id;
}

/* The waiting contacts into their groups, deepest first. */
static void flush(mesh_pair *mp)
{
    for (int i = 1; i < mp->waiting_count; i++) {
        pending p = mp->waiting[i];
        int j = i - 1;
        while (j >= 0 && pending_before(&p, &mp->waiting[j])) {
            mp->waiting[j + 1] = mp->waiting[j];
            j--;
        }
        mp->waiting[j + 1] = p;
    }
    for (int i = 0; i < mp->waiting_count; i++) add_patch(mp, &mp->waiting[i]);
    mp->waiting_count = 0;
}


/* Whether the prism of tri faces its back from side (mesh frame). */
static bool faces_back(vx_vec3 side, const vx_mesh_triangle *tri)
{
    return vx_vec3_dot(tri->normal, vx_vec3_sub(side, tri->v[0])) < 0.0f;
}

/* The prism of the triangle tri facing the side of side (mesh frame). */
static void facing_prism(vx_vec3 side, float thickness, const vx_mesh_triangle *tri, vx_triangle_hull *th)
{
    vx_triangle_hull_init(th, tri, faces_back(side, tri), thickness);
}

/* Whether the shape's ball (mp->out_of_reach) lies wholly beyond the
 * triangle's plane or the side plane of one of its edges: then it is
 * farther than the margin from the triangle's face and from its prism (which
 * lies behind both planes), so neither gives a contact, and the prism need
 * not be built. Also the edges' outward unit directions, for the prism's
 * side planes. */
static bool beyond_triangle(const mesh_pair *mp, const vx_mesh_triangle *tri, vx_vec3 edge_out[3])
{
    float limit = mp->out_of_reach;
    vx_vec3 c = mp->centre;
    if (fabsf(vx_vec3_dot(tri->normal, vx_vec3_sub(c, tri->v[0]))) > limit) return true;
    for (int k = 0; k < 3; k++) {
        vx_vec3 out = vx_vec3_cross(vx_vec3_sub(tri->v[(k + 1) % 3], tri->v[k]), tri->normal);
        float length = vx_vec3_length(out);
        if (vx_vec3_dot(out, vx_vec3_sub(c, tri->v[k])) > limit * length) return true;
        /* vx_vec3_normalize's bits */
        edge_out[k] = length > 0.0f ? vx_vec3_scale(out, 1.0f / length) : vx_vec3_zero();
    }
    return false;
}

static bool visit_triangle(void *context, uint32_t t)
{
    mesh_pair *mp = context;
    vx_mesh_triangle tri;
    vx_triangle_hull th;
    vx_mesh_get_triangle(mp->mesh, t, &tri);
    vx_vec3 edge_out[3];
    bool have_edges = mp->out_of_reach > 0.0f;
    if (have_edges && beyond_triangle(mp, &tri, edge_out)) return true;
    /* the prism faces the side the shape's centre is on */
    bool back = faces_back(mp->centre, &tri);
    /* Without an active edge on the shape's side any contact is the
     * face's, which drops what is beyond the margin or beside the triangle
     * by itself: the hull test is only needed to find one that leans. */
    unsigned side = back ? VX_MESH_EDGE_BACK : VX_MESH_EDGE_FRONT;
    bool leans = false;
    for (int k = 0; k < 3; k++) leans = leans || (VX_MESH_EDGE_BITS(tri.edges, k) & side);
    /* a sphere, and a capsule along the face, need the top and side planes
     * alone */
    bool planes = mp->b->type == VX_SHAPE_SPHERE || (mp->b->type == VX_SHAPE_CAPSULE && !leans);
    if (planes && have_edges)
        vx_triangle_hull_init_planes_with(&th, &tri, back, edge_out);
    else if (planes)
        vx_triangle_hull_init_planes(&th, &tri, back);
    else
        vx_triangle_hull_init(&th, &tri, back, mp->thickness);
    vx_manifold m;
    if (leans && !collide_prism(mp, &th, &m)) return true;
    if (mp->waiting_count == MESH_PENDING_MAX) flush(mp);
    pending *p = &mp->waiting[mp->waiting_count];
    triangle_patch(mp, &th, tri.edges, t, leans ? &m : NULL, p);
    if (p->count == 0) return true;
    p->deepest = p->point[0].depth;
    for (int k = 1; k < p->count; k++) p->deepest = fmaxf(p->deepest, p->point[k].depth);
    mp->waiting_count++;
    return true;
}

/* The most points a group of this shape keeps. */
static int points_kept(const vx_collider *b)
{
    if (b->type == VX_SHAPE_SPHERE) return 1;
    if (b->type == VX_SHAPE_CAPSULE) return 2;
    return VX_MANIFOLD_MAX_POINTS;
}

/* Index of the point with the largest value_of (the lowest id on ties),
 * skipping `skip` (-1: none). */
static int pick_point(const group *g, int skip, vx_vec3 from, bool by_depth)
{
    int best = -1;
    float best_val = 0.0f;
    for (int k = 0; k < g->count; k++) {
        if (k == skip) continue;
        const vx_contact_candidate *c = &g->point[k];
        float v = by_depth ? c->depth : vx_vec3_length_sq(vx_vec3_sub(c->on_ref, from));
        if (best < 0 || v > best_val || (v == best_val && c->id < g->point[best].id)) {
            best = k;
            best_val = v;
        }
    }
    return best;
}

/* The group's points measured along its normal, then at most the shape's
 * number of them. */
static void finish_group(const mesh_pair *mp, group *g)
{
    for (int k = 0; k < g->count; k++) {
        vx_contact_candidate *c = &g->point[k];
        c->depth = vx_vec3_dot(vx_vec3_sub(c->on_ref, c->on_inc), g->normal);
        c->on_ref = vx_vec3_add(c->on_inc, vx_vec3_scale(g->normal, c->depth));
    }
    int keep = points_kept(mp->b);
    if (g->count <= keep) return;
    if (keep == VX_MANIFOLD_MAX_POINTS) {
        g->count = vx_contact_reduce(g->point, g->count, g->normal, mp->merge);
        return;
    }
    int first = pick_point(g, -1, vx_vec3_zero(), true);
    vx_contact_candidate kept[2];
    kept[0] = g->point[first];
    if (keep == 2) kept[1] = g->point[pick_point(g, first, kept[0].on_ref, false)];
    for (int k = 0; k < keep; k++) g->point[k] = kept[k];
    g->count = keep;
}

/* The cell of the cube map a unit direction (mesh frame) falls in. */
static uint32_t normal_cell(vx_vec3 n)
{
    float a[3] = {fabsf(n.x), fabsf(n.y), fabsf(n.z)};
    int axis = 0;
    for (int k = 1; k < 3; k++)
        if (a[k] > a[axis]) axis = k;
    float major = vx_vec3_get(n, axis);
    uint32_t face = (uint32_t)axis * 2u + (major < 0.0f ? 1u : 0u);
    uint32_t cell[2];
    for (int j = 0; j < 2; j++) {
        float u = vx_vec3_get(n, (axis + 1 + j) % 3) / a[axis]; /* in [-1, 1] */
        float c = floorf((u + 1.0f) * 0.5f * (float)MESH_PART_CELLS);
        cell[j] = c < 0.0f ? 0u : (c >= (float)MESH_PART_CELLS ? MESH_PART_CELLS - 1u : (uint32_t)c);
    }
    return (face * MESH_PART_CELLS + cell[1]) * MESH_PART_CELLS + cell[0];
}

int vx_collide_mesh(const vx_collider *mesh, const vx_transform *pm, const vx_collider *b, const vx_transform *pb,
                    float margin, vx_mesh_manifold *out)
{
    VX_ASSERT(vx_collider_is_mesh(mesh) && !vx_collider_is_mesh(b));
    mesh_pair pair;
    mesh_pair *mp = &pair;
    mp->group_count = 0; /* the groups and contacts are written before they are read */
    mp->waiting_count = 0;
    mp->mesh = mesh->mesh;
    mp->pm = pm;
    mp->r = vx_mat3_from_quat(vx_collide_rotation(pm));
    mp->b = b;
    mp->pb = pb;
    mp->margin = vx_collide_sanitize_margin(margin);
    mp->centre = to_local(mp, pb->position);
    float reach = vx_collide_shape_reach(b);
    mp->thickness = 2.0f * reach + mp->margin + 1e-3f;
    mp->merge = VX_MESH_MERGE_REL * fmaxf(1.0f, reach);
    bool simple = b->type == VX_SHAPE_SPHERE || b->type == VX_SHAPE_CAPSULE || b->type == VX_SHAPE_BOX;
    /* the room: 1 mm, and 1e-5 of the distances in the mesh's frame */
    mp->out_of_reach = simple ? reach + mp->margin + 1e-3f + 1e-5f * (vx_vec3_length(mp->centre) + reach) : 0.0f;

    /* the shape's bounds in the mesh's frame, grown by the margin */
    vx_transform rel;
    rel.position = mp->centre;
    rel.rotation = vx_quat_mul(vx_quat_conjugate(vx_collide_rotation(pm)), vx_collide_rotation(pb));
    vx_aabb box = vx_shape_aabb(b, rel.position, rel.rotation);
    vx_vec3 grow = vx_vec3_make(mp->margin, mp->margin, mp->margin);
    box = vx_aabb_new(vx_vec3_sub(box.min, grow), vx_vec3_add(box.max, grow));
    vx_mesh_query(mp->mesh, box, visit_triangle, mp);
    flush(mp);

    /* the deepest groups, ordered by part */
    uint32_t part[MESH_GROUPS_MAX];
    bool taken[MESH_GROUPS_MAX];
    for (int g = 0; g < mp->group_count; g++) {
        finish_group(mp, &mp->groups[g]);
        uint32_t cell = normal_cell(dir_to_local(mp, mp->groups[g].normal)), rank = 0;
        for (int h = 0; h < g; h++) rank += (part[h] >> 4) == cell + 1u ? 1u : 0u;
        part[g] = ((cell + 1u) << 4) | (rank < 15u ? rank : 15u);
        taken[g] = false;
    }
    int count = mp->group_count < VX_MESH_MAX_MANIFOLDS ? mp->group_count : VX_MESH_MAX_MANIFOLDS;
    for (int i = 0; i < count; i++) {
        int best = -1;
        for (int g = 0; g < mp->group_count; g++) {
            if (taken[g]) continue;
            if (best < 0 || mp->groups[g].deepest > mp->groups[best].deepest ||
                (mp->groups[g].deepest == mp->groups[best].deepest && part[g] < part[best]))
                best = g;
        }
        taken[best] = true;
    }
    int n = 0;
    for (int i = 0; i < mp->group_count; i++) {
        /* the taken groups by part: selection, a handful of them */
        int next = -1;
        for (int g = 0; g < mp->group_count; g++)
            if (taken[g] && (next < 0 || part[g] < part[next])) next = g;
        if (next < 0) break;
        taken[next] = false;
        const group *g = &mp->groups[next];
        vx_mesh_manifold *o = &out[n++];
        o->part = part[next];
        vx_manifold_reset(&o->manifold);
        o->manifold.normal = g->normal;
        for (int k = 0; k < g->count; k++)
            vx_manifold_push(&o->manifold, g->point[k].on_ref, g->point[k].on_inc, g->point[k].depth, g->point[k].id);
        vx_manifold_sort_by_feature(&o->manifold);
    }
    return n;
}

/* ---- triangles as hull colliders ---- */

typedef struct {
    const vx_mesh *mesh;
    vx_vec3 side; /* the mesh's frame */
    float thickness;
    bool planes_only;
    vx_mesh_prism_fn fn;
    void *context;
} prism_walk;

static bool visit_prism(void *context, uint32_t t)
{
    prism_walk *w = context;
    vx_mesh_triangle tri;
    vx_triangle_hull th;
    vx_mesh_get_triangle(w->mesh, t, &tri);
    if (w->planes_only) {
        vx_triangle_hull_init_planes(&th, &tri, faces_back(w->side, &tri));
        return w->fn(w->context, NULL, &th);
    }
    facing_prism(w->side, w->thickness, &tri, &th);
    vx_collider c = vx_collider_hull(&th.hull);
    return w->fn(w->context, &c, &th);
}

void vx_mesh_for_each_prism(const vx_collider *mesh, const vx_transform *pm, vx_aabb world_box, vx_vec3 side_point,
                            float thickness, bool planes_only, vx_mesh_prism_fn fn, void *context)
{
    vx_quat q = vx_collide_rotation(pm);
    vx_mat3 r = vx_mat3_from_quat(q);
    vx_mat3 rt = vx_mat3_transpose(&r);
    /* the world box's bounds in the mesh's frame */
    vx_vec3 centre = vx_mat3_mul_vec3(&rt, vx_vec3_sub(vx_aabb_center(world_box), pm->position));
    vx_vec3 h = vx_aabb_half_extents(world_box), e;
    e.x = fabsf(rt.m[0][0]) * h.x + fabsf(rt.m[0][1]) * h.y + fabsf(rt.m[0][2]) * h.z;
    e.y = fabsf(rt.m[1][0]) * h.x + fabsf(rt.m[1][1]) * h.y + fabsf(rt.m[1][2]) * h.z;
    e.z = fabsf(rt.m[2][0]) * h.x + fabsf(rt.m[2][1]) * h.y + fabsf(rt.m[2][2]) * h.z;
    prism_walk w = {mesh->mesh, vx_mat3_mul_vec3(&rt, vx_vec3_sub(side_point, pm->position)), thickness, planes_only,
                    fn, context};
    vx_mesh_query(mesh->mesh, vx_aabb_from_center_half_extents(centre, e), visit_prism, &w);
}
