/* symbols.h -- from return addresses to the frames a debugger shows
   there (symbols.c).  */

#ifndef MEMPROF_SYMBOLS_H
#define MEMPROF_SYMBOLS_H

#include <stddef.h>
#include <stdint.h>
#include "memprof.h"

/* What a frame is wanted for: its function's name alone (the space
   profiles, folded stacks), or its file and line too (the call stacks
   the report prints, JSON, pprof, the tracker's).  The frames and their
   names are the same either way; the names alone cost less.  */
enum mp_symbols { MP_SYMBOLS_NAMES, MP_SYMBOLS_LINES };

/* The frames of the N_RAS words RAS of a call stack (callstack.h),
   innermost first, with their positions, into OUT: at most MAX of C
   code, and those of every guest entry (guest.h), so OUT has room for
   MAX + N_RAS; return how many.  A stack's truncation mark gives no
   frame.  */
size_t mp_symbolise (const uintptr_t *ras, size_t n_ras,
                     struct mp_frame *out, size_t max);
/* The frames of word RA of a call stack, innermost first, the last one
   not inlined, as WANT says: *FRAMES points into a cache that lives as
   long as the process.  A return address gives one frame at least
   (`??' in a module without symbols, its address outside any module); a
   guest frame one, a guest entry none, and a stack's truncation mark
   one, `(truncated)', the root under which flame graphs put the stacks
   cut at callstack_size.  */
size_t mp_symbolise_one (uintptr_t ra, enum mp_symbols want,
                         const struct mp_frame **frames);
/* The frame of the function whose code returns to RA, to name a call:
   with its file and line where the module carries its own DWARF (a
   program, a library built with -g), else (a system library, stripped
   with a .gnu_debuglink) the symbol table's function alone.  A system library's separate debugging information, which
   costs as much to read as the rest of a report, is not read for it.  */
struct mp_frame mp_symbolise_caller (uintptr_t ra);

/* The word that stands, in a stack, for return address RA of an object
   just unloaded: its frames as they were named while it was mapped
   (mp_symbolise_one gives them); RA itself without memory.  */
uintptr_t mp_symbols_retire (uintptr_t ra);
/* The object at [LO, HI) is unloaded: the addresses there are looked up
   again, in whatever is mapped there since.  */
void mp_symbols_unloaded (uintptr_t lo, uintptr_t hi);

#endif
