/* ownlibs.h -- the libraries the runtime loads for itself with dlopen,
   and the objects each of those dlopens brought into the process: the
   library and those it needs that the program had not loaded.  Their
   data holds none of the program's pointers, and Boehm need not scan it
   (roots.c).  See ownlibs.c.  */

#ifndef MEMPROF_OWNLIBS_H
#define MEMPROF_OWNLIBS_H

#include <stddef.h>
#include <stdint.h>

/* dlopen (FILE, MODE), for a library only the runtime uses
   (callstack.c's libunwind, dynlibs.c's): the objects it maps, the
   library and those it needs, are noted.  Any thread.  */
void *mp_own_dlopen (const char *file, int mode);

/* Watch WORD, a pointer in the static data of a library that
   mp_own_dlopen noted, where the library keeps what a caller gives it:
   libunwind's list of procedures registered at run time
   (_U_dyn_info_list), which a program that uses libunwind too (a JIT)
   may fill with blocks of Boehm's heap.  While WORD is not NULL, the
   segment that holds it is scanned again.  Once per library, from the
   thread that loaded it.  */
void mp_own_watch (void *const *word);

/* Whether the writable segment of SIZE bytes at START is one of an
   object noted by mp_own_dlopen, and holds no watched word that is set
   now: Boehm need not scan it.  Lock-free and async-signal-safe:
   Boehm's callback asks it while the dynamic linker's lock is held.  */
int mp_own_segment (uintptr_t start, size_t size);

#endif
