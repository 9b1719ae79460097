/* finalise.h -- OCaml's finalisers and alarms on Boehm (finalise.c):
   what the collector and the deliveries call.  */

#ifndef MEMPROF_FINALISE_H
#define MEMPROF_FINALISE_H

#include "internal.h"

void mp_finalise_after_reclaim (int full);
void mp_finalise_deliver (void);
void mp_finalise_fork (enum mp_fork_step step);

#endif
