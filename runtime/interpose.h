/* interpose.h -- whether the functions the runtime puts in front of
   the C and C++ libraries' (interpose.c, cxx.c) count what they are
   called for.  */

#ifndef MEMPROF_INTERPOSE_H
#define MEMPROF_INTERPOSE_H

#include "internal.h"

/* Whether the interposed functions count (ON), from MEMPROF, set once
   as the runtime starts; and whether they do.  */
void mp_interpose_setup (int on);
int mp_interposing (void);
/* Why the calls no rewritten site made are not counted, for a report:
   NULL if they are.  */
const char *mp_interpose_off_reason (void);

/* The attributes of the functions the runtime puts in front of the C
   library's: weak, so that a program's own malloc wins.  OWN (NAME)
   declares libc.h's mp_interposed_NAME, the runtime's NAME whoever
   wins, in the file that defines NAME.  */
#define MP_INTERPOSE __attribute__ ((visibility ("default"), weak))
#define OWN(name) \
  extern __typeof__ (name) mp_interposed_##name \
    __attribute__ ((alias (#name), copy (name), visibility ("hidden")))

/* 0 before the runtime has started, 1 counting, 2 not counting
   (MEMPROF's interpose=0).  Written once by mp_interpose_setup, under
   mp_init's once.  */
extern _Atomic int mp_interpose_state;

/* Start the runtime from an interposed call; whether it counts.  */
int mp_interpose_start (void);

/* Whether this call counts: the runtime started (it is started now if
   need be, but not from inside its own quiet work) and the thread not
   quiet.  */
static inline int
mp_interpose_counting (void)
{
  int s = atomic_load_explicit (&mp_interpose_state, memory_order_relaxed);
  if (MP_LIKELY (s == 1 && mp_quiet == 0))
    return 1;
  if (s != 0 || mp_quiet != 0)
    return 0;
  return mp_interpose_start ();
}

#endif
