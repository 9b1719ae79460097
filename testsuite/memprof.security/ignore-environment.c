/* A program that defines mp_ignore_environment to 1 is not steered by
   MEMPROF: the report goes to stderr with the default settings (all
   three sites, not sites=1; the stat record of verbose's default), no
   file is written, and the bad item gets no warning, since nothing is
   read.  security.exp also links it with the shared runtime.  */
/* { dg-do run } */
/* { dg-options "-std=gnu11" } */
/* { dg-set-target-env-var MEMPROF "report=ignored.txt,json=ignored.json,sites=1,v=0x3ff,bogus=1" } */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <memprof.h>

const int mp_ignore_environment = 1;

void *volatile kept[12];	/* live at exit, not leaked */

int
main (void)
{
  struct mp_control c;
  /* No buffer: the C library's would be a site too (interposition).  */
  setvbuf (stdout, NULL, _IONBF, 0);
  mp_get (&c);
  printf ("verbose=%#lx\n", c.verbose);
  for (int i = 0; i < 4; i++)
    {
      kept[3 * i] = malloc (100);
      kept[3 * i + 1] = calloc (2, 4);
      kept[3 * i + 2] = strdup ("site");
    }
  return 0;
}

/* { dg-output "^verbose=0x400\n==== memprof report, pid \[0-9\]+ ====\n== stat record \\(v=0x400\\): the program never used the GC heap ==\n" } */
/* { dg-output ".*\n== allocation sites: 3 of 3, largest first ==\n\[^\n\]*ignore-environment\\.c\\(29\\): \\\[numAllocate:4, numAllocateOK:4, bytesAllocated:400\\\]  malloc in main\n" } */
/* { dg-output ".*\n==== end of memprof report ====\n$" } */
/* { dg-final { scan-dir-not "ignored*" } } */
