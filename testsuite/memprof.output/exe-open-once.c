/* The report opens the executable once: the file that symbols.c opens
   to check that /proc/self/exe names the program mapped is the one
   libdwfl reads the DWARF from (frames.h), not opened again, which
   costs a walk of its path and a stat (issue 18).  The program's open
   is exported, as fopen is in exe-no-maps.c, and counts the openings of
   the file /proc/self/exe names; a destructor of the program's, which
   runs after the exit report, tells.  */
/* { dg-do run } */
/* { dg-options "-std=gnu11 -g -Wl,--export-dynamic-symbol=open -ldl" } */
/* { dg-set-target-env-var MEMPROF "sampling_rate=1,report=out.txt" } */

#define _GNU_SOURCE
#include <dlfcn.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

void *volatile sink;
static char self[PATH_MAX];
static int opened;

int
open (const char *path, int flags, ...)
{
  static int (*real) (const char *, int, ...);
  mode_t mode = 0;
  if (flags & (O_CREAT | O_TMPFILE))
    {
      va_list ap;
      va_start (ap, flags);
      mode = va_arg (ap, mode_t);
      va_end (ap);
    }
  if (self[0] != '\0' && strcmp (path, self) == 0)
    opened++;
  if (real == NULL)
    real = (int (*) (const char *, int, ...)) dlsym (RTLD_NEXT, "open");
  return real (path, flags, mode);
}

__attribute__ ((destructor)) static void
tell (void)
{
  fprintf (stderr, "executable opened %d times\n", opened);
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
  ssize_t n = readlink ("/proc/self/exe", self, sizeof self - 1);
  self[n > 0 ? n : 0] = '\0';
  alloc_here (3);
  return 0;
}

/* { dg-output "^executable opened 1 times\n$" } */
/* { dg-final { scan-file out.txt "\n192 bytes, 24 samples, not young\n    alloc_here at \[^\n\]*exe-open-once.c:56\n    main at \[^\n\]*exe-open-once.c:67\n==" } } */
