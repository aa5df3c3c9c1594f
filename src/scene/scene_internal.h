/* Shared state of one scene load and the readers of its parts. */
#ifndef VX_SCENE_INTERNAL_H
#define VX_SCENE_INTERNAL_H

#include <cjson/cJSON.h>
#include <stdbool.h>
#include <stddef.h>

#include "scene/json_read.h"
#include "scene/scene_names.h"
#include "voltex/scene.h"

typedef struct {
    vx_json_reader json; /* source name, current JSON path, the caller's error */
    vx_scene *scene;     /* being filled; torn down by the caller on failure */
    vx_world_def def;    /* the world's settings as read so far */
    const cJSON *queries; /* read after the entities, whose names they use */
    const cJSON *joints;  /* the same */
    /* the top-level "shapes", read before anything else: entities name them */
    size_t shape_count;
    const char **shape_names; /* the keys, owned by the JSON tree */
    vx_collider *shapes;
    vx_name_index names; /* entity names seen so far */
} vx_scene_builder;

/* "SOURCE: out of memory". */
static inline vx_status vx_scene_fail_nomem(vx_scene_builder *b)
{
    return vx_error_set(b->json.err, VX_ERR_NOMEM, "%s: out of memory", b->json.source);
}

/* One entity of the file as read, before it is spawned. */
typedef struct {
    vx_transform transform;
    const char *rotation_key; /* "rotation", "rotation_deg" or NULL when neither was given */
    bool has_collider;
    vx_collider collider;
    bool has_rigidbody;
    vx_rigidbody body;
    bool has_density; /* the body's mass is density * the collider's volume */
    float density;
} vx_scene_entity_def;

/* Everything fd holds up to its end plus a terminating '\0' in *out (the
 * caller frees it); path names it in messages ("PATH: cannot read: why").
 * Closes fd when close_it. */
vx_status vx_scene_read_fd(int fd, bool close_it, const char *path, char **out, size_t *out_length, vx_error *err);
/* The whole file at path, the same way. */
vx_status vx_scene_read_file(const char *path, char **out, size_t *out_length, vx_error *err);

/* Each reader runs with its object's key on the path and fills its part. */
vx_status vx_scene_read_solver(vx_scene_builder *b, const cJSON *solver);
vx_status vx_scene_read_entities(vx_scene_builder *b, const cJSON *entities);
vx_status vx_scene_read_queries(vx_scene_builder *b, const cJSON *queries);
vx_status vx_scene_read_shapes(vx_scene_builder *b, const cJSON *shapes);
vx_status vx_scene_read_transform(vx_scene_builder *b, const cJSON *transform, vx_scene_entity_def *def);
vx_status vx_scene_read_collider(vx_scene_builder *b, const cJSON *collider, vx_scene_entity_def *def);
vx_status vx_scene_read_rigidbody(vx_scene_builder *b, const cJSON *rigidbody, vx_scene_entity_def *def);
vx_status vx_scene_read_joints(vx_scene_builder *b, const cJSON *joints);
/* The entity named by item (a string): its index, or an error with a hint
 * when the name is close to one that exists. */
vx_status vx_scene_read_entity_ref(vx_scene_builder *b, const cJSON *item, size_t *index);
/* Item `index` of array (queries, joints) gets object's "name", else
 * prefix<index>, copied into names_out[index]; a name given twice is an error. */
vx_status vx_scene_read_item_name(vx_scene_builder *b, vx_name_index *names, const cJSON *object, size_t index,
                                  const char *prefix, const char *array, char **names_out);
/* The "type" of an item of the arrays after the entities (queries,
 * joints): its index in kinds; without one, the keys are checked against
 * any_keys first (a misspelt key is then the likelier mistake), then the
 * missing type is reported; an unknown one "must be <expected>". */
vx_status vx_scene_read_kind(vx_json_reader *r, const cJSON *object, const char *const *kinds, size_t kind_count,
                             const char *const *any_keys, size_t any_key_count, const char *expected, size_t *out);
/* A "mesh" collider from its "vertices" and "triangles" or its "obj" file,
 * a "heightfield" from its "heights" and "spacing" (scene_mesh.c; each
 * NULL when not given), run with the collider's path. */
vx_status vx_scene_read_mesh(vx_scene_builder *b, const cJSON *vertices, const cJSON *triangles, const cJSON *obj,
                             vx_collider *c);
vx_status vx_scene_read_heightfield(vx_scene_builder *b, const cJSON *heights, const cJSON *spacing, vx_collider *c);
/* Applies sets to the parsed scene (scene_set.c); "--set PATH: ..." on error. */
vx_status vx_scene_apply_sets(cJSON *root, const vx_scene_set *sets, size_t count, vx_error *err);
/* A collider object with "position" and "rotation" / "rotation_deg" (a
 * query's shape): the shape into *shape, its placement into *pose. */
vx_status vx_scene_read_placed_shape(vx_scene_builder *b, const cJSON *object, vx_collider *shape, vx_transform *pose);
/* One of "position", "rotation", "rotation_deg" (m's key) into *t;
 * *rotation_key remembers which rotation was given, so the other is refused. */
vx_status vx_scene_read_placement(vx_json_reader *r, const cJSON *m, vx_transform *t, const char **rotation_key);

#endif
