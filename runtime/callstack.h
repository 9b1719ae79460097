/* callstack.h -- a sampled block's call stack: its return addresses as
   captured, and its frames once asked for (callstack.c; memprof.h
   documents the public side).

   A captured stack is an array of words, innermost first: the return
   addresses of its C frames, then, if more frames than the depth asked
   for were cut off, MP_STACK_TRUNCATED, then a language VM's frames
   (guest.h).  Like guest.h's words, the mark has a top byte no return
   address has.  */

#ifndef MEMPROF_CALLSTACK_H
#define MEMPROF_CALLSTACK_H

#include <stddef.h>
#include <stdint.h>
#include "fork.h"
#include "memprof.h"

#define MP_STACK_TRUNCATED (UINT64_C (0xfc) << 56)
/* A return address of an object unloaded since (symbols.c): this tag,
   then a number of symbols.c's.  */
#define MP_STACK_RETIRED (UINT64_C (0xfb) << 56)

/* The words a capture needs beyond its depth: the runtime's own frames,
   cut off, and the frames outside main.  */
#define MP_CALLSTACK_SLACK 32

/* Owned by the sample that captured it, in its thread, or by the
   report's writer that made it.  */
struct mp_callstack
{
  const uintptr_t *ras;         /* as captured (see above) */
  size_t n_ras;
  size_t limit;                 /* C frames wanted at most; a guest
                                   language's come on top (guest.c) */
  struct mp_frame *frames;      /* NULL until asked for */
  size_t n_frames;
};

/* The stack of the program's call that returns to RA, up to DEPTH C
   frames, into BUF, which has room for DEPTH + MP_CALLSTACK_SLACK
   words; return how many it holds.  Unless MEMPROF's past_main says
   otherwise, it ends at main, or at a thread's start routine (see
   callstack.c); a stack cut at DEPTH frames ends with
   MP_STACK_TRUNCATED.  */
size_t mp_callstack_capture (uintptr_t ra, uintptr_t *buf, size_t depth);
/* Free what CS's frames took, once no one looks at them.  */
void mp_callstack_release (mp_callstack *cs);
/* The fork step (fork.c) of libunwind's locks: the captures under way,
   and the threads whose exit frees a cache of libunwind's.  */
void mp_callstack_fork (enum mp_fork_step step);

#endif
