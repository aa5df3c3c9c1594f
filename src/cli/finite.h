/* Every number voltex-sim writes is checked finite before it is written, as
 * the exit code 3 promises: the bodies' states, the contact points and the
 * query hits. Each function returns the index of the first item with a
 * number that is not finite, or count when all are. */
#ifndef VX_CLI_FINITE_H
#define VX_CLI_FINITE_H

#include <stddef.h>

#include "voltex/physics.h"
#include "voltex/trace.h"
#include "voltex/world.h"

size_t vx_cli_first_nonfinite_body(const vx_body_state *states, size_t count);
size_t vx_cli_first_nonfinite_contact(const vx_contact_list *contacts);
/* Over every hit of every query of the frame (count: f->hit_count). */
size_t vx_cli_first_nonfinite_hit(const vx_query_frame *f);
/* The query whose hits hold hit index i. */
size_t vx_cli_query_of_hit(const vx_query_frame *f, size_t i);

#endif
