/* The libraries the runtime loads for itself are no roots of Boehm's
   (runtime/roots.c, ownlibs.c): after the first sample has loaded
   libunwind, and the report libdw, none of their data, nor that of the
   libraries they need, is among Boehm's static roots; their 47 kB
   changed how often Boehm collects.  A library that the program linked
   itself stays a root, though the report needs it too (zlib, which
   libdw needs), and so does libgc.  */
/* { dg-do run } */
/* { dg-options "-std=gnu11 -lz" } */
/* { dg-set-target-env-var MEMPROF "sampling_rate=1" } */

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
  mpr_read_roots ();
  mpr_check_own_libs (1);
  check_program_lib ("/libz.so");
  check_program_lib ("/libgc.so");
  return mpt_done ();
}

/* { dg-output "(^|\n)ok\n" } */
