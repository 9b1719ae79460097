/* finalise.h -- OCaml's finalisation on Boehm (finalise.c): what the
   collector's callbacks and the deliveries call.  */

#ifndef MEMPROF_FINALISE_H
#define MEMPROF_FINALISE_H

#include "fork.h"
#include "internal.h"

/* GC_EVENT_MARK_END, from the collector, the world stopped: note the
   objects with mp_finalise calls that no root reached.  */
void mp_finalise_after_marking (void);

/* GC_EVENT_RECLAIM_END, from the collector; FULL for a full collection:
   finalise_last calls and alarms fall due.  */
void mp_finalise_after_reclaim (int full);

/* Run what fell due, at a safe point of the program: the calls that
   Boehm or an ordered finaliser held back, finalise_last calls,
   alarms.  */
void mp_finalise_deliver (void);

void mp_finalise_fork (enum mp_fork_step step);

#endif
