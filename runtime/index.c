/* index.c -- an open-addressing hash index over numbered items: the
   report's writers use it to find a function by name (space.c) or an
   address's location (locations.c) among the items they have made.
   Also the growing of arrays (mp_reserve), and the binary search of
   those sorted by address (mp_count_at_most).

   Items are numbered from 0 by their owner; the index keeps each one's
   hash and, in a table of a power-of-2 size at least twice the number of
   items, 1 + its number, or 0 in a free slot.  Lookups probe linearly.
   An index belongs to whoever made it; it has no lock.  */

#include <stdlib.h>
#include <string.h>
#include "alloc.h"
#include "index.h"

size_t *
mp_index_find (struct mp_index *ix, uint64_t h,
               int (*same) (size_t item, void *ctx), void *ctx)
{
  if (ix->n_slots == 0)
    {
      ix->slots = calloc (64, sizeof *ix->slots);
      if (ix->slots == NULL)
        return NULL;
      ix->n_slots = 64;
    }
  size_t mask = ix->n_slots - 1, j = h & mask;
  for (; ix->slots[j]; j = (j + 1) & mask)
    {
      size_t item = ix->slots[j] - 1;
      if (ix->hashes[item] == h && same (item, ctx))
        break;
    }
  return &ix->slots[j];
}

/* Rehash into N_SLOTS slots; -1 without memory, and nothing changed.  */
static int
rehash (struct mp_index *ix, size_t n_slots)
{
  size_t *slots = calloc (n_slots, sizeof *slots);
  if (slots == NULL)
    return -1;
  for (size_t i = 0; i < ix->n; i++)
    {
      size_t j = ix->hashes[i] & (n_slots - 1);
      while (slots[j])
        j = (j + 1) & (n_slots - 1);
      slots[j] = i + 1;
    }
  free (ix->slots);
  ix->slots = slots;
  ix->n_slots = n_slots;
  return 0;
}

int
mp_index_add (struct mp_index *ix, size_t *slot, uint64_t h)
{
  if (ix->n == ix->cap)
    {
      size_t cap = ix->cap ? 2 * ix->cap : 32;
      uint64_t *hashes = realloc (ix->hashes, cap * sizeof *hashes);
      if (hashes == NULL)
        return -1;
      ix->hashes = hashes;
      ix->cap = cap;
    }
  ix->hashes[ix->n] = h;
  *slot = ++ix->n;
  /* A failed rehash leaves the table fuller, still correct while it has
     free slots: the item is taken back before the last one goes, so
     that a lookup always ends at a free slot.  */
  if (2 * ix->n >= ix->n_slots && rehash (ix, 4 * ix->n_slots) != 0
      && ix->n + 1 >= ix->n_slots)
    {
      *slot = 0;
      ix->n--;
      return -1;
    }
  return 0;
}

void
mp_index_free (struct mp_index *ix)
{
  free (ix->slots);
  free (ix->hashes);
  *ix = (struct mp_index) { NULL, NULL, 0, 0, 0 };
}

uint64_t
mp_hash_string (const char *s)
{
  uint64_t h = UINT64_C (14695981039346656037);
  for (; *s; s++)
    h = (h ^ (unsigned char) *s) * UINT64_C (1099511628211);
  return h;
}

uint64_t
mp_hash_address (uintptr_t a)
{
  uint64_t h = (uint64_t) a * UINT64_C (0x9e3779b97f4a7c15);
  return h ^ (h >> 32);
}

int
mp_reserve (void *items, size_t *cap, size_t n, size_t size)
{
  if (n < *cap)
    return 0;
  /* A first array of 16 items, doubled as it fills.  A larger first
     request (256 rows of space.c's 1,384 bytes were 346 kB) is past
     glibc's mmap threshold, a mapping made and unmade for a few rows in
     a short process; and even 8 kB for each of the report's many small
     arrays (a namesake group's functions, a function's inner scopes,
     most of them one or two items) took a page of the heap's top
     apiece: a dozen page faults in the exit report of bench/short.c.  */
  size_t more = *cap ? 2 * *cap : 16;
  void *p = realloc (*(void **) items, more * size);
  if (p == NULL)
    return -1;
  *(void **) items = p;
  *cap = more;
  return 0;
}

size_t
mp_count_at_most (const void *items, size_t n, size_t size, uint64_t key)
{
  size_t lo = 0, hi = n;
  while (lo < hi)
    {
      size_t mid = lo + (hi - lo) / 2;
      uint64_t k;
      memcpy (&k, (const char *) items + mid * size, sizeof k);
      if (k <= key)
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo;
}
