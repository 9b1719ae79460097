/* fatal.h -- what is saved when the program dies by a signal
   (fatal.c).  */

#ifndef MEMPROF_FATAL_H
#define MEMPROF_FATAL_H

/* Install the handlers of the fatal signals whose action is still the
   default; the runtime is starting (init.c).  */
void mp_fatal_setup (void);

#endif
