/* vx_world_make_compound (voltex/world.h): each part checked as a shape of
 * the world, then the compound built (body/compound.h) and kept. */
#include <stdlib.h>

#include "common/array.h"
#include "physics/body/compound.h"
#include "physics/world_internal.h"

/* The part's problem, or NULL. */
static const char *part_problem(const vx_world *world, const vx_compound_part *p, vx_collider *clean, vx_error *err)
{
    if (p->shape.type == VX_SHAPE_MESH || p->shape.type == VX_SHAPE_HEIGHTFIELD)
        return "shape: must be a sphere, box, capsule or hull (not a mesh or heightfield)";
    if (p->shape.type == VX_SHAPE_COMPOUND) return "shape: must be a sphere, box, capsule or hull (not a compound)";
    if (vx_world_check_shape(world, &p->shape, clean, err) != VX_OK) return err ? err->message : "shape: invalid";
    if (!vx_vec3_is_finite(p->pose.position)) return "pose: position must be finite";
    if (!vx_world_is_unit_quat(p->pose.rotation)) return "pose: rotation must be a unit quaternion";
    return NULL;
}

vx_status vx_world_make_compound(vx_world *world, const vx_compound_part *parts, size_t count,
                                 const vx_compound **out, vx_error *err)
{
    if (!parts && count > 0) return vx_error_set(err, VX_ERR_INVALID, "compound: no parts given");
    if (count < 1 || count > VX_MAX_COMPOUND_PARTS)
        return vx_error_set(err, VX_ERR_INVALID, "compound: must have 1 to %d parts (%zu given)",
                            VX_MAX_COMPOUND_PARTS, count);
    vx_compound_part *clean = calloc(count, sizeof *clean);
    if (!clean) return vx_error_set(err, VX_ERR_NOMEM, "out of memory");
    vx_error part_err;
    for (size_t i = 0; i < count; i++) {
        const char *problem = part_problem(world, &parts[i], &clean[i].shape, &part_err);
        if (problem) {
            vx_status st = vx_error_set(err, VX_ERR_INVALID, "compound: parts[%zu]: %s", i, problem);
            free(clean);
            return st;
        }
        clean[i].shape.sensor = false; /* the compound's flag and filter count */
        clean[i].shape.category = VX_DEFAULT_CATEGORY;
        clean[i].shape.mask = VX_DEFAULT_MASK;
        clean[i].pose.position = parts[i].pose.position;
        clean[i].pose.rotation = vx_quat_normalize(parts[i].pose.rotation);
    }
    vx_status st = VX_OK;
    VX_RESERVE(st, world->compounds, world->compound_capacity, world->compound_count + 1u, 8u);
    vx_compound *c = NULL;
    if (st == VX_OK) st = vx_compound_build(clean, count, &c, err);
    free(clean);
    if (st == VX_ERR_NOMEM) return vx_error_set(err, st, "out of memory");
    if (st != VX_OK) return st;
    c->owner = world;
    world->compounds[world->compound_count++] = c;
    *out = c;
    return VX_OK;
}
