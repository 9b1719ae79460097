/* A program that takes no sample and writes no report maps no library
   that only sampling or the report needs (issue 18: a short process
   pays for nothing it does not use): not libm, whose logarithm the
   sampling once took (sample.c has its own), nor libunwind, which the
   first captured stack loads, nor libdw, which naming frames loads, nor
   libgcc_s, which only C++ exceptions through the runtime's operators
   need (unwinder.c), nor libgc, which only a program that uses the GC
   heap needs (gcweak.h).
   Linked --as-needed, so that the test's own -lm and -lgc stay out
   unless the runtime needs them.  The maps are read from an atexit handler of
   main's, which runs before the runtime's exit report.  */
/* { dg-do run } */
/* { dg-options "-Wl,--as-needed" } */
/* { dg-set-target-env-var MEMPROF "report=none" } */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void *volatile sink;

static void
check_maps (void)
{
  static const char *const libraries[] = {
#ifndef __SANITIZE_ADDRESS__    /* libasan needs both itself */
    "/libm.so", "/libgcc_s.so",
#endif
    "/libunwind.so", "/libdw.so", "/libdw-", "/libelf", "/libgc.so",
  };
  FILE *f = fopen ("/proc/self/maps", "r");
  if (f == NULL)
    {
      perror ("/proc/self/maps");
      exit (1);
    }
  char line[4096];
  int bad = 0;
  while (fgets (line, sizeof line, f) != NULL)
    for (size_t i = 0; i < sizeof libraries / sizeof *libraries; i++)
      if (strstr (line, libraries[i]) != NULL)
        {
          printf ("mapped: %s", strchr (line, '/'));
          bad = 1;
        }
  fclose (f);
  puts (bad ? "unneeded libraries mapped" : "none of them mapped");
}

int
main (void)
{
  atexit (check_maps);
  for (int i = 0; i < 100; i++)
    {
      sink = malloc (16);       /* sites: the runtime counts them */
      free (sink);
    }
  return 0;
}

/* { dg-output "^none of them mapped\n$" } */
