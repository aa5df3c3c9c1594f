/* What a world answers about space (voltex/query.h): its bodies with a
 * collider in a dynamic tree of their own, brought up to date when a query
 * follows a change, and the exact shape casts (collision/cast.h) and
 * overlap tests (collision/collide_shapes.h) on what the tree finds. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common/array.h"
#include "common/assert.h"
#include "physics/body/shape.h"
#include "physics/collision/cast.h"
#include "physics/collision/collide_mesh.h"
#include "physics/collision/collide_shapes.h"
#include "physics/collision/dynamic_tree.h"
#include "physics/world_internal.h"
#include "voltex/query.h"

/* m: the query tree's fat boxes exceed the shapes by this, so a body that
 * moves a little between queries keeps its leaf */
#define VX_QUERY_TREE_MARGIN 0.05f

void vx_world_queries_init(vx_world_queries *q)
{
    memset(q, 0, sizeof *q);
    vx_dynamic_tree_init(&q->tree, VX_QUERY_TREE_MARGIN, 0.0f);
}

void vx_world_queries_free(vx_world_queries *q)
{
    vx_dynamic_tree_free(&q->tree);
    free(q->entity);
    free(q->proxy_of);
    free(q->hits);
    memset(q, 0, sizeof *q);
}

void vx_world_touch(vx_world *world) { world->changes++; }

vx_query_filter vx_query_filter_default(void)
{
    vx_query_filter f;
    memset(&f, 0, sizeof f);
    f.sensors = false;
    f.skip = VX_ENTITY_NULL;
    f.ignore = NULL;
    f.ignore_count = 0;
    return f;
}

/* ---- the tree ---- */

static vx_aabb tight_box(const vx_transform *t, const vx_collider *c)
{
    return vx_collider_aabb(c, t->position, t->rotation);
}

/* Every entity with a transform and a collider, a leaf each, from scratch
 * (after entities or components came or went). */
static vx_status rebuild(vx_world *world)
{
    vx_world_queries *q = &world->queries;
    vx_dynamic_tree_free(&q->tree);
    vx_dynamic_tree_init(&q->tree, VX_QUERY_TREE_MARGIN, 0.0f);
    if (q->proxy_of) memset(q->proxy_of, 0, (size_t)q->proxy_of_capacity * sizeof *q->proxy_of);
    q->layout = 0;
    vx_registry *registry = world->registry;
    const vx_component_type types[2] = {VX_COMPONENT_TRANSFORM, VX_COMPONENT_COLLIDER};
    vx_view v;
    vx_status st = vx_view_begin(&v, registry, types, 2);
    while (st == VX_OK && vx_view_next(&v)) {
        const vx_transform *t = vx_view_get(&v, 0);
        const vx_collider *c = vx_view_get(&v, 1);
        vx_aabb box = tight_box(t, c);
        if (!vx_aabb_is_finite(box)) continue; /* a body gone non-finite is no target */
        uint32_t proxy = 0;
        st = vx_dynamic_tree_create_proxy(&q->tree, box, vx_vec3_zero(), 0u, &proxy);
        VX_RESERVE(st, q->entity, q->entity_capacity, (size_t)proxy + 1u, 64u);
        VX_RESERVE_INDEX(st, q->proxy_of, q->proxy_of_capacity, v.entity.index, 64u);
        if (st != VX_OK) break;
        q->entity[proxy] = v.entity;
        q->proxy_of[v.entity.index] = proxy + 1u;
    }
    if (st == VX_OK) q->layout = vx_registry_layout(registry);
    return st;
}

/* The leaves follow the bodies that moved (the same entities as before). */
static void follow(vx_world *world)
{
    vx_world_queries *q = &world->queries;
    const vx_component_type types[2] = {VX_COMPONENT_TRANSFORM, VX_COMPONENT_COLLIDER};
    vx_view v;
    if (vx_view_begin(&v, world->registry, types, 2) != VX_OK) return;
    while (vx_view_next(&v)) {
        uint32_t slot = v.entity.index < q->proxy_of_capacity ? q->proxy_of[v.entity.index] : 0u;
        if (slot == 0u) continue;
        vx_aabb box = tight_box(vx_view_get(&v, 0), vx_view_get(&v, 1));
        if (!vx_aabb_is_finite(box)) continue;
        vx_dynamic_tree_move_proxy(&q->tree, slot - 1u, box, vx_vec3_zero());
    }
}

static vx_status bring_up_to_date(vx_world *world, vx_error *err)
{
    vx_world_queries *q = &world->queries;
    vx_status st = VX_OK;
    if (q->layout == 0u || q->layout != vx_registry_layout(world->registry)) {
        st = rebuild(world);
        if (st != VX_OK) {
            q->layout = 0; /* the next query starts over */
            return vx_error_set(err, st, "queries: out of memory");
        }
    } else if (q->changes != world->changes) {
        follow(world);
    }
    q->changes = world->changes;
    return VX_OK;
}

/* ---- one call's search ---- */

typedef enum { SEARCH_RAY, SEARCH_SPHERE } search_kind;

typedef struct {
    vx_world *world;
    const vx_query_filter *filter;
    search_kind kind;
    vx_vec3 origin, direction; /* unit */
    float max_distance;        /* the caller's: the tree walk is clipped to the best hit, a shape's cast is not
                                  (a cast up to 0 meets nothing, and a tie at 0 must still be seen) */
    float radius;
    bool closest;
    vx_query_hit best;         /* closest: the nearest so far (entity VX_ENTITY_NULL: none), else unused */
    vx_status status;
} search;

static bool filtered_out(const vx_query_filter *f, vx_entity e, const vx_collider *c)
{
    if (c->sensor && !f->sensors) return true;
    if (vx_entity_equal(e, f->skip)) return true;
    for (size_t i = 0; i < f->ignore_count; i++)
        if (vx_entity_equal(e, f->ignore[i])) return true;
    return false;
}

/* a before b: nearer, or as near and the lower entity index */
static bool hit_before(const vx_query_hit *a, const vx_query_hit *b)
{
    return a->distance < b->distance || (a->distance == b->distance && a->entity.index < b->entity.index);
}

static vx_status push_hit(vx_world_queries *q, const vx_query_hit *hit)
{
    vx_status st = VX_OK;
    VX_RESERVE(st, q->hits, q->hit_capacity, q->hit_count + 1u, 64u);
    if (st == VX_OK) q->hits[q->hit_count++] = *hit;
    return st;
}

/* The body of query-tree leaf proxy: its entity, collider and the pose of
 * its shape's frame (shape.h); false when the filter leaves it out. */
static bool leaf_target(const vx_world *world, const vx_query_filter *filter, uint32_t proxy, vx_entity *e,
                        const vx_collider **c, vx_transform *body)
{
    *e = world->queries.entity[proxy];
    const vx_transform *t = vx_registry_get_const(world->registry, *e, VX_COMPONENT_TRANSFORM);
    *c = vx_registry_get_const(world->registry, *e, VX_COMPONENT_COLLIDER);
    VX_ASSERT(t && *c);
    if (filtered_out(filter, *e, *c)) return false;
    *body = vx_shape_pose(*c, t);
    return true;
}

static float visit_leaf(void *context, uint32_t proxy, uint32_t user_id, float max_t)
{
    (void)user_id;
    search *s = context;
    vx_entity e;
    const vx_collider *c;
    vx_transform body;
    if (!leaf_target(s->world, s->filter, proxy, &e, &c, &body)) return max_t;
    vx_cast_hit h;
    bool hit = s->kind == SEARCH_RAY
                   ? vx_ray_cast_shape(c, &body, s->origin, s->direction, s->max_distance, &h)
                   : vx_sphere_cast_shape(c, &body, s->origin, s->radius, s->direction, s->max_distance, &h);
    if (!hit || h.distance > max_t) return max_t;
    vx_query_hit qh = {e, h.distance, h.point, h.normal};
    if (s->closest) {
        if (vx_entity_equal(s->best.entity, VX_ENTITY_NULL) || hit_before(&qh, &s->best)) s->best = qh;
        return s->best.distance; /* farther leaves cannot win; as near ones still can, by index */
    }
    s->status = push_hit(&s->world->queries, &qh);
    return s->status == VX_OK ? max_t : -1.0f;
}

static int compare_hits(const void *pa, const void *pb)
{
    const vx_query_hit *a = pa, *b = pb;
    if (hit_before(a, b)) return -1;
    if (hit_before(b, a)) return 1;
    return 0;
}

/* The unit direction of d; false when d is zero or not finite. */
static bool unit_direction(vx_vec3 d, vx_vec3 *out)
{
    if (!vx_vec3_is_finite(d)) return false;
    float length = vx_vec3_length(d);
    if (!(length > 0.0f) || !isfinite(length)) return false;
    *out = vx_vec3_scale(d, 1.0f / length);
    return true;
}

static vx_status cast(vx_world *world, search *s, vx_vec3 origin, vx_vec3 direction, float max_distance,
                      const vx_query_filter *filter, vx_query_fn fn, void *context, vx_query_hit *closest,
                      vx_error *err)
{
    vx_query_filter none = vx_query_filter_default();
    s->world = world;
    s->filter = filter ? filter : &none;
    s->origin = origin;
    s->max_distance = max_distance;
    memset(&s->best, 0, sizeof s->best);
    s->best.entity = VX_ENTITY_NULL;
    s->status = VX_OK;
    if (!vx_vec3_is_finite(origin)) return vx_error_set(err, VX_ERR_INVALID, "query: origin must be finite");
    if (!unit_direction(direction, &s->direction))
        return vx_error_set(err, VX_ERR_INVALID, "query: direction must be finite and not zero");
    if (!(max_distance > 0.0f) || !isfinite(max_distance))
        return vx_error_set(err, VX_ERR_INVALID, "query: max_distance must be a positive number");
    if (s->kind == SEARCH_SPHERE && (!(s->radius > 0.0f) || !isfinite(s->radius)))
        return vx_error_set(err, VX_ERR_INVALID, "query: radius must be a positive number");
    vx_status st = bring_up_to_date(world, err);
    if (st != VX_OK) return st;
    vx_world_queries *q = &world->queries;
    q->hit_count = 0;
    st = vx_dynamic_tree_ray_query(&q->tree, s->origin, s->direction, max_distance,
                                   s->kind == SEARCH_SPHERE ? s->radius : 0.0f, visit_leaf, s);
    if (st == VX_OK) st = s->status;
    if (st != VX_OK) return vx_error_set(err, st, "queries: out of memory");
    if (closest) {
        *closest = s->best;
        return VX_OK;
    }
    if (q->hit_count > 1u) qsort(q->hits, q->hit_count, sizeof *q->hits, compare_hits); /* no hits: maybe no array */
    for (size_t i = 0; i < q->hit_count; i++)
        if (!fn(&q->hits[i], context)) break;
    return VX_OK;
}

vx_status vx_world_cast_ray(vx_world *world, vx_vec3 origin, vx_vec3 direction, float max_distance,
                            const vx_query_filter *filter, vx_query_fn fn, void *context, vx_error *err)
{
    search s = {.kind = SEARCH_RAY, .closest = false};
    return cast(world, &s, origin, direction, max_distance, filter, fn, context, NULL, err);
}

vx_status vx_world_cast_ray_closest(vx_world *world, vx_vec3 origin, vx_vec3 direction, float max_distance,
                                    const vx_query_filter *filter, vx_query_hit *hit, vx_error *err)
{
    search s = {.kind = SEARCH_RAY, .closest = true};
    hit->entity = VX_ENTITY_NULL;
    return cast(world, &s, origin, direction, max_distance, filter, NULL, NULL, hit, err);
}

vx_status vx_world_cast_sphere(vx_world *world, vx_vec3 origin, float radius, vx_vec3 direction, float max_distance,
                               const vx_query_filter *filter, vx_query_fn fn, void *context, vx_error *err)
{
    search s = {.kind = SEARCH_SPHERE, .radius = radius, .closest = false};
    return cast(world, &s, origin, direction, max_distance, filter, fn, context, NULL, err);
}

vx_status vx_world_cast_sphere_closest(vx_world *world, vx_vec3 origin, float radius, vx_vec3 direction,
                                       float max_distance, const vx_query_filter *filter, vx_query_hit *hit,
                                       vx_error *err)
{
    search s = {.kind = SEARCH_SPHERE, .radius = radius, .closest = true};
    hit->entity = VX_ENTITY_NULL;
    return cast(world, &s, origin, direction, max_distance, filter, NULL, NULL, hit, err);
}

/* ---- overlaps ---- */

typedef struct {
    vx_world *world;
    const vx_query_filter *filter;
    const vx_collider *shape;
    const vx_transform *pose; /* the shape's body frame (shape.h) */
    vx_status status;
} overlap_search;

static bool visit_overlap(void *context, uint32_t proxy, uint32_t user_id)
{
    (void)user_id;
    overlap_search *s = context;
    vx_entity e;
    const vx_collider *c;
    vx_transform body;
    if (!leaf_target(s->world, s->filter, proxy, &e, &c, &body)) return true;
    vx_manifold m;
    /* a compound overlaps where one of its parts does (vx_collide_shapes) */
    bool overlaps = vx_collider_is_mesh(c) ? vx_overlap_mesh(s->shape, s->pose, c, &body)
                                           : vx_collide_shapes(s->shape, s->pose, c, &body, 0.0f, &m); /* margin 0 */
    if (!overlaps) return true;
    vx_query_hit hit;
    memset(&hit, 0, sizeof hit);
    hit.entity = e;
    s->status = push_hit(&s->world->queries, &hit);
    return s->status == VX_OK;
}

static int compare_entities(const void *pa, const void *pb)
{
    uint32_t a = ((const vx_query_hit *)pa)->entity.index, b = ((const vx_query_hit *)pb)->entity.index;
    return (a > b) - (a < b);
}

vx_status vx_world_overlap(vx_world *world, const vx_collider *shape, const vx_transform *pose,
                           const vx_query_filter *filter, vx_query_fn fn, void *context, vx_error *err)
{
    vx_collider clean;
    vx_status st = vx_world_check_shape(world, shape, &clean, err);
    if (st != VX_OK) return st;
    if (clean.type == VX_SHAPE_MESH || clean.type == VX_SHAPE_HEIGHTFIELD || clean.type == VX_SHAPE_COMPOUND)
        return vx_error_set(err, VX_ERR_INVALID, "query: shape: must be a sphere, box, capsule or convex hull");
    if (!pose) return vx_error_set(err, VX_ERR_INVALID, "query: no pose given");
    shape = &clean;
    vx_transform body = vx_shape_pose(shape, pose);
    vx_aabb box = vx_shape_aabb(shape, body.position, body.rotation);
    if (!vx_aabb_is_finite(box)) return vx_error_set(err, VX_ERR_INVALID, "query: the shape must be finite");
    st = bring_up_to_date(world, err);
    if (st != VX_OK) return st;
    vx_query_filter none = vx_query_filter_default();
    overlap_search s = {world, filter ? filter : &none, shape, &body, VX_OK};
    vx_world_queries *q = &world->queries;
    q->hit_count = 0;
    st = vx_dynamic_tree_query(&q->tree, box, visit_overlap, &s);
    if (st == VX_OK) st = s.status;
    if (st != VX_OK) return vx_error_set(err, st, "queries: out of memory");
    qsort(q->hits, q->hit_count, sizeof *q->hits, compare_entities);
    for (size_t i = 0; i < q->hit_count; i++)
        if (!fn(&q->hits[i], context)) break;
    return VX_OK;
}

/* ---- a query as data ---- */

vx_query_def vx_query_def_default(void)
{
    vx_query_def d;
    memset(&d, 0, sizeof d);
    d.type = VX_QUERY_RAY;
    d.origin = vx_vec3_zero();
    d.direction = vx_vec3_make(0.0f, -1.0f, 0.0f);
    d.max_distance = 1000.0f;
    d.radius = 0.0f;
    d.shape = vx_collider_sphere(0.5f);
    d.shape_pose = vx_transform_identity();
    d.attached_to = VX_ENTITY_NULL;
    d.filter = vx_query_filter_default();
    d.all_hits = false;
    return d;
}

vx_status vx_world_query(vx_world *world, const vx_query_def *def, vx_query_fn fn, void *context, vx_error *err)
{
    if (!def) return vx_error_set(err, VX_ERR_INVALID, "query: none given");
    vx_vec3 origin = def->origin, direction = def->direction;
    vx_transform pose = def->shape_pose;
    vx_query_filter filter = def->filter;
    if (!vx_entity_equal(def->attached_to, VX_ENTITY_NULL)) {
        const vx_transform *frame = vx_registry_get_const(world->registry, def->attached_to, VX_COMPONENT_TRANSFORM);
        if (!frame) return vx_error_set(err, VX_ERR_INVALID, "query: attached_to: entity %u is not in the world",
                                        def->attached_to.index);
        vx_quat q = frame->rotation;
        origin = vx_vec3_add(frame->position, vx_quat_rotate(q, def->origin));
        direction = vx_quat_rotate(q, def->direction);
        pose.position = vx_vec3_add(frame->position, vx_quat_rotate(q, def->shape_pose.position));
        pose.rotation = vx_quat_mul(q, def->shape_pose.rotation);
        filter.skip = def->attached_to;
    }
    switch (def->type) {
    case VX_QUERY_RAY:
    case VX_QUERY_SPHERE_CAST: {
        bool sphere = def->type == VX_QUERY_SPHERE_CAST;
        if (def->all_hits)
            return sphere ? vx_world_cast_sphere(world, origin, def->radius, direction, def->max_distance, &filter, fn,
                                                 context, err)
                          : vx_world_cast_ray(world, origin, direction, def->max_distance, &filter, fn, context, err);
        vx_query_hit hit;
        vx_status st = sphere ? vx_world_cast_sphere_closest(world, origin, def->radius, direction, def->max_distance,
                                                             &filter, &hit, err)
                              : vx_world_cast_ray_closest(world, origin, direction, def->max_distance, &filter, &hit,
                                                          err);
        if (st == VX_OK && !vx_entity_equal(hit.entity, VX_ENTITY_NULL)) fn(&hit, context);
        return st;
    }
    case VX_QUERY_OVERLAP: return vx_world_overlap(world, &def->shape, &pose, &filter, fn, context, err);
    default: return vx_error_set(err, VX_ERR_INVALID, "query: type: not a vx_query_type");
    }
}
