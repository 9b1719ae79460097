/* The frames of the executable are named without /proc/self/maps, which
   the kernel takes up to 200 microseconds to write, as long as the rest
   of a short program's report (symbols.c): a report whose frames are all
   the executable's never reads it.  And the executable is opened once:
   the file that symbols.c opens to check that /proc/self/exe names the
   program mapped is the one libdwfl reads the DWARF from (frames.h), not
   opened again, a walk of its path and a stat more (issue 18).  The
   program's fopen and open are exported, as in maps-unreadable.c, and
   note the maps' opening and count the openings of the file that
   /proc/self/exe names; a destructor of the program's, which runs after
   the exit report, tells.  Nothing is written to stdout, whose buffer
   libc would allocate from a frame of its own.  */
/* { dg-do run } */
/* { dg-options "-std=gnu11 -g -Wl,--export-dynamic-symbol=fopen -Wl,--export-dynamic-symbol=open -ldl" } */
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
static int maps_read;
static char self[PATH_MAX];
static int self_opened;

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
    self_opened++;
  if (real == NULL)
    real = (int (*) (const char *, int, ...)) dlsym (RTLD_NEXT, "open");
  return real (path, flags, mode);
}

__attribute__ ((destructor)) static void
tell (void)
{
  fprintf (stderr, maps_read ? "maps read\n" : "maps not read\n");
  fprintf (stderr, "executable opened %d times\n", self_opened);
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

/* { dg-output "^maps not read\nexecutable opened 1 times\n$" } */
/* { dg-final { scan-file out.txt "\n192 bytes, 24 samples, not young\n    alloc_here at \[^\n\]*exe-no-maps.c:74\n    main at \[^\n\]*exe-no-maps.c:85\n==" } } */
