/* What the C library allocates for itself is counted, at sites of its
   own callers: qsort's buffer, stdio's FILEs and buffers, getline's
   line, asprintf's string, open_memstream's buffer, scandir's entries.
   The totals are DHAT's on the same program built without memprof
   (dhat-agrees); and, computed here, qsort's buffer, on top of the
   array it sorts, is the peak.  */
/* { dg-do run } */
/* { dg-skip-if "interposition stands aside under ASan" { asan } } */
/* { dg-set-target-env-var MEMPROF "interpose=1,report=report.txt" } */

#define _GNU_SOURCE
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#ifndef DHAT_PLAIN
# include "../lib/mptest.h"
#endif

enum { N = 8000 };              /* longs: qsort's buffer is N * 8 bytes */

static int
cmp (const void *a, const void *b)
{
  long x = *(const long *) a, y = *(const long *) b;
  return (x > y) - (x < y);
}

/* Sort N longs: glibc's qsort takes a buffer of the array's size from
   malloc (it is more than 1024 bytes).  */
static void
sort (void)
{
  long *a = malloc (N * sizeof *a);
  for (long i = 0; i < N; i++)
    a[i] = (i * 7919) % N;
#ifndef DHAT_PLAIN
  struct mp_alloc_stats s0, s1;
  mp_alloc_stats (&s0);
#endif
  qsort (a, N, sizeof *a, cmp);
#ifndef DHAT_PLAIN
  mp_alloc_stats (&s1);
  CHECK_EQ (s1.numAllocateOK - s0.numAllocateOK, 1);
  CHECK_EQ (s1.bytesAllocated - s0.bytesAllocated, N * sizeof *a);
  CHECK_EQ (s1.bytesUsed, s0.bytesUsed);
  CHECK_EQ (s1.bytesHighTide, s0.bytesUsed + N * sizeof *a);
#endif
  free (a);
}

/* stdio: a FILE and its buffer; getline's line; asprintf's string.  */
static int
lines (void)
{
  FILE *f = fopen ("lines.txt", "w");
  for (int i = 0; i < 200; i++)
    fprintf (f, "line %d of a file that stdio buffers\n", i);
  fclose (f);
  f = fopen ("lines.txt", "r");
  char *line = NULL;
  size_t cap = 0;
  int n = 0;
  while (getline (&line, &cap, f) > 0)
    n++;
  free (line);
  fclose (f);
  char *s;
  if (asprintf (&s, "%d lines, the last one %zu bytes of buffer", n, cap) < 0)
    return -1;
  free (s);
  return n;
}

/* open_memstream's growing buffer; scandir's list and entries.  */
static int
streams (void)
{
  char *buf;
  size_t len;
  FILE *m = open_memstream (&buf, &len);
  for (int i = 0; i < 1000; i++)
    fprintf (m, "%d,", i);
  fclose (m);
  free (buf);
  /* A directory of its own, the same in both runs.  */
  mkdir ("entries", 0700);
  for (int i = 0; i < 3; i++)
    {
      char name[32];
      snprintf (name, sizeof name, "entries/%d", i);
      fclose (fopen (name, "w"));
    }
  struct dirent **list;
  int n = scandir ("entries", &list, NULL, alphasort);
  for (int i = 0; i < n; i++)
    free (list[i]);
  free (list);
  return n;
}

int
main (void)
{
  /* Unbuffered, stdout allocates nothing: its buffer's size would
     depend on where it goes, which differs under valgrind.  */
  setvbuf (stdout, NULL, _IONBF, 0);
  sort ();
  int ok = lines () == 200 && streams () == 5;
#ifndef DHAT_PLAIN
  CHECK (ok);
  /* A foreign site per caller: qsort's malloc is libc's own.  */
  struct mp_alloc_stats g;
  mp_alloc_stats (&g);
  CHECK (g.numAllocateOK > 10);
  return mpt_done ();
#else
  return !ok;
#endif
}

/* { dg-output "(^|\n)ok\n" } */
/* { dg-final { dhat-agrees report.txt } } */
