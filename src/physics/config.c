/* Engine settings and their defaults, several of them the reference
 * pipeline's (docs/simulation.md, "Where the engine started"; Box2D-style
 * defaults function: a caller changes only what it cares about). */
#include "voltex/physics.h"

#include <string.h>

#define VX_GRAVITY_Y (-9.81f)          /* m/s^2: Earth, Y up (reference) */
#define VX_FIXED_DT (1.0f / 60.0f)     /* s: the reference's fixed update rate, 60 Hz */
#define VX_SOLVER_ITERATIONS 10        /* velocity passes: a 10-box stack and a 20-box pyramid stand */
#define VX_SUBSTEPS 1                  /* one substep: a free body follows semi-implicit Euler exactly */
#define VX_RESTITUTION_THRESHOLD 1.0f  /* m/s: slower approaches do not bounce, so resting bodies stay put */
/* m: penetration the position passes leave alone, so resting contacts stay
 * touching instead of flickering (reference). Box2D's 0.005 measured a little
 * better (a settled 20-box pyramid creeps 7.1 instead of 7.6 mm in 9 s);
 * below a few mm the passes start to fight the velocity solver. */
#define VX_BAUMGARTE_SLOP 0.01f
/* 1: fraction of the overlap beyond the slop removed per position pass
 * (reference) */
#define VX_BAUMGARTE_PERCENT 0.4f
/* position passes after integration (NGS); they end early once nothing is
 * deeper than 3 slops, so resting scenes pay for one */
#define VX_POSITION_ITERATIONS 3
#define VX_MAX_CORRECTION 0.2f         /* m: one position pass never moves a contact further (Box2D) */
/* m: contacts are made this far before touching (plus what the bodies can
 * close in a step), so resting contacts that open by a hair stay in the
 * solver; with 0 a 10-box stack sinks 5 cm and a pyramid slumps */
#define VX_SPECULATIVE_DISTANCE 0.02f
/* the incremental dynamic tree: statics never re-tested, resting bodies cost
 * a containment test; measured faster than rebuilding the BVH every substep
 * on every bench scene (docs/simulation.md, "Broad phase") */
#define VX_BROADPHASE VX_BROADPHASE_DYNAMIC_TREE

vx_world_def vx_world_def_default(void)
{
    vx_world_def c;
    memset(&c, 0, sizeof c);
    c.gravity = vx_vec3_make(0.0f, VX_GRAVITY_Y, 0.0f);
    c.fixed_dt = VX_FIXED_DT;
    c.iterations = VX_SOLVER_ITERATIONS;
    c.substeps = VX_SUBSTEPS;
    c.warm_starting = true;
    c.reuse_contacts = true;
    c.sleeping = false;
    c.threads = 1;
    c.restitution_threshold = VX_RESTITUTION_THRESHOLD;
    c.baumgarte_slop = VX_BAUMGARTE_SLOP;
    c.baumgarte_percent = VX_BAUMGARTE_PERCENT;
    c.position_iterations = VX_POSITION_ITERATIONS;
    c.max_correction = VX_MAX_CORRECTION;
    c.speculative_distance = VX_SPECULATIVE_DISTANCE;
    c.broadphase = VX_BROADPHASE;
    c.order = VX_SOLVER_ORDER_SEQUENTIAL; /* the order the validation figures were measured with */
    c.restitution = VX_RESTITUTION_SEQUENTIAL;
    return c;
}

static const char *const order_names[] = {"sequential", "colored"}; /* by vx_solver_order */

/* The index of name among the count names, or count. */
static unsigned name_index(const char *const *names, unsigned count, const char *name)
{
    unsigned i = 0;
    while (i < count && strcmp(name, names[i]) != 0) i++;
    return i;
}

const char *vx_solver_order_name(vx_solver_order order)
{
    return (unsigned)order < 2u ? order_names[order] : "?";
}

bool vx_solver_order_from_name(const char *name, vx_solver_order *out)
{
    unsigned i = name_index(order_names, 2u, name);
    if (i < 2u) *out = (vx_solver_order)i;
    return i < 2u;
}

static const char *const restitution_names[] = {"sequential", "simultaneous"}; /* by vx_restitution_model */

const char *vx_restitution_model_name(vx_restitution_model model)
{
    return (unsigned)model < 2u ? restitution_names[model] : "?";
}

bool vx_restitution_model_from_name(const char *name, vx_restitution_model *out)
{
    unsigned i = name_index(restitution_names, 2u, name);
    if (i < 2u) *out = (vx_restitution_model)i;
    return i < 2u;
}
