/* The libraries the runtime loads for itself are no roots of Boehm's
   (runtime/roots.c, ownlibs.c): after the first sample has loaded
   libunwind, and the report libdw, none of their data, nor that of the
   libraries they need, is among Boehm's static roots; their 47 kB
   changed how often Boehm collects.  Nor that of the libraries that
   libdw opened by itself during the report, if it did (libdebuginfod,
   libcurl), from the collection after the one that first saw them.  A
   library that the program linked itself stays a root, though the
   report needs it too (zlib, which libdw needs), and so does libgc.  */
/* { dg-do run } */
/* { dg-options "-std=gnu11 -lz" } */
/* libc's own mallocs sampled too: their stacks have libc's frames, whose
   debug information libdw looks for with libdebuginfod when it is not
   on the disk.  */
/* { dg-set-target-env-var MEMPROF "sampling_rate=1,interpose=1" } */

#define _GNU_SOURCE

#include <gc.h>
#include <zlib.h>
#include "../lib/mptest.h"
#include "../lib/mproots.h"

static void
check_program_lib (const char *name)
{
  int seen, rooted = mpr_rooted (name, &seen);
  CHECK (seen > 0);
  CHECK_EQ (rooted, seen);
}

/* NAME's data, if libdw opened it, is no root.  */
static void
check_opened_by_libdw (const char *name)
{
  int seen, rooted = mpr_rooted (name, &seen);
  if (rooted != 0)
    fprintf (stderr, "%s: %d writable segments, %d roots\n", name, seen,
             rooted);
  CHECK_EQ (rooted, 0);
}

int
main (void)
{
  GC_INIT ();
  CHECK (zlibVersion () != NULL);       /* the program's own */
  CHECK (GC_MALLOC (16) != NULL);       /* sampled: libunwind */
  mpr_read_roots ();
  mpr_check_own_libs (0);
  check_program_lib ("/libgc.so");
  FILE *null = fopen ("/dev/null", "w");
  CHECK (null != NULL);
  mp_report (null);                     /* names the stacks: libdw */
  fclose (null);
  collect ();
  mpr_read_roots ();
  mpr_check_own_libs (1);
  check_opened_by_libdw ("/libdebuginfod.so");
  check_opened_by_libdw ("/libcurl");
  check_program_lib ("/libz.so");
  check_program_lib ("/libgc.so");
  return mpt_done ();
}

/* { dg-output "(^|\n)ok\n" } */
