/* An executable deleted while it runs (rebuilt, or moved over, while an
   old copy still runs): its frames are still named, from the file the
   process maps, which /proc/self/exe still opens although the name it
   gives ends in " (deleted)" (symbols.c).  The program runs a copy of
   itself, which deletes itself first.  */
/* { dg-do run } */
/* { dg-options "-std=gnu11 -g" } */
/* { dg-set-target-env-var MEMPROF "sampling_rate=1,report=out.txt" } */

#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

void *volatile sink;

static __attribute__ ((noinline)) void
allocate (int n)
{
  while (n-- > 0)
    free (sink = calloc (8, 8));
  __asm__ volatile ("");
}

/* Copy the running executable to COPY, executable; 0, or -1.  */
static int
copy_self (const char *copy)
{
  int in = open ("/proc/self/exe", O_RDONLY);
  int out = open (copy, O_WRONLY | O_CREAT | O_TRUNC, 0755);
  char buf[65536];
  ssize_t n = 0;
  while (in >= 0 && out >= 0 && (n = read (in, buf, sizeof buf)) > 0)
    if (write (out, buf, (size_t) n) != n)
      n = -1;
  int ok = in >= 0 && out >= 0 && n == 0;
  if (in >= 0)
    close (in);
  if (out >= 0 && close (out) != 0)
    ok = 0;
  return ok ? 0 : -1;
}

int
main (void)
{
  static const char copy[] = "./exe-deleted.copy";
  if (getenv ("EXE_DELETED") == NULL)
    {
      setenv ("EXE_DELETED", "1", 1);
      if (copy_self (copy) == 0)
        execl (copy, copy, (char *) NULL);
      perror ("copy and run");
      return 1;
    }
  if (unlink (copy) != 0)
    {
      perror ("unlink");
      return 1;
    }
  allocate (3);
  fprintf (stderr, "ok\n");
  return 0;
}

/* { dg-output "^ok\n$" } */
/* { dg-final { scan-file out.txt "\n192 bytes, 24 samples, not young\n    allocate at \[^\n\]*exe-deleted.c:22\n    main at \[^\n\]*exe-deleted.c:62\n==" } } */
