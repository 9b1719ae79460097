/* control.h -- the control record, OCaml's Gc.control (control.c): what
   the collector's callbacks and MEMPROF's parser need of it.  */

#ifndef MEMPROF_CONTROL_H
#define MEMPROF_CONTROL_H

#include "fork.h"
#include "internal.h"

/* max_overhead's value for never, and minor_heap_size's smallest but
   0.  */
#define MP_NEVER_COMPACT 1000000L
#define MP_MIN_MINOR_HEAP 4096L

/* The flags of verbose, and max_overhead, for the collector's
   callbacks; any thread reads them.  */
extern _Atomic long mp_verbose, mp_max_overhead;

/* Set field F to V from MEMPROF, silently; -1 if V is out of range.  */
int mp_control_preset (int field, long value);

/* Boehm has just started: give it the settings that wait for it.  */
void mp_control_boehm_setup (void);

void mp_control_fork (enum mp_fork_step step);

#endif
