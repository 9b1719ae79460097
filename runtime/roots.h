/* roots.h -- which of the runtime's own data Boehm scans for pointers.

   None of it, but for the few objects that hold a pointer the program
   gave memprof to keep (MP_GC_ROOT); nor the data of the libraries the
   runtime loads for itself.  See roots.c.  */

#ifndef MEMPROF_ROOTS_H
#define MEMPROF_ROOTS_H

/* On a static object of the runtime's that holds a pointer of the
   program's which memprof alone may keep (a tracker's or a frame
   provider's data): it stays among Boehm's roots, so that the block it
   points to lives as long as memprof may pass it back.  Such an object
   is not zero-initialised into the bss: it is kept in the data of the
   program or of libmemprof.so, which Boehm scans.  */
#define MP_GC_ROOT __attribute__ ((section (".data.memprof_roots")))

/* Take the runtime's data and bss out of Boehm's roots, and put the
   runtime's callback, which refuses the libraries mp_own_dlopen loaded
   (ownlibs.c), in front of the program's: generations.c, once Boehm is
   started, before its first collection that memprof sees.  */
void mp_roots_exclude_own (void);

/* After each collection (generations.c, under Boehm's lock): a
   callback the program set since is chained, and the runtime's put
   back in front of it.  */
void mp_roots_collected (void);

#endif
