/* Scene files (JSON, docs/scene_format.md) to a world plus
 * settings, with every validation. */
#ifndef VOLTEX_SCENE_H
#define VOLTEX_SCENE_H

#include <stddef.h>
#include <stdint.h>

#include "voltex/ecs.h"
#include "voltex/error.h"
#include "voltex/joint.h"
#include "voltex/physics.h"
#include "voltex/query.h"
#include "voltex/world.h"

#define VX_SCENE_DEFAULT_STEPS 600
#define VX_SCENE_MAX_STEPS 1000000000LL /* keeps step counts and times well inside float/int ranges */
/* bytes: the largest scene text read (64 MiB, some 300 000 entities); the
 * parsed tree takes up to about 20 times the text */
#define VX_SCENE_MAX_BYTES (64u << 20)
/* Why dt is at most VX_MAX_DT (voltex/limits.h), for the messages. */
#define VX_MAX_DT_WHY "longer steps let piles sink through static bodies (write fewer frames with --every)"

/* A joint of the scene's "joints" array. */
typedef struct {
    vx_joint_id id;           /* in the scene's world */
    vx_joint_type type;
    int64_t entity_a, entity_b; /* scene entity indices, -1 for the world */
} vx_scene_joint;

typedef struct {
    char *name;                /* scene "name", else the file name without .json */
    vx_world *world;           /* its def: gravity, dt (fixed_dt) and the "solver" object */
    int64_t steps;             /* scene "steps", else VX_SCENE_DEFAULT_STEPS */
    size_t entity_count;
    vx_entity *entities;       /* entities[i] is scene entity i; entities[i].index == i */
    char **names;              /* names[i]: the given name or "entity<i>" */
    size_t query_count;
    vx_query_def *queries;     /* the "queries" array; their ignore lists belong to the scene */
    char **query_names;        /* query_names[i]: the given name or "query<i>" */
    size_t joint_count;
    vx_scene_joint *joints;    /* the "joints" array, made in the world */
    char **joint_names;        /* joint_names[i]: the given name or "joint<i>" */
} vx_scene;

/* Reads and validates the file. On failure *scene is left empty (nothing to
 * destroy) and err says what and where: "PATH:LINE:COLUMN: ..." for JSON syntax,
 * "PATH: JSON.PATH: ..." for values. */
vx_status vx_scene_load_file(const char *path, vx_scene *scene, vx_error *err);
/* The same from memory; display_path names the source in messages and gives
 * the default scene name. */
vx_status vx_scene_load_string(const char *text, size_t length, const char *display_path, vx_scene *scene,
                               vx_error *err);
/* One override of a scene key before the scene is checked (voltex-sim --set
 * PATH=VALUE): path is a JSON path from the top ("entities[1].rigidbody.restitution",
 * "gravity", "solver.substeps"), value JSON text (a bare word is a string). A
 * missing object on the way is made; an array index must exist. */
typedef struct {
    const char *path;
    const char *value;
} vx_scene_set;

/* Where a scene comes from: the file at path, else the open descriptor fd
 * (read to its end, left open) named display_path in messages; sets are
 * applied in order before the checks, whose messages then read as if the
 * file had said it ("--set PATH: ..." when the path itself is wrong). */
typedef struct {
    const char *path;
    int fd;
    const char *display_path;
    const vx_scene_set *sets;
    size_t set_count;
} vx_scene_source;

vx_status vx_scene_load(const vx_scene_source *source, vx_scene *scene, vx_error *err);

/* The same from an open file descriptor, read to its end and left open
 * (stdin: 0, named VX_SCENE_STDIN_NAME in messages, which gives the default
 * scene name "stdin"). */
#define VX_SCENE_STDIN_NAME "<stdin>"
vx_status vx_scene_load_fd(int fd, const char *display_path, vx_scene *scene, vx_error *err);
void vx_scene_destroy(vx_scene *scene);

/* One setting of the scene file's "solver" object, from text (a command
 * line's KEY=VALUE): key is one of that object's keys and value its JSON
 * value (4, 0.5, true, "colored"); a value that is not JSON is taken as a
 * string, so order=colored works too. The same checks as in a file; on
 * failure config is unchanged and err says "SOURCE: solver.KEY: ...". */
vx_status vx_scene_set_solver(vx_world_def *config, const char *key, const char *value, const char *source,
                              vx_error *err);

#endif
