/* Numbers that must be the whole of a string: a command-line argument, a
 * cell of a CSV file. No empty string, no white space before, nothing after. */
#ifndef VX_PARSE_NUMBER_H
#define VX_PARSE_NUMBER_H

#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>

static inline bool vx_parse_starts_number(const char *s)
{
    return s[0] != '\0' && s[0] != ' ' && s[0] != '\t' && s[0] != '\n';
}

/* A decimal integer that fits int64_t. */
static inline bool vx_parse_int64(const char *s, int64_t *out)
{
    if (!vx_parse_starts_number(s)) return false;
    char *end;
    errno = 0;
    long long v = strtoll(s, &end, 10);
    if (*end != '\0' || errno != 0) return false;
    *out = (int64_t)v;
    return true;
}

/* A number as strtod reads it (nan and inf too); *out_of_range tells of an
 * overflow or underflow (strtod's ERANGE). */
static inline bool vx_parse_double(const char *s, double *out, bool *out_of_range)
{
    if (!vx_parse_starts_number(s)) return false;
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (*end != '\0') return false;
    *out_of_range = errno == ERANGE;
    *out = v;
    return true;
}

#endif
