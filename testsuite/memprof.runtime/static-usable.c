/* A static executable's malloc_usable_size: the runtime's, in front of
   the program's calls, asks libc.a's own (there is no shared libc to
   ask), and answers at least what was asked, every byte of it usable.  */
/* { dg-do run } */
/* { dg-options "-std=gnu11 -g -static" } */
/* { dg-skip-if "ASan's runtime is not linked statically" { asan } } */
/* { dg-set-target-env-var MEMPROF "report=none" } */
/* { dg-prune-output "in function .\[a-z_\]+.:" } */
/* { dg-prune-output "warning: Using .dlopen. in statically linked" } */

#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "../lib/mptest.h"

int
main (void)
{
  static const size_t sizes[] = { 1, 24, 100, 1000, 300000 };
  for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++)
    {
      char *p = malloc (sizes[i]);
      size_t n = malloc_usable_size (p);
      CHECK (n >= sizes[i]);
      memset (p, 0xa5, n);
      free (p);
    }
  CHECK (malloc_usable_size (NULL) == 0);
  return mpt_done ();
}

/* { dg-output "^ok\n$" } */
