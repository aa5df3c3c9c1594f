// peer_bullet: runs a voltex-sim scene file in Bullet 3 with the same settings
// and prints the same figures as `voltex-sim --stats`, so scripts/bench.sh
// can put both engines side by side (issue "Scale", section 1).
//
//   peer_bullet [--steps N] [--polyhedral] SCENE.json
//   peer_bullet --rays R [--steps N] [--repeat K] [--dump FILE] SCENE.json
//
// Settings, as voltex-sim runs the scene: fixed dt from the scene, one Bullet
// step per substep (solver.substeps, default 1: stepSimulation(dt, 0) makes
// exactly one internal step of dt), solver.iterations (default 10), warm
// starting unless solver.warm_starting is false, no sleeping
// (DISABLE_DEACTIVATION on every body), restitution of a pair = min, friction
// of a pair = sqrt(a * b). Bullet's own defaults otherwise (split impulse,
// collision margins, no continuous collision unless a body says
// "bullet": true). The broad phase is btDbvtBroadphase and the solver
// btSequentialImpulseConstraintSolver.
//
// Convex colliders ("convex", inline or a shape of the top-level "shapes",
// which the entities naming it share) are btConvexHullShape over the same
// points; a body with "density" gets density * its collider's volume as its
// mass. Hull pairs collide by Bullet's default, GJK and EPA with its
// persistent manifold; with --polyhedral the hulls get Bullet's polyhedral
// features and collide by its separating-axis test and face clipping.
//
// Static and kinematic meshes (a "mesh" collider, inline or an OBJ file) and
// heightfields (a "heightfield" collider: each cell two triangles split along
// the diagonal from (i, j) to (i + 1, j + 1), as voltex-sim splits it) become
// btBvhTriangleMeshShape over the same triangles (Bullet's quantized BVH,
// its defaults otherwise: no internal-edge correction, so a body rolling
// over a triangle's inner edge may bump, which voltex-sim's adjacency does
// not let happen).
//
// Output, on stdout, the lines of voltex-sim --stats with "peer_bullet: " in
// front (see src/cli/stats.h); errors go to stderr as "peer_bullet: ..." and
// exit 2.
//
// Ray mode (--rays R): builds the scene as above, runs N steps (default 120,
// as bench/bench_rays), then casts the R rays of bench_rays (the same
// generator, see make_rays) with btCollisionWorld::rayTest and a
// ClosestRayResultCallback, K times (default 7), timing only the casting
// (wall and the thread's CPU time), and prints the lines of bench_rays.
// --gjk sets the callback's kF_UseGjkConvexCastRaytest flag:
// btGjkConvexCast for convex shapes instead of Bullet's default,
// btSubsimplexConvexCast. --dump writes "ray entity distance" per ray (entity -1 for a miss) for
// scripts/compare_rays.py.
#include "bench_rng.h"
#include <btBulletDynamicsCommon.h>
#include <BulletCollision/CollisionDispatch/btManifoldResult.h>
#include <BulletCollision/CollisionShapes/btEmptyShape.h>
#include <BulletCollision/CollisionShapes/btTriangleIndexVertexArray.h>
#include <LinearMath/btConvexHullComputer.h>
#include <BulletCollision/NarrowPhaseCollision/btRaycastCallback.h>
#include <cjson/cJSON.h>
#include <sys/resource.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <unordered_map>
#include <vector>

namespace {

const char *const prog = "peer_bullet";

[[noreturn]] void fail(const std::string &message)
{
    std::fprintf(stderr, "%s: %s\n", prog, message.c_str());
    std::exit(2);
}

double now_seconds()
{
    timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
}

// ---- pair rules of voltex-sim (shared interface: rigidbody table) ----

btScalar combined_restitution(const btCollisionObject *a, const btCollisionObject *b)
{
    return std::min(a->getRestitution(), b->getRestitution());
}

btScalar combined_friction(const btCollisionObject *a, const btCollisionObject *b)
{
    return std::sqrt(a->getFriction() * b->getFriction());
}

// ---- scene reading ----

// A triangle mesh: x, y, z per vertex and three vertex indices per triangle.
struct MeshData {
    std::vector<btScalar> vertices;
    std::vector<int> indices;
    size_t vertex_count() const { return vertices.size() / 3; }
};

struct Body {
    std::string name;
    bool has_collider = false;
    std::string shape = "none";
    double radius = 0.5, half_height = 0.5;
    btVector3 half_extents{0.5f, 0.5f, 0.5f};
    std::shared_ptr<MeshData> mesh; // mesh and heightfield
    std::shared_ptr<std::vector<btVector3>> hull; // convex: its points (shared by the entities naming one shape)
    double density = 0.0;           // > 0: the mass is density * the collider's volume
    bool sensor = false;
    bool has_rigidbody = false;
    std::string type; // dynamic, static, kinematic
    double mass = 1.0, restitution = 0.3, friction = 0.5, gravity_scale = 1.0;
    double linear_damping = 0.0, angular_damping = 0.0;
    bool lock_rotation = false, ccd = false;
    btVector3 position{0, 0, 0}, velocity{0, 0, 0}, angular_velocity{0, 0, 0};
    btQuaternion rotation = btQuaternion::getIdentity();
};

// A ball joint (the only joint type the peer builds): entity indices, -1
// for the world, and the anchor at load.
struct BallJoint {
    int a = -1, b = -1;
    btVector3 anchor{0, 0, 0};
};

struct Scene {
    std::string name;
    btVector3 gravity{0.0f, -9.81f, 0.0f};
    double dt = 1.0 / 60.0;
    long long steps = 600;
    int iterations = 10, substeps = 1;
    bool warm_starting = true;
    std::vector<Body> bodies;
    std::vector<BallJoint> joints;
};

class Reader {
  public:
    explicit Reader(std::string path) : path_(std::move(path)) {}

    [[noreturn]] void bad(const std::string &where, const std::string &what) const
    {
        fail(path_ + ": " + where + ": " + what);
    }

    double number(const cJSON *item, const std::string &where) const
    {
        if (!cJSON_IsNumber(item) || !std::isfinite(item->valuedouble)) bad(where, "expected a number");
        return item->valuedouble;
    }

    bool boolean(const cJSON *item, const std::string &where) const
    {
        if (!cJSON_IsBool(item)) bad(where, "expected true or false");
        return cJSON_IsTrue(item);
    }

    btVector3 vec3(const cJSON *item, const std::string &where) const
    {
        if (!cJSON_IsArray(item) || cJSON_GetArraySize(item) != 3) bad(where, "expected [x, y, z]");
        btScalar v[3];
        for (int i = 0; i < 3; i++)
            v[i] = static_cast<btScalar>(number(cJSON_GetArrayItem(item, i), where + "[" + std::to_string(i) + "]"));
        return btVector3(v[0], v[1], v[2]);
    }

    std::string string(const cJSON *item, const std::string &where) const
    {
        if (!cJSON_IsString(item)) bad(where, "expected a string");
        return item->valuestring;
    }

    // A path of the scene relative to the scene file's folder (or absolute).
    std::string beside(const std::string &file) const
    {
        if (!file.empty() && file[0] == '/') return file;
        size_t slash = path_.find_last_of('/');
        return slash == std::string::npos ? file : path_.substr(0, slash + 1) + file;
    }

  private:
    std::string path_;
};

// Degrees about fixed X, then Y, then Z: q = qz * qy * qx (shared interface).
btQuaternion rotation_from_degrees(const btVector3 &deg)
{
    const btScalar to_rad = static_cast<btScalar>(3.14159265358979323846 / 180.0);
    btQuaternion qx(btVector3(1, 0, 0), deg.x() * to_rad);
    btQuaternion qy(btVector3(0, 1, 0), deg.y() * to_rad);
    btQuaternion qz(btVector3(0, 0, 1), deg.z() * to_rad);
    return qz * qy * qx;
}

void read_transform(const Reader &r, const cJSON *t, const std::string &where, Body &b)
{
    if (const cJSON *p = cJSON_GetObjectItemCaseSensitive(t, "position")) b.position = r.vec3(p, where + ".position");
    const cJSON *q = cJSON_GetObjectItemCaseSensitive(t, "rotation");
    const cJSON *deg = cJSON_GetObjectItemCaseSensitive(t, "rotation_deg");
    if (q && deg) r.bad(where, "rotation and rotation_deg together");
    if (q) {
        if (!cJSON_IsArray(q) || cJSON_GetArraySize(q) != 4) r.bad(where + ".rotation", "expected [x, y, z, w]");
        btScalar v[4];
        for (int i = 0; i < 4; i++)
            v[i] = static_cast<btScalar>(r.number(cJSON_GetArrayItem(q, i), where + ".rotation"));
        btQuaternion quat(v[0], v[1], v[2], v[3]);
        if (!(quat.length() > 0)) r.bad(where + ".rotation", "must not be zero");
        b.rotation = quat.normalized();
    }
    if (deg) b.rotation = rotation_from_degrees(r.vec3(deg, where + ".rotation_deg"));
}

// An OBJ file's "v" and "f" lines, as voltex-sim reads them: a corner is v,
// v/vt, v//vn or v/vt/vn, counted from 1, or back from the last vertex read
// when negative; a polygon is fanned from its first corner.
std::shared_ptr<MeshData> read_obj(const std::string &path)
{
    std::ifstream in(path);
    if (!in) fail(path + ": cannot read: " + std::strerror(errno));
    auto mesh = std::make_shared<MeshData>();
    std::string line;
    long number = 0;
    std::vector<int> corners;
    while (std::getline(in, line)) {
        number++;
        std::istringstream words(line);
        std::string word;
        if (!(words >> word)) continue;
        std::string where = path + ":" + std::to_string(number);
        if (word == "v") {
            double x, y, z;
            if (!(words >> x >> y >> z)) fail(where + ": v: needs x, y and z");
            mesh->vertices.insert(mesh->vertices.end(),
                                  {static_cast<btScalar>(x), static_cast<btScalar>(y), static_cast<btScalar>(z)});
        } else if (word == "f") {
            corners.clear();
            long count = static_cast<long>(mesh->vertex_count());
            while (words >> word) {
                char *end;
                long v = std::strtol(word.c_str(), &end, 10);
                if (end == word.c_str() || (*end != '\0' && *end != '/')) fail(where + ": f: bad corner '" + word + "'");
                long index = v < 0 ? count + v : v - 1;
                if (v == 0 || index < 0 || index >= count) fail(where + ": f: vertex index out of range");
                corners.push_back(static_cast<int>(index));
            }
            if (corners.size() < 3) fail(where + ": f: needs at least 3 vertices");
            for (size_t k = 1; k + 1 < corners.size(); k++)
                mesh->indices.insert(mesh->indices.end(), {corners[0], corners[k], corners[k + 1]});
        }
    }
    if (mesh->indices.empty()) fail(path + ": no faces (\"f\" lines)");
    return mesh;
}

std::shared_ptr<MeshData> read_inline_mesh(const Reader &r, const cJSON *c, const std::string &where)
{
    auto mesh = std::make_shared<MeshData>();
    const cJSON *vertices = cJSON_GetObjectItemCaseSensitive(c, "vertices");
    const cJSON *triangles = cJSON_GetObjectItemCaseSensitive(c, "triangles");
    if (!cJSON_IsArray(vertices) || !cJSON_IsArray(triangles))
        r.bad(where, "a mesh needs \"vertices\" and \"triangles\" (or \"obj\")");
    int k = 0;
    for (const cJSON *v = vertices->child; v; v = v->next, k++) {
        btVector3 p = r.vec3(v, where + ".vertices[" + std::to_string(k) + "]");
        mesh->vertices.insert(mesh->vertices.end(), {p.x(), p.y(), p.z()});
    }
    k = 0;
    for (const cJSON *t = triangles->child; t; t = t->next, k++) {
        std::string at = where + ".triangles[" + std::to_string(k) + "]";
        if (!cJSON_IsArray(t) || cJSON_GetArraySize(t) != 3) r.bad(at, "must be [i, j, k]");
        for (const cJSON *i = t->child; i; i = i->next) {
            double index = r.number(i, at);
            if (index < 0 || index >= static_cast<double>(mesh->vertex_count()) || index != std::floor(index))
                r.bad(at, "vertex index out of range");
            mesh->indices.push_back(static_cast<int>(index));
        }
    }
    return mesh;
}

// Height heights[j][i] at (i dx, h, j dz); each cell split along the
// diagonal from (i, j) to (i + 1, j + 1).
std::shared_ptr<MeshData> read_heightfield(const Reader &r, const cJSON *c, const std::string &where)
{
    auto mesh = std::make_shared<MeshData>();
    const cJSON *heights = cJSON_GetObjectItemCaseSensitive(c, "heights");
    const cJSON *spacing = cJSON_GetObjectItemCaseSensitive(c, "spacing");
    if (!cJSON_IsArray(spacing) || cJSON_GetArraySize(spacing) != 2) r.bad(where + ".spacing", "expected [dx, dz]");
    double dx = r.number(cJSON_GetArrayItem(spacing, 0), where + ".spacing[0]");
    double dz = r.number(cJSON_GetArrayItem(spacing, 1), where + ".spacing[1]");
    if (!cJSON_IsArray(heights) || cJSON_GetArraySize(heights) < 2) r.bad(where + ".heights", "expected 2 or more rows");
    int rows = cJSON_GetArraySize(heights), columns = -1, j = 0;
    for (const cJSON *row = heights->child; row; row = row->next, j++) {
        std::string at = where + ".heights[" + std::to_string(j) + "]";
        if (!cJSON_IsArray(row) || (columns >= 0 && cJSON_GetArraySize(row) != columns) || cJSON_GetArraySize(row) < 2)
            r.bad(at, "expected a row of 2 or more heights, every row as long");
        columns = cJSON_GetArraySize(row);
        int i = 0;
        for (const cJSON *h = row->child; h; h = h->next, i++)
            mesh->vertices.insert(mesh->vertices.end(), {static_cast<btScalar>(i * dx),
                                                         static_cast<btScalar>(r.number(h, at)),
                                                         static_cast<btScalar>(j * dz)});
    }
    for (int jj = 0; jj + 1 < rows; jj++)
        for (int i = 0; i + 1 < columns; i++) {
            int a = jj * columns + i, b = a + 1, c2 = a + columns, d = c2 + 1;
            mesh->indices.insert(mesh->indices.end(), {a, d, b, a, c2, d});
        }
    return mesh;
}

void read_collider(const Reader &r, const cJSON *c, const std::string &where, Body &b)
{
    b.has_collider = true;
    b.shape = r.string(cJSON_GetObjectItemCaseSensitive(c, "type"), where + ".type");
    if (b.shape == "sphere") {
        b.radius = r.number(cJSON_GetObjectItemCaseSensitive(c, "radius"), where + ".radius");
    } else if (b.shape == "box") {
        b.half_extents = r.vec3(cJSON_GetObjectItemCaseSensitive(c, "half_extents"), where + ".half_extents");
    } else if (b.shape == "capsule") {
        b.radius = r.number(cJSON_GetObjectItemCaseSensitive(c, "radius"), where + ".radius");
        b.half_height = r.number(cJSON_GetObjectItemCaseSensitive(c, "half_height"), where + ".half_height");
    } else if (b.shape == "mesh") {
        if (const cJSON *obj = cJSON_GetObjectItemCaseSensitive(c, "obj"))
            b.mesh = read_obj(r.beside(r.string(obj, where + ".obj")));
        else
            b.mesh = read_inline_mesh(r, c, where);
    } else if (b.shape == "heightfield") {
        b.mesh = read_heightfield(r, c, where);
    } else if (b.shape == "convex") {
        const cJSON *points = cJSON_GetObjectItemCaseSensitive(c, "points");
        if (!cJSON_IsArray(points) || cJSON_GetArraySize(points) < 4) r.bad(where + ".points", "expected 4 or more points");
        b.hull = std::make_shared<std::vector<btVector3>>();
        int k = 0;
        for (const cJSON *p = points->child; p; p = p->next, k++)
            b.hull->push_back(r.vec3(p, where + ".points[" + std::to_string(k) + "]"));
    } else {
        r.bad(where + ".type", "unknown collider type '" + b.shape + "'");
    }
    if (const cJSON *s = cJSON_GetObjectItemCaseSensitive(c, "sensor")) b.sensor = r.boolean(s, where + ".sensor");
}

void read_rigidbody(const Reader &r, const cJSON *rb, const std::string &where, Body &b)
{
    b.has_rigidbody = true;
    auto num = [&](const char *key, double &out) {
        if (const cJSON *item = cJSON_GetObjectItemCaseSensitive(rb, key)) out = r.number(item, where + "." + key);
    };
    auto flag = [&](const char *key, bool &out) {
        if (const cJSON *item = cJSON_GetObjectItemCaseSensitive(rb, key)) out = r.boolean(item, where + "." + key);
    };
    num("mass", b.mass);
    num("density", b.density);
    num("restitution", b.restitution);
    num("friction", b.friction);
    num("gravity_scale", b.gravity_scale);
    num("linear_damping", b.linear_damping);
    num("angular_damping", b.angular_damping);
    flag("lock_rotation", b.lock_rotation);
    flag("bullet", b.ccd);
    if (const cJSON *v = cJSON_GetObjectItemCaseSensitive(rb, "velocity")) b.velocity = r.vec3(v, where + ".velocity");
    if (const cJSON *w = cJSON_GetObjectItemCaseSensitive(rb, "angular_velocity"))
        b.angular_velocity = r.vec3(w, where + ".angular_velocity");
    if (const cJSON *t = cJSON_GetObjectItemCaseSensitive(rb, "type")) {
        b.type = r.string(t, where + ".type");
        if (b.type != "dynamic" && b.type != "static" && b.type != "kinematic")
            r.bad(where + ".type", "expected dynamic, static or kinematic");
    } else {
        b.type = b.mass > 0 ? "dynamic" : "static";
    }
    if (b.type == "dynamic" && !(b.mass > 0)) b.type = "static"; // mass 0 means static
}

Scene read_scene(const std::string &path)
{
    FILE *f = std::fopen(path.c_str(), "rb");
    if (!f) fail(path + ": cannot open: " + std::strerror(errno));
    std::string text;
    char chunk[65536];
    size_t got;
    while ((got = std::fread(chunk, 1, sizeof chunk, f)) > 0) text.append(chunk, got);
    std::fclose(f);
    std::unique_ptr<cJSON, void (*)(cJSON *)> root(cJSON_ParseWithLength(text.data(), text.size()), cJSON_Delete);
    if (!root) fail(path + ": not valid JSON");

    Reader r(path);
    Scene scene;
    const cJSON *doc = root.get();
    if (const cJSON *n = cJSON_GetObjectItemCaseSensitive(doc, "name")) scene.name = r.string(n, "name");
    if (const cJSON *g = cJSON_GetObjectItemCaseSensitive(doc, "gravity")) scene.gravity = r.vec3(g, "gravity");
    if (const cJSON *d = cJSON_GetObjectItemCaseSensitive(doc, "dt")) scene.dt = r.number(d, "dt");
    if (const cJSON *s = cJSON_GetObjectItemCaseSensitive(doc, "steps"))
        scene.steps = static_cast<long long>(r.number(s, "steps"));
    if (!(scene.dt > 0)) r.bad("dt", "must be > 0");
    if (scene.steps < 0) r.bad("steps", "must be >= 0");
    if (const cJSON *solver = cJSON_GetObjectItemCaseSensitive(doc, "solver")) {
        if (const cJSON *it = cJSON_GetObjectItemCaseSensitive(solver, "iterations"))
            scene.iterations = static_cast<int>(r.number(it, "solver.iterations"));
        if (const cJSON *sub = cJSON_GetObjectItemCaseSensitive(solver, "substeps"))
            scene.substeps = static_cast<int>(r.number(sub, "solver.substeps"));
        if (const cJSON *ws = cJSON_GetObjectItemCaseSensitive(solver, "warm_starting"))
            scene.warm_starting = r.boolean(ws, "solver.warm_starting");
        // sleeping and threads: the comparison runs without sleeping, on one thread.
    }
    if (scene.iterations < 1) r.bad("solver.iterations", "must be >= 1");
    if (scene.substeps < 1) r.bad("solver.substeps", "must be >= 1");

    const cJSON *entities = cJSON_GetObjectItemCaseSensitive(doc, "entities");
    if (!cJSON_IsArray(entities)) r.bad("entities", "expected an array");
    int index = 0;
    std::unordered_map<std::string, Body> shared; // the named shapes read so far
    for (const cJSON *e = entities->child; e; e = e->next, index++) {
        std::string where = "entities[" + std::to_string(index) + "]";
        Body b;
        b.name = "entity" + std::to_string(index);
        if (const cJSON *n = cJSON_GetObjectItemCaseSensitive(e, "name")) b.name = r.string(n, where + ".name");
        if (const cJSON *t = cJSON_GetObjectItemCaseSensitive(e, "transform")) read_transform(r, t, where + ".transform", b);
        if (const cJSON *c = cJSON_GetObjectItemCaseSensitive(e, "collider")) {
            if (cJSON_IsString(c)) { // a shape of the top-level "shapes", read once
                std::string name = c->valuestring;
                auto known = shared.find(name);
                if (known == shared.end()) {
                    const cJSON *shape = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(doc, "shapes"),
                                                                          name.c_str());
                    if (!cJSON_IsObject(shape)) r.bad(where + ".collider", "no shape named '" + name + "'");
                    Body proto;
                    read_collider(r, shape, "shapes." + name, proto);
                    known = shared.emplace(name, proto).first;
                }
                const Body &proto = known->second;
                b.has_collider = true;
                b.shape = proto.shape;
                b.radius = proto.radius;
                b.half_height = proto.half_height;
                b.half_extents = proto.half_extents;
                b.mesh = proto.mesh;
                b.hull = proto.hull;
                b.sensor = proto.sensor;
            } else {
                read_collider(r, c, where + ".collider", b);
            }
        }
        if (const cJSON *rb = cJSON_GetObjectItemCaseSensitive(e, "rigidbody"))
            read_rigidbody(r, rb, where + ".rigidbody", b);
        else if (b.has_collider)
            b.type = "static"; // a collider without a rigid body stops others, as a floor does
        if (b.mesh && b.type == "dynamic") r.bad(where + ".collider", "a mesh or heightfield needs a static or kinematic body");
        scene.bodies.push_back(b);
    }
    if (const cJSON *joints = cJSON_GetObjectItemCaseSensitive(doc, "joints")) {
        if (!cJSON_IsArray(joints)) r.bad("joints", "expected an array");
        int k = 0;
        for (const cJSON *j = joints->child; j; j = j->next, k++) {
            std::string where = "joints[" + std::to_string(k) + "]";
            if (r.string(cJSON_GetObjectItemCaseSensitive(j, "type"), where + ".type") != "ball")
                r.bad(where + ".type", "the Bullet peer builds ball joints only");
            BallJoint bj;
            int *side[2] = {&bj.a, &bj.b};
            const char *keys[2] = {"a", "b"};
            for (int s = 0; s < 2; s++) {
                const cJSON *name = cJSON_GetObjectItemCaseSensitive(j, keys[s]);
                if (!name || cJSON_IsNull(name)) continue;
                std::string n = r.string(name, where + "." + keys[s]);
                for (size_t i = 0; i < scene.bodies.size(); i++)
                    if (scene.bodies[i].name == n) *side[s] = static_cast<int>(i);
                if (*side[s] < 0) r.bad(where + "." + keys[s], "no entity named '" + n + "'");
            }
            // the anchor defaults to B's origin, A's when B is the world
            int owner = bj.b >= 0 ? bj.b : bj.a;
            bj.anchor = owner >= 0 ? scene.bodies[static_cast<size_t>(owner)].position : btVector3(0, 0, 0);
            if (const cJSON *an = cJSON_GetObjectItemCaseSensitive(j, "anchor")) bj.anchor = r.vec3(an, where + ".anchor");
            scene.joints.push_back(bj);
        }
    }
    if (scene.name.empty()) {
        std::string base = path.substr(path.find_last_of('/') == std::string::npos ? 0 : path.find_last_of('/') + 1);
        if (base.size() > 5 && base.compare(base.size() - 5, 5, ".json") == 0) base.resize(base.size() - 5);
        scene.name = base;
    }
    return scene;
}

// ---- the Bullet world ----

struct World {
    btDefaultCollisionConfiguration configuration;
    btCollisionDispatcher dispatcher{&configuration};
    btDbvtBroadphase broadphase;
    btSequentialImpulseConstraintSolver solver;
    btDiscreteDynamicsWorld world{&dispatcher, &broadphase, &solver, &configuration};
    // the triangles of the mesh shapes (which keep pointers into them): freed after the shapes
    std::vector<std::shared_ptr<MeshData>> meshes;
    std::vector<std::unique_ptr<btTriangleIndexVertexArray>> mesh_arrays;
    std::vector<std::unique_ptr<btCollisionShape>> shapes;
    // one btConvexHullShape per named convex shape, shared by its entities
    std::unordered_map<const std::vector<btVector3> *, btCollisionShape *> hull_shapes;
    bool polyhedral = false; // --polyhedral: hulls collide by Bullet's SAT and clipping, not GJK/EPA
    std::vector<std::unique_ptr<btDefaultMotionState>> motion_states;
    std::vector<std::unique_ptr<btRigidBody>> rigid_bodies;
    std::vector<btRigidBody *> by_entity;   // nullptr: the entity has neither collider nor rigid body
    std::vector<btRigidBody *> kinematic;
    std::vector<std::unique_ptr<btPoint2PointConstraint>> joints;

    ~World()
    {
        for (auto &j : joints) world.removeConstraint(j.get());
        for (auto &b : rigid_bodies) world.removeRigidBody(b.get());
    }
};

// The anchor in body b's frame (its pose at load).
btVector3 pivot_in(const btRigidBody *b, const btVector3 &anchor) { return b->getWorldTransform().inverse() * anchor; }

// Ball joints as btPoint2PointConstraint; the joined bodies do not collide
// (voltex's collide_connected false).
void build_joints(const Scene &scene, World &w)
{
    for (const BallJoint &j : scene.joints) {
        btRigidBody *a = j.a >= 0 ? w.by_entity[static_cast<size_t>(j.a)] : nullptr;
        btRigidBody *b = j.b >= 0 ? w.by_entity[static_cast<size_t>(j.b)] : nullptr;
        std::unique_ptr<btPoint2PointConstraint> c;
        if (a && b)
            c = std::make_unique<btPoint2PointConstraint>(*a, *b, pivot_in(a, j.anchor), pivot_in(b, j.anchor));
        else
            c = std::make_unique<btPoint2PointConstraint>(a ? *a : *b, pivot_in(a ? a : b, j.anchor));
        w.world.addConstraint(c.get(), true);
        w.joints.push_back(std::move(c));
    }
}

// The widest gap of a joint: its two pivots apart in the world (m).
double widest_joint_gap(const World &w)
{
    double widest = 0.0;
    for (const auto &c : w.joints) {
        const btRigidBody &a = c->getRigidBodyA(), &b = c->getRigidBodyB();
        btVector3 pa = a.getWorldTransform() * c->getPivotInA();
        // a joint to the world keeps its world point as B's pivot (B is Bullet's fixed body)
        btVector3 pb = &b == &btTypedConstraint::getFixedBody() ? c->getPivotInB() : b.getWorldTransform() * c->getPivotInB();
        widest = std::max(widest, static_cast<double>((pa - pb).length()));
    }
    return widest;
}

// The volume of the convex hull of points (its faces fanned into
// tetrahedra from the origin).
double hull_volume(const std::vector<btVector3> &points)
{
    btConvexHullComputer hull;
    hull.compute(&points[0].x(), static_cast<int>(sizeof(btVector3)), static_cast<int>(points.size()), 0, 0);
    double volume = 0.0;
    for (int f = 0; f < hull.faces.size(); f++) {
        const btConvexHullComputer::Edge *first = &hull.edges[hull.faces[f]];
        const btVector3 &a = hull.vertices[first->getSourceVertex()];
        for (const btConvexHullComputer::Edge *e = first->getNextEdgeOfFace();
             e->getTargetVertex() != first->getSourceVertex(); e = e->getNextEdgeOfFace()) {
            const btVector3 &p = hull.vertices[e->getSourceVertex()], &q = hull.vertices[e->getTargetVertex()];
            volume += static_cast<double>(a.dot(p.cross(q))) / 6.0;
        }
    }
    return volume;
}

double collider_volume(const Body &b)
{
    const double pi = 3.14159265358979323846;
    if (b.shape == "sphere") return 4.0 / 3.0 * pi * b.radius * b.radius * b.radius;
    if (b.shape == "box")
        return 8.0 * static_cast<double>(b.half_extents.x() * b.half_extents.y() * b.half_extents.z());
    if (b.shape == "capsule") return pi * b.radius * b.radius * (2.0 * b.half_height + 4.0 / 3.0 * b.radius);
    if (b.hull) return hull_volume(*b.hull);
    return 0.0;
}

std::unique_ptr<btCollisionShape> make_shape(const Body &b, World &w)
{
    if (b.hull) {
        auto shape = std::make_unique<btConvexHullShape>(&(*b.hull)[0].x(), static_cast<int>(b.hull->size()),
                                                         static_cast<int>(sizeof(btVector3)));
        shape->optimizeConvexHull();
        if (w.polyhedral) shape->initializePolyhedralFeatures();
        return shape;
    }
    if (b.mesh) {
        MeshData &m = *b.mesh;
        auto array = std::make_unique<btTriangleIndexVertexArray>(
            static_cast<int>(m.indices.size() / 3), m.indices.data(), static_cast<int>(3 * sizeof(int)),
            static_cast<int>(m.vertex_count()), m.vertices.data(), static_cast<int>(3 * sizeof(btScalar)));
        auto shape = std::make_unique<btBvhTriangleMeshShape>(array.get(), true, true); // quantized BVH, built now
        w.meshes.push_back(b.mesh);
        w.mesh_arrays.push_back(std::move(array));
        return shape;
    }
    if (b.shape == "sphere") return std::make_unique<btSphereShape>(static_cast<btScalar>(b.radius));
    if (b.shape == "box") return std::make_unique<btBoxShape>(b.half_extents);
    if (b.shape == "capsule") // axis Y; Bullet's height is the segment: 2 * half_height
        return std::make_unique<btCapsuleShape>(static_cast<btScalar>(b.radius),
                                                static_cast<btScalar>(2.0 * b.half_height));
    return std::make_unique<btEmptyShape>();
}

void build_world(const Scene &scene, World &w)
{
    w.world.setGravity(scene.gravity);
    btContactSolverInfo &info = w.world.getSolverInfo();
    info.m_numIterations = scene.iterations;
    if (scene.warm_starting)
        info.m_solverMode |= SOLVER_USE_WARMSTARTING;
    else
        info.m_solverMode &= ~SOLVER_USE_WARMSTARTING;
    gCalculateCombinedRestitutionCallback = combined_restitution;
    gCalculateCombinedFrictionCallback = combined_friction;

    for (const Body &b : scene.bodies) {
        if (!b.has_collider && !b.has_rigidbody) {
            w.by_entity.push_back(nullptr);
            continue;
        }
        btCollisionShape *shape = b.hull ? w.hull_shapes[b.hull.get()] : nullptr;
        if (!shape) {
            w.shapes.push_back(make_shape(b, w));
            shape = w.shapes.back().get();
            if (b.hull) w.hull_shapes[b.hull.get()] = shape;
        }
        btTransform start(b.rotation, b.position);
        auto motion = std::make_unique<btDefaultMotionState>(start);
        bool dynamic = b.type == "dynamic";
        double mass_kg = b.density > 0.0 && b.has_collider ? b.density * collider_volume(b) : b.mass;
        btScalar mass = dynamic ? static_cast<btScalar>(mass_kg) : btScalar(0);
        btVector3 inertia(0, 0, 0);
        if (dynamic) {
            if (b.has_collider && !b.mesh)
                shape->calculateLocalInertia(mass, inertia);
            else
                inertia = btVector3(mass, mass, mass); // no shape: a unit-sized body
        }
        btRigidBody::btRigidBodyConstructionInfo ci(mass, motion.get(), shape, inertia);
        ci.m_restitution = static_cast<btScalar>(b.restitution);
        ci.m_friction = static_cast<btScalar>(b.friction);
        // voltex damping is a rate c (1/s): v' = v exp(-c t). Bullet keeps
        // (1 - d)^t of the velocity per step, so d = 1 - exp(-c).
        ci.m_linearDamping = static_cast<btScalar>(1.0 - std::exp(-b.linear_damping));
        ci.m_angularDamping = static_cast<btScalar>(1.0 - std::exp(-b.angular_damping));
        auto body = std::make_unique<btRigidBody>(ci);
        int flags = body->getCollisionFlags();
        if (b.type == "kinematic") flags |= btCollisionObject::CF_KINEMATIC_OBJECT;
        if (b.sensor || !b.has_collider) flags |= btCollisionObject::CF_NO_CONTACT_RESPONSE;
        body->setCollisionFlags(flags);
        body->setActivationState(DISABLE_DEACTIVATION);
        if (dynamic || b.type == "kinematic") {
            body->setLinearVelocity(b.velocity);
            body->setAngularVelocity(b.angular_velocity);
        }
        if (b.lock_rotation) body->setAngularFactor(0);
        if (b.ccd && dynamic && b.has_collider) {
            btVector3 centre;
            btScalar radius;
            shape->getBoundingSphere(centre, radius);
            body->setCcdMotionThreshold(radius * 0.5f);
            body->setCcdSweptSphereRadius(radius * 0.5f);
        }
        w.world.addRigidBody(body.get());
        if (dynamic && b.gravity_scale != 1.0) {
            body->setFlags(body->getFlags() | BT_DISABLE_WORLD_GRAVITY);
            body->setGravity(scene.gravity * static_cast<btScalar>(b.gravity_scale));
        }
        if (b.type == "kinematic") w.kinematic.push_back(body.get());
        w.by_entity.push_back(body.get());
        w.motion_states.push_back(std::move(motion));
        w.rigid_bodies.push_back(std::move(body));
    }
}

// Kinematic bodies move at their own velocity: Bullet reads their next pose
// from the motion state and derives the velocity it uses from it.
void move_kinematic(World &w, btScalar dt)
{
    for (btRigidBody *b : w.kinematic) {
        btTransform current;
        b->getMotionState()->getWorldTransform(current);
        btTransform next;
        btTransformUtil::integrateTransform(current, b->getLinearVelocity(), b->getAngularVelocity(), dt, next);
        b->getMotionState()->setWorldTransform(next);
    }
}

// Contact points Bullet's solver saw in the last step (every manifold point).
long long contact_points(World &w)
{
    long long n = 0;
    int manifolds = w.dispatcher.getNumManifolds();
    for (int i = 0; i < manifolds; i++) n += w.dispatcher.getManifoldByIndexInternal(i)->getNumContacts();
    return n;
}

// Nearest-rank percentile of sorted samples (p in (0, 1]); the median is the
// middle one, or the mean of the two middle ones (as src/cli/stats.c).
double percentile(const std::vector<double> &sorted, double p)
{
    if (sorted.empty()) return 0.0;
    size_t rank = static_cast<size_t>(std::ceil(p * static_cast<double>(sorted.size())));
    return sorted[std::max<size_t>(rank, 1) - 1];
}

double median(const std::vector<double> &sorted)
{
    size_t n = sorted.size();
    if (n == 0) return 0.0;
    return n % 2 ? sorted[n / 2] : 0.5 * (sorted[n / 2 - 1] + sorted[n / 2]);
}

// ---- ray mode: the rays of bench/bench_rays.c, cast in Bullet ----

const btScalar ray_max_distance = 100.0f;

struct Ray {
    btVector3 from, to;
};

std::vector<Ray> make_rays(size_t count)
{
    std::vector<Ray> rays(count);
    vx_bench_rng r = {12345u}; // bench_rng.h: the rays of bench_rays.c, bit for bit
    for (Ray &ray : rays) {
        float ox = vx_bench_rng_range(&r, -20.0f, 20.0f);
        float oy = vx_bench_rng_range(&r, 19.0f, 30.0f);
        float oz = vx_bench_rng_range(&r, -20.0f, 20.0f);
        float tx = vx_bench_rng_range(&r, -9.0f, 9.0f);
        float ty = vx_bench_rng_range(&r, 0.0f, 17.0f);
        float tz = vx_bench_rng_range(&r, -9.0f, 9.0f);
        float dx = tx - ox, dy = ty - oy, dz = tz - oz;
        float inv = 1.0f / std::sqrt(dx * dx + dy * dy + dz * dz);
        ray.from = btVector3(ox, oy, oz);
        ray.to = ray.from + btVector3(dx * inv, dy * inv, dz * inv) * ray_max_distance;
    }
    return rays;
}

double clock_seconds(clockid_t clock)
{
    timespec ts;
    clock_gettime(clock, &ts);
    return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
}

struct RayHit {
    long entity = -1; // scene entity index, -1: no hit
    double distance = 0.0;
};

int run_rays(const Scene &scene, World &w, long long steps, size_t count, int repeat, bool gjk,
             const std::string &dump)
{
    const btScalar sub_dt = static_cast<btScalar>(scene.dt / scene.substeps);
    for (long long k = 0; k < steps; k++)
        for (int s = 0; s < scene.substeps; s++) {
            move_kinematic(w, sub_dt);
            w.world.stepSimulation(sub_dt, 0);
        }
    std::unordered_map<const btCollisionObject *, long> entity_of;
    for (size_t i = 0; i < w.by_entity.size(); i++)
        if (w.by_entity[i]) entity_of[w.by_entity[i]] = static_cast<long>(i);

    std::vector<Ray> rays = make_rays(count);
    std::vector<RayHit> hits(count);
    std::vector<double> wall_rate, cpu_rate;
    for (int rep = 0; rep < repeat; rep++) {
        double w0 = clock_seconds(CLOCK_MONOTONIC), c0 = clock_seconds(CLOCK_THREAD_CPUTIME_ID);
        for (size_t i = 0; i < count; i++) {
            btCollisionWorld::ClosestRayResultCallback callback(rays[i].from, rays[i].to);
            if (gjk) callback.m_flags |= btTriangleRaycastCallback::kF_UseGjkConvexCastRaytest;
            w.world.rayTest(rays[i].from, rays[i].to, callback);
            if (callback.hasHit()) {
                hits[i].entity = entity_of.at(callback.m_collisionObject);
                hits[i].distance = static_cast<double>(callback.m_closestHitFraction) *
                                   static_cast<double>((rays[i].to - rays[i].from).length());
            } else {
                hits[i] = RayHit();
            }
        }
        double c1 = clock_seconds(CLOCK_THREAD_CPUTIME_ID), w1 = clock_seconds(CLOCK_MONOTONIC);
        wall_rate.push_back(static_cast<double>(count) / (w1 - w0));
        cpu_rate.push_back(static_cast<double>(count) / (c1 - c0));
    }

    size_t hit_count = 0;
    double distance_sum = 0.0;
    for (const RayHit &h : hits)
        if (h.entity >= 0) {
            hit_count++;
            distance_sum += h.distance;
        }
    std::printf("%s: scene %s, bodies %zu, steps %lld, rays %zu, max distance %g m, repeats %d\n", prog,
                scene.name.c_str(), scene.bodies.size(), steps, count, static_cast<double>(ray_max_distance), repeat);
    std::printf("%s: hits %zu (%.2f %%), mean hit distance %.6f m\n", prog, hit_count,
                100.0 * static_cast<double>(hit_count) / static_cast<double>(count),
                hit_count ? distance_sum / static_cast<double>(hit_count) : 0.0);
    std::printf("%s: rays/s wall:", prog);
    for (double r : wall_rate) std::printf(" %.0f", r);
    std::printf("\n%s: rays/s cpu:", prog);
    for (double r : cpu_rate) std::printf(" %.0f", r);
    std::sort(wall_rate.begin(), wall_rate.end());
    std::sort(cpu_rate.begin(), cpu_rate.end());
    std::printf("\n%s: median rays/s: wall %.0f, cpu %.0f\n", prog, median(wall_rate), median(cpu_rate));

    if (!dump.empty()) {
        FILE *f = std::fopen(dump.c_str(), "w");
        if (!f) fail(dump + ": cannot write: " + std::strerror(errno));
        for (size_t i = 0; i < count; i++)
            std::fprintf(f, "%zu %ld %.6f\n", i, hits[i].entity, hits[i].distance);
        if (std::fclose(f) != 0) fail(dump + ": cannot write");
    }
    return 0;
}

void usage()
{
    std::printf("Usage: %s [--steps N] [--polyhedral] SCENE.json\n"
                "       %s --rays R [--steps N] [--repeat K] [--gjk] [--dump FILE] SCENE.json\n"
                "Runs a voltex-sim scene in Bullet with voltex-sim's settings and prints the\n"
                "figures of voltex-sim --stats (bodies, steps, ms/step median and p95, steps/s,\n"
                "contacts/step, max displacement of dynamic bodies, peak memory).\n"
                "--rays: after N steps (default 120) times R closest-hit rays of bench_rays K times\n"
                "(default 7) and prints rays/s, as bench_rays does; --gjk: Bullet's GJK convex cast\n"
                "for convex shapes instead of its default subsimplex one.\n"
                "--polyhedral: convex hulls collide by Bullet's separating-axis test and clipping\n"
                "instead of its default GJK and EPA.\n",
                prog, prog);
}

} // namespace

int main(int argc, char **argv)
{
    std::string path;
    long long steps_override = -1;
    long long ray_count = 0, repeat = 7;
    std::string dump;
    bool gjk = false, polyhedral = false;
    auto count_value = [&](int &i, const std::string &arg, long long lo, long long hi) {
        if (i + 1 >= argc) fail(arg + ": missing value");
        char *end;
        errno = 0;
        long long v = std::strtoll(argv[++i], &end, 10);
        if (errno != 0 || *end != '\0' || v < lo || v > hi)
            fail(arg + ": expected an integer from " + std::to_string(lo) + " to " + std::to_string(hi));
        return v;
    };
    for (int i = 1; i < argc; i++) {
        std::string arg = argv[i];
        if (arg == "-h" || arg == "--help") {
            usage();
            return 0;
        }
        if (arg == "-n" || arg == "--steps") {
            if (i + 1 >= argc) fail(arg + ": missing value");
            char *end;
            steps_override = std::strtoll(argv[++i], &end, 10);
            if (*end != '\0' || steps_override < 0) fail(arg + ": expected an integer >= 0");
        } else if (arg == "--rays") {
            ray_count = count_value(i, arg, 1, 100000000);
        } else if (arg == "--repeat") {
            repeat = count_value(i, arg, 1, 101);
        } else if (arg == "--gjk") {
            gjk = true;
        } else if (arg == "--polyhedral") {
            polyhedral = true;
        } else if (arg == "--dump") {
            if (i + 1 >= argc) fail(arg + ": missing value");
            dump = argv[++i];
        } else if (arg == "-q" || arg == "--quiet" || arg == "--stats") {
            // accepted for symmetry with voltex-sim: the peer prints its figures always
        } else if (!arg.empty() && arg[0] == '-') {
            fail("unknown option '" + arg + "' (try --help)");
        } else if (path.empty()) {
            path = arg;
        } else {
            fail("unexpected argument '" + arg + "' (one scene file)");
        }
    }
    if (path.empty()) fail("missing SCENE.json (try --help)");
    if (ray_count == 0 && (!dump.empty() || gjk)) fail("--dump and --gjk go with --rays");

    Scene scene = read_scene(path);
    long long steps = steps_override >= 0 ? steps_override : scene.steps;
    double build_start = now_seconds();
    auto w = std::make_unique<World>();
    w->polyhedral = polyhedral;
    build_world(scene, *w);
    build_joints(scene, *w);
    double build_seconds = now_seconds() - build_start;
    if (ray_count > 0) {
        int rc = run_rays(scene, *w, steps_override >= 0 ? steps_override : 120, static_cast<size_t>(ray_count),
                          static_cast<int>(repeat), gjk, dump);
        w.reset();
        return rc;
    }

    size_t bodies = scene.bodies.size(), dynamic = 0;
    std::vector<btVector3> start(bodies);
    for (size_t i = 0; i < bodies; i++) {
        start[i] = scene.bodies[i].position;
        if (w->by_entity[i] && scene.bodies[i].type == "dynamic") dynamic++;
    }

    const btScalar sub_dt = static_cast<btScalar>(scene.dt / scene.substeps);
    std::vector<double> step_ms;
    step_ms.reserve(static_cast<size_t>(std::min<long long>(steps, 1 << 22)));
    long long contacts = 0;
    double wall_start = now_seconds();
    for (long long k = 0; k < steps; k++) {
        double t0 = now_seconds();
        for (int s = 0; s < scene.substeps; s++) {
            move_kinematic(*w, sub_dt);
            w->world.stepSimulation(sub_dt, 0); // maxSubSteps 0: exactly one step of sub_dt
        }
        double t1 = now_seconds();
        if (step_ms.size() < step_ms.capacity()) step_ms.push_back((t1 - t0) * 1000.0);
        contacts += contact_points(*w);
    }
    double wall = now_seconds() - wall_start;

    double max_displacement = 0.0;
    std::string moved = "-";
    for (size_t i = 0; i < bodies; i++) {
        btRigidBody *b = w->by_entity[i];
        if (!b || scene.bodies[i].type != "dynamic") continue;
        double d = static_cast<double>((b->getWorldTransform().getOrigin() - start[i]).length());
        if (!(d <= max_displacement)) { // NaN wins, so it shows
            max_displacement = d;
            moved = scene.bodies[i].name;
        }
    }

    std::vector<double> sorted = step_ms;
    std::sort(sorted.begin(), sorted.end());
    double total_ms = 0.0;
    for (double ms : step_ms) total_ms += ms;
    double mean_ms = step_ms.empty() ? 0.0 : total_ms / static_cast<double>(step_ms.size());
    double n = static_cast<double>(steps);
    rusage usage_now;
    getrusage(RUSAGE_SELF, &usage_now);

    std::printf("%s: bodies %zu (%zu dynamic), steps %lld, wall %.3f s, %.4g ms/step, %.0f steps/s, "
                "%.2f contacts/step\n",
                prog, bodies, dynamic, steps, wall, n > 0 ? wall * 1000.0 / n : 0.0, wall > 0 ? n / wall : 0.0,
                n > 0 ? static_cast<double>(contacts) / n : 0.0);
    std::printf("%s: step ms: median %.4f, p95 %.4f, mean %.4f, max %.4f\n", prog, median(sorted),
                percentile(sorted, 0.95), mean_ms, sorted.empty() ? 0.0 : sorted.back());
    std::printf("%s: max displacement %.4g m (%s), peak memory %.1f MB\n", prog, max_displacement, moved.c_str(),
                static_cast<double>(usage_now.ru_maxrss) / 1024.0);
    std::printf("%s: world built in %.3f s (after reading the scene)\n", prog, build_seconds);
    if (!w->joints.empty()) std::printf("%s: joints %zu, widest gap at the end %.4g m\n", prog, w->joints.size(), widest_joint_gap(*w));
    w.reset();
    return 0;
}
