/* mp_ignore_environment defined to 0 leaves MEMPROF in charge: the
   report goes to the file it names.  */
/* { dg-do run } */
/* { dg-options "-std=gnu11" } */
/* { dg-set-target-env-var MEMPROF "report=read.txt,sites=1" } */

#include <stdio.h>
#include <stdlib.h>
#include <memprof.h>

const int mp_ignore_environment = 0;

void *volatile kept[3];

int
main (void)
{
  kept[0] = malloc (10);
  kept[1] = malloc (20);
  puts ("ok");
  return 0;
}

/* { dg-output "^ok\n$" } */
/* { dg-final { scan-file read.txt "^== allocation sites: 1 of 2, largest first ==$" } } */
