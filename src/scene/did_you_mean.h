/* Close-match suggestions for misspelt keys ("colider" -> "collider"). */
#ifndef VX_SCENE_DID_YOU_MEAN_H
#define VX_SCENE_DID_YOU_MEAN_H

#include <stddef.h>

#define VX_DID_YOU_MEAN_MAX_DISTANCE 2 /* edits: one typo plus one slip, beyond that a hint misleads */

/* Optimal-string-alignment distance (insertions, deletions, substitutions and
 * swaps of two neighbours, one edit each) between a and b; any distance above
 * cap is reported as cap + 1, so a long word costs little. */
size_t vx_edit_distance(const char *a, const char *b, size_t cap);

/* The candidate the user most likely meant by word: one that equals it
 * ignoring ASCII case, else the closest within VX_DID_YOU_MEAN_MAX_DISTANCE
 * edits and fewer edits than word has bytes (so "x" suggests nothing); ties go
 * to the earlier candidate. NULL when none is close. */
const char *vx_did_you_mean(const char *word, const char *const *candidates, size_t count);

#endif
