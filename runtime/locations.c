/* locations.c -- the distinct return addresses of the profile's call
   stacks, numbered from 0, each with its frames (symbols.c): pprof's
   Locations, and the JSON report's table of frames, where location i's
   frames are numbered from first_frame on.  A table belongs to the
   writer that made it.  */

#include <stdlib.h>
#include "internal.h"
#include "symbols.h"
#include "locations.h"

static int
same (size_t item, void *ctx)
{
  struct mp_locations *t = ctx;
  return t->locs[item].ra == t->sought;
}

size_t
mp_location_of (struct mp_locations *t, uintptr_t ra)
{
  uint64_t h = mp_hash_address (ra);
  t->sought = ra;
  size_t *slot = mp_index_find (&t->index, h, same, t);
  if (slot == NULL)
    return MP_NO_LOCATION;
  if (*slot)
    return *slot - 1;
  if (mp_reserve (&t->locs, &t->cap, t->n, sizeof *t->locs) != 0)
    return MP_NO_LOCATION;
  if (mp_index_add (&t->index, slot, h) != 0)
    return MP_NO_LOCATION;
  struct mp_location *l = &t->locs[t->n];
  l->ra = ra;
  l->n_frames = mp_symbolise_one (ra, MP_SYMBOLS_LINES, &l->frames);
  l->first_frame = t->n_frames;
  t->n_frames += l->n_frames;
  return t->n++;
}

void
mp_locations_free (struct mp_locations *t)
{
  free (t->locs);
  mp_index_free (&t->index);
}
