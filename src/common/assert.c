/* The failure path of VX_ASSERT (assert.h): the one place the library prints. */
#include "common/assert.h"

#include <stdio.h>
#include <stdlib.h>

#ifndef NDEBUG
_Noreturn void vx_assert_failed(const char *condition, const char *file, int line)
{
    fprintf(stderr, "voltex: assertion failed: %s (%s:%d)\n", condition, file, line);
    fflush(stderr);
    abort();
}
#endif
