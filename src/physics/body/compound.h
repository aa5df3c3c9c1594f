/* Compounds (private to the physics module): convex parts placed together
 * in one body. Like a hull, a compound is simulated in its principal frame
 * (origin at the parts' common centre of mass, inertia diagonal); each
 * part is kept as its own shape with its body frame's pose in that frame,
 * so a part meets other shapes, rays and sweeps through the convex code,
 * placed by the body's pose times the part's. */
#ifndef VOLTEX_PHYSICS_BODY_COMPOUND_H
#define VOLTEX_PHYSICS_BODY_COMPOUND_H

#include <stddef.h>
#include <stdint.h>

#include "voltex/error.h"
#include "voltex/math.h"
#include "voltex/physics.h"

typedef struct {
    vx_collider shape;  /* sphere, box, capsule or hull */
    vx_transform pose;  /* the shape's body frame (shape.h) in the compound's body frame */
    vx_transform given; /* the part's placement as given, in the entity's frame */
    float reach;        /* the farthest point of the shape from the compound's origin */
} vx_compound_part_data;

struct vx_compound {
    uint32_t part_count;
    vx_compound_part_data *parts;
    vx_transform frame; /* the body frame in the entity's frame */
    float volume;       /* m^3, the parts' summed */
    vx_vec3 inertia;    /* principal moments for density 1, along frame's axes */
    float outer_radius; /* the farthest point of any part from the body frame's origin */
    float inner_radius; /* the thinnest part's half thickness */
    const void *owner;  /* the world that made it */
};

/* Builds the compound of count parts whose shapes were checked already
 * (sizes positive and finite, hulls of the world): VX_ERR_INVALID with
 * "compound: ..." for a count out of range, a part that is not convex, a
 * pose that is not finite or a rotation that is not unit; VX_ERR_NOMEM.
 * *out is new (vx_compound_destroy) or NULL on error. */
vx_status vx_compound_build(const vx_compound_part *parts, size_t count, vx_compound **out, vx_error *err);
void vx_compound_destroy(vx_compound *compound);

/* Part i's shape pose in the world for the body frame at pose. */
vx_transform vx_compound_part_pose(const vx_compound *compound, uint32_t i, const vx_transform *pose);

/* Whether c is a compound. */
static inline bool vx_collider_is_compound(const vx_collider *c) { return c->type == VX_SHAPE_COMPOUND; }

#endif
