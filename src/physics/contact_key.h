/* Private to the physics module: the identity of a contact point within a
 * step (entity_a, entity_b, part, feature, then the generations), ordered as the
 * leading keys of vx_contact_list_sort. */
#ifndef VX_CONTACT_KEY_H
#define VX_CONTACT_KEY_H

#include "voltex/physics.h"

int vx_contact_compare_key(const vx_contact *a, const vx_contact *b);

#endif
