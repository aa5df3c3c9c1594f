/* What a world can be asked about space: which bodies a ray or a swept
 * sphere meets first or at all, and which bodies a shape overlaps. Every
 * answer is exact for the shapes (distance, point and normal as the
 * analytic answer, to float precision) and found through a bounding-volume
 * tree, not a loop over all bodies. Only entities with a collider are hit.
 *
 * The world keeps that tree in step with the bodies by itself across
 * vx_world_step and the vx_body_* setters; after changing transforms or
 * colliders through the registry directly, call vx_world_touch. */
#ifndef VOLTEX_QUERY_H
#define VOLTEX_QUERY_H

#include <stdbool.h>
#include <stddef.h>

#include "voltex/ecs.h"
#include "voltex/error.h"
#include "voltex/math.h"
#include "voltex/physics.h"
#include "voltex/world.h"

typedef struct {
    vx_entity entity;
    float distance; /* how far the origin travelled (0 for overlaps and for casts that start inside) */
    vx_vec3 point;  /* on the entity's surface; a sphere cast: where the sphere touches it (overlaps: 0) */
    vx_vec3 normal; /* unit, the surface normal there, pointing back towards the caster (overlaps: 0) */
} vx_query_hit;

/* Which entities a query may hit. */
typedef struct {
    bool sensors;            /* sensor colliders can be hit (default false) */
    vx_entity skip;          /* never hit, e.g. the body the query is attached to (VX_ENTITY_NULL: none) */
    const vx_entity *ignore; /* never hit either (ignore_count of them) */
    size_t ignore_count;
} vx_query_filter;

vx_query_filter vx_query_filter_default(void);

/* Called once per entity hit; return false to stop. */
typedef bool (*vx_query_fn)(const vx_query_hit *hit, void *context);

/* A ray from origin along direction (any non-zero length; it is
 * normalised), up to max_distance (> 0): fn for every entity it meets, with
 * that entity's nearest hit, in order of distance (entity index for ties).
 * A ray that starts inside a collider hits it at distance 0, at the origin,
 * with normal -direction. filter may be NULL (the default). VX_ERR_INVALID
 * for a bad origin, direction or distance, VX_ERR_NOMEM. */
vx_status vx_world_cast_ray(vx_world *world, vx_vec3 origin, vx_vec3 direction, float max_distance,
                            const vx_query_filter *filter, vx_query_fn fn, void *context, vx_error *err);
/* The nearest hit only: *hit, whose entity is VX_ENTITY_NULL when nothing is hit. */
vx_status vx_world_cast_ray_closest(vx_world *world, vx_vec3 origin, vx_vec3 direction, float max_distance,
                                    const vx_query_filter *filter, vx_query_hit *hit, vx_error *err);

/* The same for a sphere of radius (> 0) swept from origin: the point is
 * where the sphere touches the entity's surface. */
vx_status vx_world_cast_sphere(vx_world *world, vx_vec3 origin, float radius, vx_vec3 direction, float max_distance,
                               const vx_query_filter *filter, vx_query_fn fn, void *context, vx_error *err);
vx_status vx_world_cast_sphere_closest(vx_world *world, vx_vec3 origin, float radius, vx_vec3 direction,
                                       float max_distance, const vx_query_filter *filter, vx_query_hit *hit,
                                       vx_error *err);

/* fn for every entity whose collider overlaps shape placed at pose (touching
 * is not overlapping), in entity index order; the hits carry only the
 * entity. */
vx_status vx_world_overlap(vx_world *world, const vx_collider *shape, const vx_transform *pose,
                           const vx_query_filter *filter, vx_query_fn fn, void *context, vx_error *err);

/* ---- a query as data (the scene file's "queries") ---- */
typedef enum { VX_QUERY_RAY = 0, VX_QUERY_SPHERE_CAST = 1, VX_QUERY_OVERLAP = 2 } vx_query_type;

typedef struct {
    vx_query_type type;
    vx_vec3 origin;          /* ray, sphere cast: where it starts */
    vx_vec3 direction;       /* ray, sphere cast: any non-zero length */
    float max_distance;      /* ray, sphere cast: m > 0 */
    float radius;            /* sphere cast: m > 0 */
    vx_collider shape;       /* overlap */
    vx_transform shape_pose; /* overlap: where the shape is */
    /* VX_ENTITY_NULL: origin, direction and shape_pose are in the world's
     * frame; else in this entity's frame, moving with it, and it is never
     * hit */
    vx_entity attached_to;
    vx_query_filter filter;
    bool all_hits; /* ray, sphere cast: every entity along the way, not the nearest only */
} vx_query_def;

/* A ray from the origin along -Y, 1000 m, the default filter, nothing attached. */
vx_query_def vx_query_def_default(void);

/* Runs def on the world as it is: fn for the nearest hit (every hit with
 * all_hits) by distance, or every overlap by entity index. VX_ERR_INVALID
 * when attached_to is not in the world or a value is bad. */
vx_status vx_world_query(vx_world *world, const vx_query_def *def, vx_query_fn fn, void *context, vx_error *err);

/* Tells the world that transforms or colliders were changed through its
 * registry directly: the next query brings its tree up to date first. */
void vx_world_touch(vx_world *world);

#endif
