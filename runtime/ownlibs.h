/* ownlibs.h -- the libraries the runtime loads for itself with dlopen,
   and the objects each of those dlopens brought into the process: the
   library and those it needs that the program had not loaded.  Their
   data holds none of the program's pointers, and Boehm need not scan it
   (roots.c).  See ownlibs.c.  */

#ifndef MEMPROF_OWNLIBS_H
#define MEMPROF_OWNLIBS_H

#include <stdint.h>

/* dlopen (FILE, MODE), for a library only the runtime uses
   (callstack.c's libunwind, dynlibs.c's): the objects it maps, the
   library and those it needs, are noted.  Any thread.  */
void *mp_own_dlopen (const char *file, int mode);

/* Whether START is where a writable segment of an object noted by
   mp_own_dlopen begins.  Lock-free and async-signal-safe: Boehm's
   callback asks it while the dynamic linker's lock is held.  */
int mp_own_segment (uintptr_t start);

#endif
