/* The json and html keys naming one file: the file is the HTML page,
   whole, with the JSON report in it once -- the two forms are not
   written over each other.  */
/* { dg-do run } */
/* { dg-options "-std=gnu11" } */
/* { dg-set-target-env-var MEMPROF "sampling_rate=1,report=none,json=both.html,html=both.html" } */

#include <stdio.h>
#include <string.h>
#include <stdlib.h>

int
main (void)
{
  char *s = strdup ("one string");
  printf ("%s\n", s);
  free (s);
  return 0;
}

/* { dg-output "^one string\n$" } */
/* { dg-final { scan-file both.html "^<!DOCTYPE html>" } } */
/* { dg-final { scan-file both.html "^,\"allocator\":\{\"numAllocate\":1,\"numAllocateOK\":1," } } */
/* { dg-final { scan-file-not both.html "\"numAllocate\":1,\"numAllocateOK\":1,(.|\n)*\"numAllocate\":1,\"numAllocateOK\":1,(.|\n)*\"numAllocate\":1,\"numAllocateOK\":1," } } */
/* { dg-final { scan-file both.html "\\\]\}\n</script>\n<script>\n" } } */
/* { dg-final { scan-html both.html "^selftest: pass " } } */
