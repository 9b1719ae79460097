/* The frames of the executable are named without /proc/self/maps, which
   the kernel takes up to 200 microseconds to write, as long as the rest
   of a short program's report (symbols.c): a report whose frames are all
   the executable's never reads it.  The program's fopen is exported, as
   in maps-unreadable.c, and notes the maps' opening; a destructor of
   the program's, which runs after the exit report, tells.  Nothing is
   written to stdout, whose buffer libc would allocate from a frame of
   its own.  */
/* { dg-do run } */
/* { dg-options "-std=gnu11 -g -Wl,--export-dynamic-symbol=fopen -ldl" } */
/* { dg-set-target-env-var MEMPROF "sampling_rate=1,report=out.txt" } */

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void *volatile sink;
static int maps_read;

FILE *
fopen (const char *path, const char *mode)
{
  static FILE *(*real) (const char *, const char *);
  if (strncmp (path, "/proc/", 6) == 0 && strstr (path, "/maps") != NULL)
    maps_read = 1;
  if (real == NULL)
    real = (FILE *(*) (const char *, const char *)) dlsym (RTLD_NEXT, "fopen");
  return real (path, mode);
}

__attribute__ ((destructor)) static void
tell (void)
{
  fprintf (stderr, maps_read ? "maps read\n" : "maps not read\n");
}

static __attribute__ ((noinline)) void
alloc_here (int n)
{
  for (int i = 0; i < n; i++)
    {
      sink = malloc (64);
      free (sink);
    }
  __asm__ volatile ("");
}

int
main (void)
{
  alloc_here (3);
  return 0;
}

/* { dg-output "^maps not read\n$" } */
/* { dg-final { scan-file out.txt "\n192 bytes, 24 samples, not young\n    alloc_here at \[^\n\]*exe-no-maps.c:43\n    main at \[^\n\]*exe-no-maps.c:52\n==" } } */
