/* roots.c -- the runtime's own data out of Boehm's roots.

   Boehm scans the data and bss of every loaded object as roots at each
   collection: the program's and libmemprof.so's, or, with libmemprof.a,
   the program's with the runtime's among them.  The runtime's tables
   hold copies of program addresses (freed blocks in generations.c's
   `unfound', stale entries of hash tables, ...) and numbers that look
   like addresses: each would keep a program block alive that should
   die, which would change the heap and the lifetimes a profiler reports.
   Scanning them also costs marking time at every collection.

   So the Makefile moves every runtime object's data (.data, .data.rel,
   .data.rel.local) and bss into sections of its own, memprof_data and
   memprof_bss, with objcopy; the linker gathers each into one range
   that __start_ and __stop_ symbols bracket, in the program or in
   libmemprof.so alike, and mp_roots_exclude_own gives those to
   GC_exclude_static_roots, which Boehm applies to every root it
   scans.  The relocated read-only data (.data.rel.ro) is left as it
   is: Boehm does not scan it (PT_GNU_RELRO).

   What the runtime allocates on Boehm's heap for itself keeps alive
   without a root: finalise.c's records are Boehm's finaliser client
   data or uncollectable blocks.  The objects that hold a pointer the
   program gave memprof to keep are left in ordinary data (MP_GC_ROOT,
   roots.h).  */

#include <stddef.h>
#include "roots.h"

#define GC_THREADS
#include <gc.h>

/* The bounds of memprof_NAME, as the linker defines them.  Weak: an
   executable may take from libmemprof.a no object with such data.  */
#define OWN_SECTION(name)                                                   \
  extern char __start_memprof_##name[]                                      \
    __attribute__ ((weak, visibility ("hidden")));                          \
  extern char __stop_memprof_##name[]                                       \
    __attribute__ ((weak, visibility ("hidden")))

OWN_SECTION (data);
OWN_SECTION (bss);

static void
exclude (char *start, char *stop)
{
  if (start != NULL && stop > start)
    GC_exclude_static_roots (start, stop);
}

void
mp_roots_exclude_own (void)
{
  exclude (__start_memprof_data, __stop_memprof_data);
  exclude (__start_memprof_bss, __stop_memprof_bss);
}
