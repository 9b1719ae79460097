/* A program with a realloc of its own, but glibc's malloc and free,
   keeps it: every rewritten realloc of a block of ours calls it, even
   one that glibc's realloc would make in place without touching the
   chunk, which the runtime then makes itself (libc.c's realloc_as).
   The blocks stay ours, counted exactly.  */
/* { dg-do run } */
/* { dg-skip-if "ASan's realloc cannot be replaced" { asan } } */

#include <malloc.h>
#include "../lib/mptest.h"

extern void *__libc_realloc (void *, size_t);

/* Volatile: GCC takes realloc for the builtin, which touches no
   variable of the program's.  */
static volatile int reallocs;

void *
realloc (void *p, size_t n)
{
  reallocs++;
  return __libc_realloc (p, n);
}

#define ROUNDS 20

int
main (void)
{
  unsigned l_grow = 0, l_free = 0;
  for (int i = 0; i < ROUNDS; i++)
    {
      char *p = malloc (8);
      memcpy (p, "0123456", 8);
      int r0 = reallocs;
      /* Into the slack of the chunk: glibc's would not touch it.  */
      char *q = realloc (p, 16); l_grow = __LINE__;
      CHECK_EQ (reallocs - r0, 1);
      CHECK (strcmp (q, "0123456") == 0);
      CHECK (malloc_usable_size (q) >= 16);
      free (q); l_free = __LINE__;
    }
  struct mpt_site s = SITE (l_grow);
  CHECK_EQ (s.s.numReallocateOK, ROUNDS);
  CHECK_EQ (s.s.bytesExpanded, ROUNDS * 8);
  s = SITE (l_free);
  CHECK_EQ (s.s.numDeallocate, ROUNDS);
  CHECK_EQ (s.s.numForeignDeallocate, 0);
  CHECK_EQ (s.s.bytesContracted, ROUNDS * 16);
  return mpt_done ();
}

/* { dg-output "(^|\n)ok\n" } */
