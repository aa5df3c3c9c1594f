/* Engine settings with the design spec's defaults (Box2D-style defaults
 * function: a caller changes only what it cares about). */
#include "voltex/physics.h"

#include <string.h>

#define VX_GRAVITY_Y (-9.81f)          /* m/s^2: Earth, Y up (spec) */
#define VX_FIXED_DT (1.0f / 60.0f)     /* s: the spec's fixed update rate, 60 Hz */
#define VX_SOLVER_ITERATIONS 10        /* velocity passes: enough for small stacks to settle */
#define VX_SUBSTEPS 1                  /* one substep: a free body follows the spec's step exactly */
#define VX_RESTITUTION_THRESHOLD 1.0f  /* m/s: slower approaches do not bounce, so resting bodies stay put */
#define VX_BAUMGARTE_SLOP 0.01f        /* m: penetration left uncorrected, avoids jitter at rest (spec) */
#define VX_BAUMGARTE_PERCENT 0.4f      /* 1: fraction of the remaining overlap removed per step (spec) */
#define VX_POSITION_ITERATIONS 3       /* position passes after integration (tuned by the solver) */
#define VX_MAX_CORRECTION 0.2f         /* m: one position pass never moves a contact further */
#define VX_SPECULATIVE_DISTANCE 0.02f  /* m: contacts made this far ahead stop bodies before they overlap */

vx_physics_config vx_physics_config_default(void)
{
    vx_physics_config c;
    memset(&c, 0, sizeof c);
    c.gravity = vx_vec3_make(0.0f, VX_GRAVITY_Y, 0.0f);
    c.fixed_dt = VX_FIXED_DT;
    c.iterations = VX_SOLVER_ITERATIONS;
    c.substeps = VX_SUBSTEPS;
    c.warm_starting = true;
    c.sleeping = false;
    c.threads = 1;
    c.restitution_threshold = VX_RESTITUTION_THRESHOLD;
    c.baumgarte_slop = VX_BAUMGARTE_SLOP;
    c.baumgarte_percent = VX_BAUMGARTE_PERCENT;
    c.position_iterations = VX_POSITION_ITERATIONS;
    c.max_correction = VX_MAX_CORRECTION;
    c.speculative_distance = VX_SPECULATIVE_DISTANCE;
    return c;
}
