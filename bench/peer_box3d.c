/* peer_box3d: runs a voltex-sim scene file in Box3D (Erin Catto's 3D engine,
 * https://github.com/erincatto/box3d) and prints the same figures as
 * `voltex-sim --stats`, so scripts/bench.sh can put both engines side by side.
 *
 *   peer_box3d [--steps N] [--substeps N] [--workers N] [--no-contacts] SCENE.json
 *
 * Settings: Box3D's own defaults, as its benchmark program runs them: one
 * b3World_Step of the scene's dt per step with 4 substeps (--substeps), soft
 * contacts at 30 Hz, continuous collision on, one worker (--workers N uses
 * Box3D's internal task scheduler with N workers). The scene's solver object
 * (iterations, substeps, order, threads) is voltex-sim's and is not read:
 * Box3D has no iteration count. No sleeping (the world's sleeping is off).
 * Pair rules of voltex-sim: friction = sqrt(a * b) (Box3D's default too),
 * restitution = min(a, b) (Box3D's default is max; a callback sets min).
 *
 * Bodies: static, kinematic and dynamic bodies at the scene's pose and
 * velocity; boxes are hulls (b3MakeBoxHull), spheres and capsules (axis Y,
 * half_height the half segment) Box3D's own shapes, convex colliders one
 * hull of their points each (b3CreateHull; a shared shape of the top-level
 * "shapes" object is made once, whatever the number of entities naming it).
 * A dynamic body's shape gets the scene's rigidbody.density, or else the
 * density that gives the scene's mass with Box3D's own mass formula;
 * friction and restitution go on each shape. A dynamic body without a
 * collider gets the mass and a unit inertia, as in peer_bullet. Joints and
 * the other version-2 colliders (compound, mesh, heightfield) are refused.
 *
 * Output, on stdout, the lines of voltex-sim --stats with "peer_box3d: " in
 * front (see src/cli/stats.c), plus one line of the largest move of a
 * dynamic body along each axis (for the out-of-plane drift of a pyramid)
 * and one of where the dynamic bodies end (lowest and highest, how many
 * below y = -0.5 m, mean and largest distance from the axis x = z = 0,
 * mean and largest speed).
 * Step times are of b3World_Step alone. Contact points (every point of the
 * touching manifolds, speculative ones included) are counted after each
 * step, outside the timed call; --no-contacts leaves that out. Errors go to
 * stderr as "peer_box3d: ..." and exit 2. */
#include "box3d/box3d.h"
#include "box3d/collision.h"
#include "box3d/math_functions.h"
#include "box3d/types.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

static const char *const prog = "peer_box3d";

static void fail(const char *format, ...)
#if defined(__GNUC__)
    __attribute__((noreturn, format(printf, 1, 2)))
#endif
    ;

static void fail(const char *format, ...)
{
    va_list args;
    va_start(args, format);
    fprintf(stderr, "%s: ", prog);
    vfprintf(stderr, format, args);
    fputc('\n', stderr);
    va_end(args);
    exit(2);
}

static void *xcalloc(size_t count, size_t size)
{
    void *p = calloc(count ? count : 1, size);
    if (!p) fail("out of memory");
    return p;
}

static double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* ---- scene reading ---- */

typedef enum { SHAPE_NONE, SHAPE_SPHERE, SHAPE_BOX, SHAPE_CAPSULE, SHAPE_CONVEX } shape_kind;
typedef enum { TYPE_NONE, TYPE_STATIC, TYPE_KINEMATIC, TYPE_DYNAMIC } body_type;

typedef struct {
    double x, y, z;
} vec3d;

typedef struct {
    double x, y, z, w;
} quatd;

typedef struct {
    const char *name; /* points into the cJSON tree, or into name_buf */
    char name_buf[32];
    shape_kind shape;
    double radius, half_height;
    vec3d half_extents;
    size_t convex; /* SHAPE_CONVEX: index into scene_desc.convexes */
    bool sensor;
    bool has_rigidbody;
    body_type type;
    double mass, restitution, friction, gravity_scale, linear_damping, angular_damping;
    double density; /* rigidbody.density, when given (> 0); else 0 and the mass counts */
    bool lock_rotation, ccd;
    vec3d position, velocity, angular_velocity;
    quatd rotation;
} body_desc;

/* The points of a convex collider, inline or shared: one Box3D hull each. */
typedef struct {
    size_t count;
    vec3d *points;
} convex_desc;

/* A shared shape of the top-level "shapes" object: its collider fields are
 * kept in a body_desc and copied into each entity that names it. */
typedef struct {
    const char *name; /* points into the cJSON tree */
    body_desc collider;
} shared_shape;

typedef struct {
    vec3d gravity;
    double dt;
    long long steps;
    size_t count;
    body_desc *bodies;
    size_t convex_count;
    convex_desc *convexes;
} scene_desc;

typedef struct {
    const char *path;
    scene_desc *scene;
    size_t shared_count;
    shared_shape *shared;
} reader;

static void bad(const reader *r, const char *where, const char *what)
{
    fail("%s: %s: %s", r->path, where, what);
}

static double number(const reader *r, const cJSON *item, const char *where)
{
    if (!cJSON_IsNumber(item) || !isfinite(item->valuedouble)) bad(r, where, "expected a number");
    return item->valuedouble;
}

static bool boolean(const reader *r, const cJSON *item, const char *where)
{
    if (!cJSON_IsBool(item)) bad(r, where, "expected true or false");
    return cJSON_IsTrue(item);
}

static const char *string(const reader *r, const cJSON *item, const char *where)
{
    if (!cJSON_IsString(item)) bad(r, where, "expected a string");
    return item->valuestring;
}

static vec3d vec3(const reader *r, const cJSON *item, const char *where)
{
    if (!cJSON_IsArray(item) || cJSON_GetArraySize(item) != 3) bad(r, where, "expected [x, y, z]");
    return (vec3d){number(r, cJSON_GetArrayItem(item, 0), where), number(r, cJSON_GetArrayItem(item, 1), where),
                   number(r, cJSON_GetArrayItem(item, 2), where)};
}

static const cJSON *key(const cJSON *object, const char *name)
{
    return cJSON_GetObjectItemCaseSensitive(object, name);
}

static quatd quat_mul(quatd a, quatd b)
{
    return (quatd){a.w * b.x + a.x * b.w + a.y * b.z - a.z * b.y, a.w * b.y - a.x * b.z + a.y * b.w + a.z * b.x,
                   a.w * b.z + a.x * b.y - a.y * b.x + a.z * b.w, a.w * b.w - a.x * b.x - a.y * b.y - a.z * b.z};
}

/* Degrees about fixed X, then Y, then Z: q = qz * qy * qx (as voltex-sim). */
static quatd rotation_from_degrees(vec3d deg)
{
    const double half = 3.14159265358979323846 / 360.0;
    quatd qx = {sin(deg.x * half), 0.0, 0.0, cos(deg.x * half)};
    quatd qy = {0.0, sin(deg.y * half), 0.0, cos(deg.y * half)};
    quatd qz = {0.0, 0.0, sin(deg.z * half), cos(deg.z * half)};
    return quat_mul(qz, quat_mul(qy, qx));
}

static void read_transform(const reader *r, const cJSON *t, body_desc *b)
{
    const cJSON *p = key(t, "position");
    if (p) b->position = vec3(r, p, "transform.position");
    const cJSON *q = key(t, "rotation");
    const cJSON *deg = key(t, "rotation_deg");
    if (q && deg) bad(r, "transform", "rotation and rotation_deg together");
    if (q) {
        if (!cJSON_IsArray(q) || cJSON_GetArraySize(q) != 4) bad(r, "transform.rotation", "expected [x, y, z, w]");
        quatd v = {number(r, cJSON_GetArrayItem(q, 0), "transform.rotation"),
                   number(r, cJSON_GetArrayItem(q, 1), "transform.rotation"),
                   number(r, cJSON_GetArrayItem(q, 2), "transform.rotation"),
                   number(r, cJSON_GetArrayItem(q, 3), "transform.rotation")};
        double length = sqrt(v.x * v.x + v.y * v.y + v.z * v.z + v.w * v.w);
        if (!(length > 0.0)) bad(r, "transform.rotation", "must not be zero");
        b->rotation = (quatd){v.x / length, v.y / length, v.z / length, v.w / length};
    }
    if (deg) b->rotation = rotation_from_degrees(vec3(r, deg, "transform.rotation_deg"));
}

/* The points of a convex collider, added to the scene's list of convexes. */
static size_t read_convex(const reader *r, const cJSON *c)
{
    const cJSON *points = key(c, "points");
    if (!cJSON_IsArray(points)) bad(r, "collider.points", "expected an array of [x, y, z]");
    int n = cJSON_GetArraySize(points);
    if (n < 4 || n > 256) bad(r, "collider.points", "expected 4 to 256 points");
    scene_desc *scene = r->scene;
    convex_desc *grown = realloc(scene->convexes, (scene->convex_count + 1) * sizeof *grown);
    if (!grown) fail("out of memory");
    scene->convexes = grown;
    convex_desc *convex = &scene->convexes[scene->convex_count];
    convex->count = (size_t)n;
    convex->points = xcalloc((size_t)n, sizeof *convex->points);
    size_t i = 0;
    for (const cJSON *p = points->child; p; p = p->next) convex->points[i++] = vec3(r, p, "collider.points");
    return scene->convex_count++;
}

static void read_collider(const reader *r, const cJSON *c, body_desc *b)
{
    if (cJSON_IsString(c)) { /* the name of a shared shape */
        for (size_t i = 0; i < r->shared_count; i++) {
            if (strcmp(r->shared[i].name, c->valuestring) != 0) continue;
            const body_desc *s = &r->shared[i].collider;
            b->shape = s->shape;
            b->radius = s->radius;
            b->half_height = s->half_height;
            b->half_extents = s->half_extents;
            b->convex = s->convex;
            b->sensor = s->sensor;
            return;
        }
        fail("%s: collider: no shared shape named '%s' in \"shapes\"", r->path, c->valuestring);
    }
    if (!cJSON_IsObject(c)) bad(r, "collider", "expected a collider object or the name of a shared shape");
    const char *type = string(r, key(c, "type"), "collider.type");
    if (strcmp(type, "sphere") == 0) {
        b->shape = SHAPE_SPHERE;
        b->radius = number(r, key(c, "radius"), "collider.radius");
    } else if (strcmp(type, "box") == 0) {
        b->shape = SHAPE_BOX;
        b->half_extents = vec3(r, key(c, "half_extents"), "collider.half_extents");
    } else if (strcmp(type, "capsule") == 0) {
        b->shape = SHAPE_CAPSULE;
        b->radius = number(r, key(c, "radius"), "collider.radius");
        b->half_height = number(r, key(c, "half_height"), "collider.half_height");
    } else if (strcmp(type, "convex") == 0) {
        b->shape = SHAPE_CONVEX;
        b->convex = read_convex(r, c);
    } else {
        fail("%s: collider.type: collider type '%s' is not built by the peer (it knows sphere, box, capsule and "
             "convex)",
             r->path, type);
    }
    const cJSON *s = key(c, "sensor");
    if (s) b->sensor = boolean(r, s, "collider.sensor");
}

static void read_number(const reader *r, const cJSON *rb, const char *name, double *out)
{
    const cJSON *item = key(rb, name);
    if (item) *out = number(r, item, name);
}

static void read_flag(const reader *r, const cJSON *rb, const char *name, bool *out)
{
    const cJSON *item = key(rb, name);
    if (item) *out = boolean(r, item, name);
}

static void read_rigidbody(const reader *r, const cJSON *rb, body_desc *b)
{
    b->has_rigidbody = true;
    read_number(r, rb, "mass", &b->mass);
    read_number(r, rb, "density", &b->density);
    if (key(rb, "density")) {
        if (key(rb, "mass")) bad(r, "rigidbody", "mass and density together");
        if (!(b->density > 0.0)) bad(r, "rigidbody.density", "must be > 0");
    }
    read_number(r, rb, "restitution", &b->restitution);
    read_number(r, rb, "friction", &b->friction);
    read_number(r, rb, "gravity_scale", &b->gravity_scale);
    read_number(r, rb, "linear_damping", &b->linear_damping);
    read_number(r, rb, "angular_damping", &b->angular_damping);
    read_flag(r, rb, "lock_rotation", &b->lock_rotation);
    read_flag(r, rb, "bullet", &b->ccd);
    const cJSON *v = key(rb, "velocity");
    if (v) b->velocity = vec3(r, v, "rigidbody.velocity");
    const cJSON *w = key(rb, "angular_velocity");
    if (w) b->angular_velocity = vec3(r, w, "rigidbody.angular_velocity");
    const cJSON *t = key(rb, "type");
    if (t) {
        const char *type = string(r, t, "rigidbody.type");
        if (strcmp(type, "dynamic") == 0)
            b->type = TYPE_DYNAMIC;
        else if (strcmp(type, "static") == 0)
            b->type = TYPE_STATIC;
        else if (strcmp(type, "kinematic") == 0)
            b->type = TYPE_KINEMATIC;
        else
            bad(r, "rigidbody.type", "expected dynamic, static or kinematic");
    } else {
        b->type = b->mass > 0.0 || b->density > 0.0 ? TYPE_DYNAMIC : TYPE_STATIC;
    }
    if (b->type == TYPE_DYNAMIC && !(b->mass > 0.0) && !(b->density > 0.0))
        b->type = TYPE_STATIC; /* mass 0 means static */
}

static char *read_file(const char *path, size_t *size)
{
    FILE *f = fopen(path, "rb");
    if (!f) fail("%s: cannot open: %s", path, strerror(errno));
    size_t capacity = 1 << 16, used = 0;
    char *text = xcalloc(capacity, 1);
    size_t got;
    while ((got = fread(text + used, 1, capacity - used, f)) > 0) {
        used += got;
        if (used == capacity) {
            capacity *= 2;
            char *grown = realloc(text, capacity);
            if (!grown) fail("out of memory");
            text = grown;
        }
    }
    bool error = ferror(f) != 0;
    fclose(f);
    if (error) fail("%s: cannot read", path);
    *size = used;
    return text;
}

/* Reads the scene; the names point into *root, which the caller frees. */
static scene_desc read_scene(const char *path, cJSON **root)
{
    size_t size;
    char *text = read_file(path, &size);
    *root = cJSON_ParseWithLength(text, size);
    free(text);
    if (!*root) fail("%s: not valid JSON", path);

    scene_desc scene = {{0.0, -9.81, 0.0}, 1.0 / 60.0, 600, 0, NULL, 0, NULL};
    reader rd = {path, &scene, 0, NULL};
    const reader *r = &rd;
    const cJSON *doc = *root;
    const cJSON *item;
    if ((item = key(doc, "gravity"))) scene.gravity = vec3(r, item, "gravity");
    if ((item = key(doc, "dt"))) scene.dt = number(r, item, "dt");
    if ((item = key(doc, "steps"))) scene.steps = (long long)number(r, item, "steps");
    if (!(scene.dt > 0.0)) bad(r, "dt", "must be > 0");
    if (scene.steps < 0) bad(r, "steps", "must be >= 0");
    const cJSON *joints = key(doc, "joints");
    if (joints && !(cJSON_IsArray(joints) && cJSON_GetArraySize(joints) == 0))
        bad(r, "joints", "joints are not built by the peer");

    /* Shared shapes first: entities name them. */
    const cJSON *shapes = key(doc, "shapes");
    if (shapes) {
        if (!cJSON_IsObject(shapes)) bad(r, "shapes", "expected an object of named colliders");
        rd.shared = xcalloc((size_t)cJSON_GetArraySize(shapes), sizeof *rd.shared);
        for (const cJSON *s = shapes->child; s; s = s->next) {
            if (!cJSON_IsObject(s)) bad(r, "shapes", "each shared shape must be a collider object");
            shared_shape *shared = &rd.shared[rd.shared_count++];
            shared->name = s->string;
            shared->collider = (body_desc){.radius = 0.5, .half_height = 0.5, .half_extents = {0.5, 0.5, 0.5}};
            read_collider(r, s, &shared->collider);
        }
    }

    const cJSON *entities = key(doc, "entities");
    if (!cJSON_IsArray(entities)) bad(r, "entities", "expected an array");
    scene.count = (size_t)cJSON_GetArraySize(entities);
    scene.bodies = xcalloc(scene.count, sizeof *scene.bodies);
    size_t index = 0;
    for (const cJSON *e = entities->child; e; e = e->next, index++) {
        body_desc *b = &scene.bodies[index];
        *b = (body_desc){.shape = SHAPE_NONE,
                         .radius = 0.5,
                         .half_height = 0.5,
                         .half_extents = {0.5, 0.5, 0.5},
                         .type = TYPE_NONE,
                         .mass = 1.0,
                         .restitution = 0.3,
                         .friction = 0.5,
                         .gravity_scale = 1.0,
                         .rotation = {0.0, 0.0, 0.0, 1.0}};
        snprintf(b->name_buf, sizeof b->name_buf, "entity%zu", index);
        b->name = b->name_buf;
        if ((item = key(e, "name"))) b->name = string(r, item, "name");
        if ((item = key(e, "transform"))) read_transform(r, item, b);
        if ((item = key(e, "collider"))) read_collider(r, item, b);
        if ((item = key(e, "rigidbody")))
            read_rigidbody(r, item, b);
        else if (b->shape != SHAPE_NONE)
            b->type = TYPE_STATIC; /* a collider without a rigid body stops others, as a floor does */
        if (b->type == TYPE_DYNAMIC && b->density > 0.0 && b->shape == SHAPE_NONE)
            bad(r, "rigidbody.density", "needs a collider");
    }
    free(rd.shared);
    return scene;
}

/* ---- the Box3D world ---- */

static float restitution_min(float a, uint64_t material_a, float b, uint64_t material_b)
{
    (void)material_a;
    (void)material_b;
    return a < b ? a : b;
}

static b3Vec3 to_vec(vec3d v)
{
    return (b3Vec3){(float)v.x, (float)v.y, (float)v.z};
}

static b3Pos to_pos(vec3d v)
{
#ifdef BOX3D_DOUBLE_PRECISION
    return (b3Pos){v.x, v.y, v.z};
#else
    return (b3Pos){(float)v.x, (float)v.y, (float)v.z};
#endif
}

static vec3d from_pos(b3Pos p)
{
    return (vec3d){(double)p.x, (double)p.y, (double)p.z};
}

/* Mass of the shape at density 1, by Box3D's own formula. */
static double unit_mass(const body_desc *b, const b3BoxHull *box, const b3Sphere *sphere, const b3Capsule *capsule,
                        const b3HullData *hull)
{
    switch (b->shape) {
    case SHAPE_BOX: return (double)b3ComputeHullMass(&box->base, 1.0f).mass;
    case SHAPE_CONVEX: return (double)b3ComputeHullMass(hull, 1.0f).mass;
    case SHAPE_SPHERE: return (double)b3ComputeSphereMass(sphere, 1.0f).mass;
    case SHAPE_CAPSULE: return (double)b3ComputeCapsuleMass(capsule, 1.0f).mass;
    case SHAPE_NONE: break;
    }
    return 0.0;
}

typedef struct {
    b3WorldId world;
    b3BodyId *ids;   /* per entity; valid only where made[i] */
    bool *made;
} world_state;

/* One Box3D hull of a convex's points (b3CreateHull: the points inside are
 * dropped; Box3D keeps at most B3_MAX_HULL_VERTICES of them). */
static b3HullData *make_hull(const convex_desc *convex, size_t index)
{
    b3Vec3 *points = xcalloc(convex->count, sizeof *points);
    for (size_t i = 0; i < convex->count; i++) points[i] = to_vec(convex->points[i]);
    int count = (int)convex->count;
    b3HullData *hull = b3CreateHull(points, count, count < B3_MAX_HULL_VERTICES ? count : B3_MAX_HULL_VERTICES);
    free(points);
    if (!hull) fail("convex collider %zu: Box3D's b3CreateHull makes no hull of its %d points", index, count);
    return hull;
}

static void build_world(const scene_desc *scene, int workers, world_state *w)
{
    b3WorldDef def = b3DefaultWorldDef();
    def.gravity = to_vec(scene->gravity);
    def.enableSleep = false;
    def.workerCount = (uint32_t)workers;
    def.restitutionCallback = restitution_min;
    w->world = b3CreateWorld(&def);
    w->ids = xcalloc(scene->count, sizeof *w->ids);
    w->made = xcalloc(scene->count, sizeof *w->made);
    /* One hull per convex collider (a shared shape's is made once). The
     * world keeps its own copy of each (one for all the shapes with the same
     * hull), so ours go once the bodies are made. */
    b3HullData **hulls = xcalloc(scene->convex_count, sizeof *hulls);
    for (size_t c = 0; c < scene->convex_count; c++) hulls[c] = make_hull(&scene->convexes[c], c);

    for (size_t i = 0; i < scene->count; i++) {
        const body_desc *b = &scene->bodies[i];
        if (b->shape == SHAPE_NONE && !b->has_rigidbody) continue;
        b3BodyDef bd = b3DefaultBodyDef();
        bd.type = b->type == TYPE_DYNAMIC     ? b3_dynamicBody
                  : b->type == TYPE_KINEMATIC ? b3_kinematicBody
                                              : b3_staticBody;
        bd.position = to_pos(b->position);
        bd.rotation =
            (b3Quat){{(float)b->rotation.x, (float)b->rotation.y, (float)b->rotation.z}, (float)b->rotation.w};
        if (b->type != TYPE_STATIC) {
            bd.linearVelocity = to_vec(b->velocity);
            bd.angularVelocity = to_vec(b->angular_velocity);
        }
        bd.linearDamping = (float)b->linear_damping;   /* both engines: a rate in 1/s */
        bd.angularDamping = (float)b->angular_damping;
        bd.gravityScale = (float)b->gravity_scale;
        bd.enableSleep = false;
        bd.isBullet = b->ccd && b->type == TYPE_DYNAMIC;
        if (b->lock_rotation) bd.motionLocks = (b3MotionLocks){false, false, false, true, true, true};
        b3BodyId id = b3CreateBody(w->world, &bd);

        if (b->shape != SHAPE_NONE) {
            b3BoxHull box = b3MakeBoxHull((float)b->half_extents.x, (float)b->half_extents.y, (float)b->half_extents.z);
            b3Sphere sphere = {{0.0f, 0.0f, 0.0f}, (float)b->radius};
            b3Capsule capsule = {{0.0f, (float)-b->half_height, 0.0f},
                                 {0.0f, (float)b->half_height, 0.0f},
                                 (float)b->radius};
            const b3HullData *hull = b->shape == SHAPE_CONVEX ? hulls[b->convex] : NULL;
            b3ShapeDef sd = b3DefaultShapeDef();
            sd.baseMaterial.friction = (float)b->friction;
            sd.baseMaterial.restitution = (float)b->restitution;
            sd.isSensor = b->sensor;
            if (b->type == TYPE_DYNAMIC && b->density > 0.0) {
                sd.density = (float)b->density; /* the scene's density, as Box3D's own mass formula takes it */
            } else if (b->type == TYPE_DYNAMIC) {
                double m1 = unit_mass(b, &box, &sphere, &capsule, hull);
                if (!(m1 > 0.0)) fail("%s: a dynamic body's collider has no volume", b->name);
                sd.density = (float)(b->mass / m1);
            }
            switch (b->shape) {
            case SHAPE_BOX: b3CreateHullShape(id, &sd, &box.base); break;
            case SHAPE_CONVEX: b3CreateHullShape(id, &sd, hull); break;
            case SHAPE_SPHERE: b3CreateSphereShape(id, &sd, &sphere); break;
            case SHAPE_CAPSULE: b3CreateCapsuleShape(id, &sd, &capsule); break;
            case SHAPE_NONE: break;
            }
        } else if (b->type == TYPE_DYNAMIC) {
            b3MassData md = {0};
            md.mass = (float)b->mass; /* no shape: a unit-sized body, as peer_bullet */
            md.inertia.cx.x = md.inertia.cy.y = md.inertia.cz.z = (float)b->mass;
            b3Body_SetMassData(id, md);
        }
        w->ids[i] = id;
        w->made[i] = true;
    }
    for (size_t c = 0; c < scene->convex_count; c++) b3DestroyHull(hulls[c]);
    free(hulls);
}

/* Contact points of the touching manifolds: each contact is listed on both
 * of its bodies, so the sum over the bodies counts every point twice. */
static long long contact_points(const scene_desc *scene, const world_state *w, b3ContactData **buffer, int *capacity)
{
    long long twice = 0;
    for (size_t i = 0; i < scene->count; i++) {
        if (!w->made[i]) continue;
        int needed = b3Body_GetContactCapacity(w->ids[i]);
        if (needed > *capacity) {
            free(*buffer);
            *capacity = needed * 2;
            *buffer = xcalloc((size_t)*capacity, sizeof **buffer);
        }
        int n = b3Body_GetContactData(w->ids[i], *buffer, *capacity);
        for (int c = 0; c < n; c++)
            for (int m = 0; m < (*buffer)[c].manifoldCount; m++) twice += (*buffer)[c].manifolds[m].pointCount;
    }
    return twice / 2;
}

static int compare_doubles(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static long parse_count(const char *option, const char *value, long min)
{
    char *end;
    errno = 0;
    long n = strtol(value, &end, 10);
    if (errno || *end != '\0' || end == value || n < min)
        fail("%s: expected an integer >= %ld, got '%s'", option, min, value);
    return n;
}

static void usage(void)
{
    printf("Usage: %s [--steps N] [--substeps N] [--workers N] [--no-contacts] SCENE.json\n"
           "Runs a voltex-sim scene in Box3D with Box3D's defaults (4 substeps, one worker,\n"
           "no sleeping) and prints the figures of voltex-sim --stats (bodies, steps, ms/step\n"
           "median and p95, steps/s, contacts/step, max displacement of dynamic bodies, peak\n"
           "memory), plus the largest move of a dynamic body along each axis.\n"
           "  -n, --steps N      steps to run (default: the scene's \"steps\")\n"
           "      --substeps N   substeps of each b3World_Step (default 4, Box3D's)\n"
           "      --workers N    Box3D's internal task scheduler with N workers (default 1;\n"
           "                     --threads N is the same)\n"
           "      --no-contacts  do not count the contact points after each step\n",
           prog);
}

int main(int argc, char **argv)
{
    const char *path = NULL;
    long long steps_override = -1;
    int substeps = 4, workers = 1;
    bool count_contacts = true;
    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i];
        if (strcmp(arg, "-h") == 0 || strcmp(arg, "--help") == 0) {
            usage();
            return 0;
        } else if (strcmp(arg, "-n") == 0 || strcmp(arg, "--steps") == 0) {
            if (i + 1 >= argc) fail("%s: missing value", arg);
            steps_override = parse_count(arg, argv[++i], 0);
        } else if (strcmp(arg, "--substeps") == 0) {
            if (i + 1 >= argc) fail("%s: missing value", arg);
            substeps = (int)parse_count(arg, argv[++i], 1);
        } else if (strcmp(arg, "--workers") == 0 || strcmp(arg, "--threads") == 0) {
            if (i + 1 >= argc) fail("%s: missing value", arg);
            workers = (int)parse_count(arg, argv[++i], 1);
            if (workers > B3_MAX_WORKERS) fail("%s: at most %d", arg, B3_MAX_WORKERS);
        } else if (strcmp(arg, "--no-contacts") == 0) {
            count_contacts = false;
        } else if (strcmp(arg, "-q") == 0 || strcmp(arg, "--quiet") == 0 || strcmp(arg, "--stats") == 0) {
            /* accepted for symmetry with voltex-sim: the peer prints its figures always */
        } else if (arg[0] == '-') {
            fail("unknown option '%s' (try --help)", arg);
        } else if (!path) {
            path = arg;
        } else {
            fail("unexpected argument '%s' (one scene file)", arg);
        }
    }
    if (!path) fail("missing SCENE.json (try --help)");

    cJSON *root = NULL;
    scene_desc scene = read_scene(path, &root);
    long long steps = steps_override >= 0 ? steps_override : scene.steps;
    world_state w = {0};
    build_world(&scene, workers, &w);

    size_t dynamic = 0;
    for (size_t i = 0; i < scene.count; i++)
        if (w.made[i] && scene.bodies[i].type == TYPE_DYNAMIC) dynamic++;

    size_t samples_capacity = (size_t)(steps < (1LL << 22) ? steps : (1LL << 22));
    double *step_ms = xcalloc(samples_capacity, sizeof *step_ms);
    size_t samples = 0;
    double total_ms = 0.0, max_ms = 0.0;
    double profile_pairs = 0.0, profile_collide = 0.0, profile_solve = 0.0;
    long long contacts = 0;
    b3ContactData *contact_buffer = NULL;
    int contact_capacity = 0;
    const float dt = (float)scene.dt;
    double wall_start = now_seconds();
    for (long long k = 0; k < steps; k++) {
        double t0 = now_seconds();
        b3World_Step(w.world, dt, substeps);
        double ms = (now_seconds() - t0) * 1000.0;
        if (samples < samples_capacity) step_ms[samples++] = ms;
        total_ms += ms;
        if (ms > max_ms) max_ms = ms;
        b3Profile profile = b3World_GetProfile(w.world);
        profile_pairs += (double)profile.pairs;
        profile_collide += (double)profile.collide;
        profile_solve += (double)profile.solve;
        if (count_contacts) contacts += contact_points(&scene, &w, &contact_buffer, &contact_capacity);
    }
    double wall = now_seconds() - wall_start;

    double max_displacement = 0.0;
    double max_axis[3] = {0.0, 0.0, 0.0};
    const char *moved = "-";
    /* Where the dynamic bodies end: lowest and highest origin, how many went
     * below y = -0.5 m (through a ground whose top is y = 0), the mean and
     * largest distance from the vertical axis x = z = 0 and speed (how far
     * a pile spread, whether anything flies away). */
    double y_min = INFINITY, y_max = -INFINITY, radial_max = 0.0, speed_max = 0.0, radial_sum = 0.0, speed_sum = 0.0;
    size_t below = 0;
    for (size_t i = 0; i < scene.count; i++) {
        if (!w.made[i] || scene.bodies[i].type != TYPE_DYNAMIC) continue;
        vec3d p = from_pos(b3Body_GetPosition(w.ids[i]));
        b3Vec3 v = b3Body_GetLinearVelocity(w.ids[i]);
        double speed = sqrt((double)v.x * v.x + (double)v.y * v.y + (double)v.z * v.z);
        double radial = sqrt(p.x * p.x + p.z * p.z);
        if (!(p.y >= y_min)) y_min = p.y;
        if (!(p.y <= y_max)) y_max = p.y;
        if (p.y < -0.5) below++;
        if (!(radial <= radial_max)) radial_max = radial;
        if (!(speed <= speed_max)) speed_max = speed;
        radial_sum += radial;
        speed_sum += speed;
        vec3d s = scene.bodies[i].position;
        double d[3] = {p.x - s.x, p.y - s.y, p.z - s.z};
        double length = sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
        if (!(length <= max_displacement)) { /* NaN wins, so it shows */
            max_displacement = length;
            moved = scene.bodies[i].name;
        }
        for (int a = 0; a < 3; a++)
            if (!(fabs(d[a]) <= max_axis[a])) max_axis[a] = fabs(d[a]);
    }

    qsort(step_ms, samples, sizeof *step_ms, compare_doubles);
    double median = 0.0, p95 = 0.0;
    if (samples > 0) {
        median = samples % 2 ? step_ms[samples / 2] : 0.5 * (step_ms[samples / 2 - 1] + step_ms[samples / 2]);
        size_t rank = (size_t)ceil(0.95 * (double)samples);
        p95 = step_ms[(rank ? rank : 1u) - 1u];
    }
    double n = (double)steps;
    struct rusage usage_now;
    double peak_mb = getrusage(RUSAGE_SELF, &usage_now) == 0 ? (double)usage_now.ru_maxrss * 1024.0 / 1e6 : 0.0;

    printf("%s: bodies %zu (%zu dynamic), steps %lld, wall %.3f s, %.4g ms/step, %.0f steps/s, ", prog, scene.count,
           dynamic, steps, wall, n > 0 ? wall * 1000.0 / n : 0.0, wall > 0 ? n / wall : 0.0);
    if (count_contacts)
        printf("%.2f contacts/step\n", n > 0 ? (double)contacts / n : 0.0);
    else
        printf("contacts not counted\n");
    printf("%s: solver: box3d, workers %d, substeps %d, sleeping off, continuous on\n", prog, workers, substeps);
    printf("%s: step ms: median %.4f, p95 %.4f, mean %.4f, max %.4f\n", prog, median, p95, n > 0 ? total_ms / n : 0.0,
           max_ms);
    /* Box3D's profile: pairs (broad phase), collide (narrow phase), solve
     * (everything of the solver stage, integration included). */
    printf("%s: stage ms/step: broad phase %.4f, narrow phase %.4f, solver %.4f (not measured yet: integration)\n",
           prog, n > 0 ? profile_pairs / n : 0.0, n > 0 ? profile_collide / n : 0.0, n > 0 ? profile_solve / n : 0.0);
    printf("%s: max displacement %.4g m (%s), peak memory %.1f MB\n", prog, max_displacement, moved, peak_mb);
    printf("%s: max axis displacement: x %.4g, y %.4g, z %.4g m\n", prog, max_axis[0], max_axis[1], max_axis[2]);
    if (dynamic > 0)
        printf("%s: dynamic bodies at the end: y from %.4g to %.4g m, %zu below y = -0.5 m, %.4g m from the axis "
               "x = z = 0 on average and %.4g at most, speed %.4g m/s on average and %.4g at most\n",
               prog, y_min, y_max, below, radial_sum / (double)dynamic, radial_max, speed_sum / (double)dynamic,
               speed_max);

    b3DestroyWorld(w.world);
    free(contact_buffer);
    free(step_ms);
    free(w.ids);
    free(w.made);
    free(scene.bodies);
    for (size_t c = 0; c < scene.convex_count; c++) free(scene.convexes[c].points);
    free(scene.convexes);
    cJSON_Delete(root);
    return 0;
}
