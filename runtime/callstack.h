/* callstack.h -- the call stacks of sampled allocations (callstack.c;
   memprof.h documents the public side).  */

#ifndef MEMPROF_CALLSTACK_H
#define MEMPROF_CALLSTACK_H

#include <stddef.h>
#include <stdint.h>
#include "fork.h"
#include "memprof.h"

struct mp_callstack
{
  const uintptr_t *ras;         /* return addresses, innermost first */
  size_t n_ras;
  size_t limit;                 /* frames wanted at most */
  struct mp_frame *frames;      /* NULL until asked for */
  size_t n_frames;
};

/* Capture the calling thread's stack into BUF (at most MAX return
   addresses), starting at the frame that returns to RA, the allocating
   call's position in the program; return how many.  */
size_t mp_callstack_capture (uintptr_t ra, uintptr_t *buf, size_t max);
/* Free the frames of CS, symbolised when asked for.  */
void mp_callstack_release (mp_callstack *cs);
/* The fork step (fork.c) of libunwind's locks: the captures under way,
   and the threads whose exit frees a cache of libunwind's.  */
void mp_callstack_fork (enum mp_fork_step step);

#endif
