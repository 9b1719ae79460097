/* init.h -- starting the runtime (init.c).  */

#ifndef MEMPROF_INIT_H
#define MEMPROF_INIT_H

#include <stdint.h>

/* Start the runtime, once; any thread may call it, any number of
   times.  */
void mp_init (void);

/* A per-process random key, set once by mp_init before any thread
   record exists.  */
extern uint64_t mp_random_key;

#endif
