/* Edit distance and the did-you-mean choice for unknown keys. */
#include "scene/did_you_mean.h"

#include <string.h>

#define VX_EDIT_MAX_CANDIDATE 63 /* bytes: every key of the scene format is far shorter */

static size_t min_size(size_t a, size_t b) { return a < b ? a : b; }

size_t vx_edit_distance(const char *a, const char *b, size_t cap)
{
    size_t la = strlen(a);
    size_t lb = strlen(b);
    if ((la > lb ? la - lb : lb - la) > cap || lb > VX_EDIT_MAX_CANDIDATE) return cap + 1;

    /* Three rows of the dynamic-programming table over b: i-2, i-1 and i. */
    size_t rows[3][VX_EDIT_MAX_CANDIDATE + 1];
    for (size_t j = 0; j <= lb; j++) rows[0][j] = j;
    for (size_t i = 1; i <= la; i++) {
        size_t *older = rows[(i + 1) % 3]; /* row i-2 */
        size_t *prev = rows[(i + 2) % 3];  /* row i-1 */
        size_t *cur = rows[i % 3];
        size_t row_min = cur[0] = i;
        for (size_t j = 1; j <= lb; j++) {
            size_t cost = a[i - 1] == b[j - 1] ? 0u : 1u;
            size_t d = min_size(min_size(prev[j] + 1u, cur[j - 1] + 1u), prev[j - 1] + cost);
            if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1]) d = min_size(d, older[j - 2] + 1u);
            cur[j] = d;
            row_min = min_size(row_min, d);
        }
        if (row_min > cap) return cap + 1; /* every later row only grows */
    }
    size_t d = rows[la % 3][lb];
    return d > cap ? cap + 1 : d;
}

static char ascii_lower(char c) { return (c >= 'A' && c <= 'Z') ? (char)(c - 'A' + 'a') : c; }

static int equal_ignoring_case(const char *a, const char *b)
{
    for (; *a && *b; a++, b++)
        if (ascii_lower(*a) != ascii_lower(*b)) return 0;
    return *a == *b;
}

const char *vx_did_you_mean(const char *word, const char *const *candidates, size_t count)
{
    for (size_t i = 0; i < count; i++)
        if (equal_ignoring_case(word, candidates[i])) return candidates[i];

    size_t word_length = strlen(word);
    const char *best = NULL;
    size_t best_distance = VX_DID_YOU_MEAN_MAX_DISTANCE + 1;
    for (size_t i = 0; i < count; i++) {
        size_t d = vx_edit_distance(word, candidates[i], VX_DID_YOU_MEAN_MAX_DISTANCE);
        if (d < best_distance && d < word_length) {
            best = candidates[i];
            best_distance = d;
        }
    }
    return best;
}
