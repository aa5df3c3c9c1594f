/* voltex: headless 3D rigid-body physics. Include this for the whole API. */
#ifndef VOLTEX_VOLTEX_H
#define VOLTEX_VOLTEX_H

#define VOLTEX_VERSION "0.1.0"

#include "voltex/error.h"
#include "voltex/limits.h"
#include "voltex/math.h"
#include "voltex/ecs.h"
#include "voltex/physics.h"
#include "voltex/world.h"
#include "voltex/joint.h"
#include "voltex/query.h"
#include "voltex/collide.h"
#include "voltex/rotation.h"
#include "voltex/scene.h"
#include "voltex/trace.h"

#endif
