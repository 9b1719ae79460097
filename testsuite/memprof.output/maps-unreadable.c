/* A process whose /proc/self/maps cannot be read (here, fopen fails for
   it, as symbols.c opens it) gets one warning, and its report goes on
   with each frame outside the executable named by its address: here
   those of qsort, in libc, which calls a comparison function that
   allocates.  The executable's frames are named, without the maps
   (symbols.c).  The program's fopen is exported, so that a library's
   calls would reach it too.  */
/* { dg-do run } */
/* { dg-options "-std=gnu11 -g -Wl,--export-dynamic-symbol=fopen -ldl" } */
/* { dg-set-target-env-var MEMPROF "sampling_rate=1,sections=stacks,stacks=0,report=out.txt" } */

#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void *volatile sink;

FILE *
fopen (const char *path, const char *mode)
{
  static FILE *(*real) (const char *, const char *);
  if (strncmp (path, "/proc/", 6) == 0 && strstr (path, "/maps") != NULL)
    {
      errno = EACCES;
      return NULL;
    }
  if (real == NULL)
    real = (FILE *(*) (const char *, const char *)) dlsym (RTLD_NEXT, "fopen");
  return real (path, mode);
}

static int
compare (const void *a, const void *b)
{
  for (int i = 0; i < 3; i++)
    {
      sink = malloc (64);
      free (sink);
    }
  __asm__ volatile ("");
  return *(const int *) a - *(const int *) b;
}

int
main (void)
{
  int v[2] = { 2, 1 };
  qsort (v, 2, sizeof *v, compare);
  printf ("ok %d\n", v[0]);
  return 0;
}

/* { dg-output "^ok 1\nmemprof: cannot read /proc/self/maps \\(Permission denied\\); frames outside the executable show addresses\n$" } */
/* { dg-final { scan-file out.txt "\n192 bytes, 24 samples, not young\n    compare at \[^\n\]*maps-unreadable.c:39\n(    0x\[0-9a-f\]+\n)+    main at \[^\n\]*maps-unreadable.c:50\n" } } */
