/* locations.h -- a profile's distinct return addresses, for the writers
   that number them (locations.c).  */

#ifndef MEMPROF_LOCATIONS_H
#define MEMPROF_LOCATIONS_H

#include <stddef.h>
#include <stdint.h>
#include "index.h"
#include "memprof.h"

struct mp_location
{
  uintptr_t ra;
  const struct mp_frame *frames;  /* innermost first; symbols.c's */
  size_t n_frames;
  size_t first_frame;           /* the number of its first frame */
};

struct mp_locations
{
  struct mp_location *locs;
  size_t n, cap;
  size_t n_frames;              /* frames of all the locations */
  struct mp_index index;        /* by address */
  uintptr_t sought;             /* the address `same' compares with */
};

#define MP_NO_LOCATION ((size_t) -1)
/* The number of RA's location, made if new; MP_NO_LOCATION without
   memory.  */
size_t mp_location_of (struct mp_locations *t, uintptr_t ra);
void mp_locations_free (struct mp_locations *t);

#endif
