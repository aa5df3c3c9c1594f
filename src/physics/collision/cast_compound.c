/* Casts against a compound (cast.h): each part's own cast, placed by the
 * body's pose times the part's, the nearest kept. */
#include "physics/body/compound.h"
#include "physics/collision/cast.h"

bool vx_cast_compound(const vx_compound *compound, const vx_transform *pose, vx_vec3 origin, float radius,
                      bool sphere, vx_vec3 direction, float max_distance, vx_cast_hit *hit)
{
    bool found = false;
    for (uint32_t i = 0; i < compound->part_count; i++) {
        const vx_collider *shape = &compound->parts[i].shape;
        vx_transform part = vx_compound_part_pose(compound, i, pose);
        vx_cast_hit h;
        bool met = sphere ? vx_sphere_cast_shape(shape, &part, origin, radius, direction, max_distance, &h)
                          : vx_ray_cast_shape(shape, &part, origin, direction, max_distance, &h);
        if (met && (!found || h.distance < hit->distance)) {
            *hit = h;
            found = true;
        }
    }
    return found;
}
