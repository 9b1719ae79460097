/* callstack.h -- a sampled block's call stack: its return addresses as
   captured, and its frames once asked for (callstack.c).  */

#ifndef MEMPROF_CALLSTACK_H
#define MEMPROF_CALLSTACK_H

#include <stddef.h>
#include <stdint.h>
#include "fork.h"
#include "memprof.h"

/* Owned by the sample that captured it, in its thread, or by the
   report's writer that made it.  */
struct mp_callstack
{
  const uintptr_t *ras;         /* return addresses, innermost first */
  size_t n_ras;
  size_t limit;                 /* C frames wanted at most; a guest
                                   language's come on top (guest.c) */
  struct mp_frame *frames;      /* NULL until asked for */
  size_t n_frames;
};

/* The call stack from return address RA (the allocating call, inside
   the program) outwards into BUF, at most MAX addresses; return how
   many.  Just RA if the unwinder does not reach it.  */
size_t mp_callstack_capture (uintptr_t ra, uintptr_t *buf, size_t max);
/* Free what CS's frames took, once no one looks at them.  */
void mp_callstack_release (mp_callstack *cs);
/* The fork step (fork.c) of libunwind's locks: the captures under way,
   and the threads whose exit frees a cache of libunwind's.  */
void mp_callstack_fork (enum mp_fork_step step);

#endif
