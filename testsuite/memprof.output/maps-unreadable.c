/* A process whose /proc/self/maps cannot be read (here, fopen fails for
   it, as symbols.c opens it) gets one warning, and its report goes on
   with each frame named by its address.  The program's fopen is
   exported, so that a library's calls would reach it too.  */
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
  puts ("ok");
  return 0;
}

/* { dg-output "^ok\nmemprof: cannot read /proc/self/maps \\(Permission denied\\); call stacks show addresses\n$" } */
/* { dg-final { scan-file out.txt "== call stacks by estimated bytes allocated: 1 of 1 ==\n192 bytes, 24 samples, not young\n    0x\[0-9a-f\]+\n    0x\[0-9a-f\]+\n==" } } */
