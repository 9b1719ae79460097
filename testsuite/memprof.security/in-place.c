/* A name that leads to a character device or a FIFO, or to the file on
   stdout, is written in place and not replaced: a symlink to /dev/null
   stays one (the report is not in it), and the JSON report reaches the
   program's stdout through a symlink to /dev/stdout, after what the
   program printed.  */
/* { dg-do run } */
/* { dg-options "-std=gnu11" } */
/* { dg-set-target-env-var MEMPROF "report=null-link,json=stdout-link" } */

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

void *volatile kept[3];

int
main (void)
{
  if (symlink ("/dev/null", "null-link") != 0
      || symlink ("/dev/stdout", "stdout-link") != 0)
    perror ("symlink");
  for (int i = 0; i < 3; i++)
    kept[i] = malloc (100);
  printf ("ok\n");
  return 0;
}

/* { dg-output "^ok\n\{\"memprof\":1,.*\n,\"allocator\":\{\"numAllocate\":3,.*\\\]\}\n$" } */
/* { dg-final { scan-file-not null-link "." } } */
/* { dg-final { scan-dir-not "*.tmp*" } } */
