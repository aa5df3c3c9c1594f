/* Last step's contact impulses, for warm starting (private to the physics
 * module). An entry is keyed by (entity a index, entity b index, part,
 * feature id) and the entities' generations; the entries are stored sorted
 * by that key, so the next step, whose manifolds come out of detection in
 * the same order, finds each manifold's entries by one merge walk:
 * deterministic, no hashing. Within a manifold a point takes the entry of
 * its own feature id, else the nearest unclaimed one (see contact_solver.c). */
#ifndef VOLTEX_PHYSICS_CONTACT_CACHE_H
#define VOLTEX_PHYSICS_CONTACT_CACHE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "voltex/ecs.h"
#include "voltex/error.h"
#include "voltex/math.h"

typedef struct {
    uint32_t a_index;
    uint32_t b_index;
    uint32_t part; /* the manifold of the pair (vx_contact.part) */
    uint32_t feature;
    uint32_t a_generation;
    uint32_t b_generation;
    float normal_impulse;     /* N*s, accumulated over the solve */
    /* N*s, world frame (the tangents may turn a little by the next step):
     * the manifold's friction at its centre, the same in each of its points */
    vx_vec3 friction_impulse;
    float twist_impulse;      /* N*m*s about the normal: the manifold's, the same in each of its points */
    vx_vec3 pending_velocity; /* m/s, world: a speculative point stopped a fast approach at the surface,
                                 this was the relative velocity (B - A) there before; the bounce is due
                                 when it touches (0: none) */
    float pending_after;      /* m/s: the normal velocity that stop left (along the normal of then) */
    vx_vec3 local_a;          /* the point on A, in A's body frame: matches a point whose feature id changed */
} vx_contact_cache_entry;

typedef struct {
    vx_contact_cache_entry *items; /* sorted by key */
    size_t count;
    size_t capacity;
    vx_contact_cache_entry *next; /* being written for the next step */
    size_t next_count;
    size_t next_capacity;
} vx_contact_cache;

void vx_contact_cache_init(vx_contact_cache *c);
void vx_contact_cache_free(vx_contact_cache *c);
void vx_contact_cache_clear(vx_contact_cache *c);

/* The first entry not before manifold (a, b, part) (by index): a cursor
 * for a merge walk that starts at that manifold. */
size_t vx_contact_cache_lower_bound(const vx_contact_cache *c, vx_entity a, vx_entity b, uint32_t part);
/* The entries of manifold part of pair (a, b) (generations included):
 * *first and the count returned, 0 if none. cursor is for the merge walk:
 * start at vx_contact_cache_lower_bound and look manifolds up in increasing
 * (a.index, b.index, part) order. */
size_t vx_contact_cache_find(const vx_contact_cache *c, size_t *cursor, vx_entity a, vx_entity b, uint32_t part,
                             size_t *first);

/* Writing the next step's entries, from several threads: begin_fill makes
 * room for at most `most` entries and gives where they go (*entries); the
 * caller writes them there in increasing key order, each thread its own
 * part, and commit_fill(c, count) makes entries [0, count) the current ones
 * (commit: the next_count written so far). Nothing allocates in between.
 * VX_ERR_NOMEM from begin_fill leaves the current entries as they were. */
vx_status vx_contact_cache_begin_fill(vx_contact_cache *c, size_t most, vx_contact_cache_entry **entries);
void vx_contact_cache_commit_fill(vx_contact_cache *c, size_t count);
void vx_contact_cache_commit(vx_contact_cache *c);

/* Entries kept aside while their pair is not solved (a sleeping pair, see
 * sleep.h), in key order. */
typedef struct {
    vx_contact_cache_entry *items;
    size_t count;
    size_t capacity;
} vx_contact_cache_stash;

void vx_contact_cache_stash_free(vx_contact_cache_stash *s);
/* Moves the current entries for which take(entry, context) holds into stash
 * (cleared first); the rest stay, in order. */
vx_status vx_contact_cache_take(vx_contact_cache *c, bool (*take)(const vx_contact_cache_entry *e, void *context),
                                void *context, vx_contact_cache_stash *stash);
/* Merges the stash back into the current entries (none of its pairs may be
 * among them), keeping key order. */
vx_status vx_contact_cache_put_back(vx_contact_cache *c, const vx_contact_cache_stash *stash);

#endif
