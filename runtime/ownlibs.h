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
   library and those it needs, are noted.  OPENS_LATER, if not NULL, is
   the soname of a library that FILE may open by itself later (libdw's
   libdebuginfod.so.1): mp_own_look notes it and those it needs.  Any
   thread.  */
void *mp_own_dlopen (const char *file, int mode, const char *opens_later);

/* Note the library that one of ours opened by itself since, if it is
   there now (see mp_own_dlopen).  From a collection, holding Boehm's
   lock (roots.c): it never waits for a dlopen, and costs one step of
   dl_iterate_phdr when nothing was loaded since its last look.  */
void mp_own_look (void);

/* Whether START is where a writable segment of an object noted by
   mp_own_dlopen begins.  Lock-free and async-signal-safe: Boehm's
   callback asks it while the dynamic linker's lock is held.  */
int mp_own_segment (uintptr_t start);

#endif
