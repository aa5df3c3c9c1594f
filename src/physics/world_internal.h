/* The world's parts, shared by world.c (bodies, settings, the step) and
 * world_query.c (what it answers about space); private to the physics
 * module. */
#ifndef VOLTEX_PHYSICS_WORLD_INTERNAL_H
#define VOLTEX_PHYSICS_WORLD_INTERNAL_H

#include <math.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "physics/collision/dynamic_tree.h"
#include "physics/joint/joint_set.h"
#include "physics/step.h"
#include "voltex/query.h"
#include "voltex/world.h"

/* The bodies with a collider in a tree of their own for the queries,
 * brought up to date when a query comes after a change. */
typedef struct {
    vx_dynamic_tree tree;
    vx_entity *entity;    /* per proxy: its entity */
    uint32_t *proxy_of;   /* per entity index: proxy + 1, 0 for none */
    size_t entity_capacity;
    uint32_t proxy_of_capacity;
    uint64_t layout;      /* the registry's layout when last built (0: never) */
    uint64_t changes;     /* the world's change count when last brought up to date */
    vx_query_hit *hits;   /* one call's hits, sorted before they are handed out */
    size_t hit_count, hit_capacity;
} vx_world_queries;

struct vx_world {
    vx_registry *registry;
    vx_world_def def;
    vx_step_state state;
    vx_contact_list contacts; /* the last step's */
    uint64_t changes;         /* one more for every step and every change made through the API */
    vx_world_queries queries;
    vx_joint_set joints;
    struct vx_hull **hulls;   /* the hulls it made (vx_world_make_hull), freed with it */
    size_t hull_count, hull_capacity;
    struct vx_mesh **meshes;  /* the meshes and heightfields it made, freed with it */
    size_t mesh_count, mesh_capacity;
    struct vx_compound **compounds; /* the compounds it made, freed with it */
    size_t compound_count, compound_capacity;
};

/* |q|^2 this far from 1 is not a unit quaternion (floats a user rounded
 * from a normalised one are far closer). */
#define VX_UNIT_QUAT_TOLERANCE 1e-4f

static inline bool vx_world_is_unit_quat(vx_quat q)
{
    float n = q.x * q.x + q.y * q.y + q.z * q.z + q.w * q.w;
    return vx_quat_is_finite(q) && fabsf(n - 1.0f) <= VX_UNIT_QUAT_TOLERANCE;
}

/* shape with only the fields of its type, when its sizes are positive and
 * finite and a hull is one of world's; else VX_ERR_INVALID and
 * "shape: FIELD: ..." */
vx_status vx_world_check_shape(const vx_world *world, const vx_collider *shape, vx_collider *out, vx_error *err);

void vx_world_queries_init(vx_world_queries *q);
void vx_world_queries_free(vx_world_queries *q);

#endif
