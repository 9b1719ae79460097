/* own.h -- the runtime's own memory for the sampling tables (own.c):
   bounded by own_limit, and the end of sampling when it runs out.  */

#ifndef MEMPROF_OWN_H
#define MEMPROF_OWN_H

#include <stddef.h>
#include <stdio.h>

/* N bytes, zeroed, for a sampling table; NULL when own_limit or malloc
   refuses, which stops sampling for good (one warning).  */
void *mp_own_alloc (size_t n);

/* Give back P, of N bytes, from mp_own_alloc (small blocks are only
   uncounted: their chunks live as long as the process).  */
void mp_own_free (void *p, size_t n);

/* N zeroed bytes mapped apart from malloc's heap (rounded up to pages),
   or NULL.  The runtime's large blocks come from here: a malloc of
   more than its fast bins serve first consolidates them, and a program
   that has just freed many small blocks (bt-malloc's last tree) pays
   for it: 9.5M instructions in bt-malloc 16 for a sampling table,
   19M at its exit for the first large block of the report.  Under ASan,
   LeakSanitizer looks into them for pointers.  */
void *mp_own_map (size_t n);

/* Unmap P, N bytes from mp_own_map; P may be NULL.  */
void mp_own_unmap (void *p, size_t n);

/* 1 once sampling stopped for want of memory.  */
int mp_own_exhausted (void);

/* The report's "memprof's own memory" section, to OUT.  */
void mp_own_report (FILE *out);

#endif
