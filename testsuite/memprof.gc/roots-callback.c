/* A program's own has_static_roots callback keeps working under memprof,
   which puts its own in front of it to refuse the libraries it loads
   (runtime/roots.c): set before memprof starts Boehm (at the first
   allocation) or after, it is asked about the program's sections and
   its answers hold, a block that only a refused section points to dies
   and one that an accepted section points to lives; and it is never
   asked about libunwind's, which stays refused.  */
/* { dg-do run } */
/* { dg-options "-std=gnu11" } */
/* { dg-set-target-env-var MEMPROF "sampling_rate=1" } */

#define _GNU_SOURCE

#include <gc.h>
#include "../lib/mptest.h"
#include "../lib/mproots.h"

static volatile int asked_before, asked_after, asked_unwind;

/* Whether START is in libunwind.  */
static int
is_unwind (void *start)
{
  Dl_info info;
  return dladdr (start, &info) && strstr (info.dli_fname, "/libunwind.so");
}

/* Takes every section.  */
static int GC_CALLBACK
take_all (const char *name, void *start, size_t size)
{
  (void) name, (void) size;
  asked_before++;
  asked_unwind |= is_unwind (start);
  return 1;
}

/* Refuses the program's own (whose name is empty).  */
static int GC_CALLBACK
refuse_program (const char *name, void *start, size_t size)
{
  (void) size;
  asked_after++;
  asked_unwind |= is_unwind (start);
  return name[0] != '\0';
}

int
main (void)
{
  GC_INIT ();
  GC_register_has_static_roots_callback (take_all);
  CHECK (GC_MALLOC (16) != NULL);       /* memprof starts; libunwind */
  mpr_watch ();
  CHECK (!mpr_gone ());
  CHECK (asked_before > 0);
  mpr_read_roots ();
  mpr_check_own_libs (0);

  GC_register_has_static_roots_callback (refuse_program);
  collect ();                   /* may ask the program's alone */
  asked_unwind = 0;
  mpr_watch ();
  CHECK (mpr_gone ());
  CHECK (asked_after > 0);
  mpr_read_roots ();
  mpr_check_own_libs (0);
  CHECK (!asked_unwind);
  return mpt_done ();
}

/* { dg-output "(^|\n)ok\n" } */
