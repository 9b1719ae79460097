/* index.h -- an index of numbered items by hash, and the growing and
   searching of arrays (index.c).  */

#ifndef MEMPROF_INDEX_H
#define MEMPROF_INDEX_H

#include <stddef.h>
#include <stdint.h>

struct mp_index
{
  size_t *slots;                /* 1 + an item's number, or 0: free */
  uint64_t *hashes;             /* each item's hash */
  size_t n, cap, n_slots;       /* items; room in hashes; slots */
};

/* The slot of the item with hash H that SAME (item, CTX) says is the one
   sought (*slot is 1 + its number), or else the free slot where it would
   go (*slot is 0); NULL without memory.  */
size_t *mp_index_find (struct mp_index *ix, uint64_t h,
                       int (*same) (size_t item, void *ctx), void *ctx);
/* Give the next number, ix->n, to an item of hash H, in SLOT from
   mp_index_find (which it invalidates); 0, or -1 without memory.  */
int mp_index_add (struct mp_index *ix, size_t *slot, uint64_t h);
void mp_index_free (struct mp_index *ix);
uint64_t mp_hash_string (const char *s);
uint64_t mp_hash_address (uintptr_t a);
/* Make room at *ITEMS (CAP items of SIZE bytes) for item N, doubling;
   0, or -1 without memory.  */
int mp_reserve (void *items, size_t *cap, size_t n, size_t size);

/* The number of the N items at ITEMS, of SIZE bytes each and sorted by
   the uint64_t each starts with, whose key is at most KEY: a binary
   search, for the tables sorted by address.  */
size_t mp_count_at_most (const void *items, size_t n, size_t size,
                         uint64_t key);

#endif
