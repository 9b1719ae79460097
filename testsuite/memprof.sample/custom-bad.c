/* Bad input to mp_alloc_custom and mp_free_custom: a size that cannot
   be met gives NULL with ENOMEM and counts a failed allocation; a
   pointer mp_alloc_custom did not make goes to the system allocator
   untouched and counts as a foreign free; NULL is a plain free.  */
/* { dg-do run } */
/* { dg-options "-std=gnu11" } */

#include <errno.h>
#include <stdint.h>
#include "../lib/mptest.h"

/* Called through a pointer, so that the plugin leaves the call alone:
   the block is foreign to memprof.  */
void *(*volatile libc_malloc) (size_t) = malloc;
static volatile size_t huge = SIZE_MAX - 2;

int
main (void)
{
  struct mp_alloc_stats g0, g;
  mp_alloc_stats (&g0);
  errno = 0;
  CHECK (mp_alloc_custom (huge) == NULL);
  CHECK_EQ (errno, ENOMEM);
  char *foreign = libc_malloc (32);
  foreign[0] = 'x';
  mp_free_custom (foreign);
  mp_free_custom (NULL);
  mp_alloc_stats (&g);
  CHECK_EQ (g.numAllocate - g0.numAllocate, 1);
  CHECK_EQ (g.numAllocateOK - g0.numAllocateOK, 0);
  CHECK_EQ (g.numForeignDeallocate - g0.numForeignDeallocate, 1);
  CHECK_EQ (g.numDeallocate - g0.numDeallocate, 1);
  CHECK_EQ (g.bytesUsed - g0.bytesUsed, 0);
  return mpt_done ();
}

/* { dg-output "(^|\n)ok\n" } */
