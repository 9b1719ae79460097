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
/* The frame of the function whose code returns to RA, to name a call:
   with its file and line where the module carries its own DWARF (a
   program, a library built with -g), else (a system library, stripped
   with a .gnu_debuglink) the symbol table's function alone.  A system library's separate debugging information, which
   costs as much to read as the rest of a report, is not read for it.  */
struct mp_frame mp_symbolise_caller (uintptr_t ra);

#endif
