/* Numbers as the traces print them: 9 significant digits are enough for any
 * 32-bit float to read back exactly (FLT_DECIMAL_DIG). */
#include <stdio.h>

#include "voltex/trace.h"

int vx_format_float(char *buf, size_t size, float f)
{
    return snprintf(buf, size, "%.9g", (double)f);
}

float vx_trace_frame_time(int64_t frame, float dt)
{
    /* In double, then rounded once, so time does not drift with k. */
    return (float)((double)frame * (double)dt);
}
