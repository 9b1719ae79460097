/* symbols.h -- from return addresses to the frames a debugger shows
   there (symbols.c).  */

#ifndef MEMPROF_SYMBOLS_H
#define MEMPROF_SYMBOLS_H

#include <stddef.h>
#include <stdint.h>
#include "memprof.h"

/* The frames of the N_RAS return addresses RAS, innermost first, into
   OUT: at most MAX of C code, and those of every guest entry (guest.h),
   so OUT has room for MAX + N_RAS; return how many.  */
size_t mp_symbolise (const uintptr_t *ras, size_t n_ras,
                     struct mp_frame *out, size_t max);
/* The frames at return address RA, innermost first, the last one not
   inlined: *FRAMES points into a cache that lives as long as the
   process.  */
size_t mp_symbolise_one (uintptr_t ra, const struct mp_frame **frames);

#endif
