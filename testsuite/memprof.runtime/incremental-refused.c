/* Boehm refuses its incremental mode when GC_DISABLE_INCREMENTAL is
   set.  MEMPROF's incremental=1 is then dropped with a warning when
   Boehm starts, and mp_get says 0; mp_set of incremental 1 fails with
   ENOTSUP and changes no other field; 0 is still accepted.  */
/* { dg-do run } */
/* { dg-options "-std=gnu11" } */
/* { dg-set-target-env-var MEMPROF "incremental=1,report=none" } */
/* { dg-set-target-env-var GC_DISABLE_INCREMENTAL "1" } */

#include <errno.h>
#include <gc.h>
#include "../lib/mptest.h"

void *volatile sink;

int
main (void)
{
  struct mp_control c;
  mp_get (&c);                  /* before Boehm: it is asked */
  CHECK_EQ (c.incremental, 0);
  GC_INIT ();
  sink = GC_MALLOC (16);
  CHECK (!GC_is_incremental_mode ());
  mp_get (&c);
  CHECK_EQ (c.incremental, 0);

  long verbose = c.verbose;
  c.incremental = 1;
  c.verbose = 0x20;
  errno = 0;
  CHECK_EQ (mp_set (&c), -1);
  CHECK_EQ (errno, ENOTSUP);
  mp_get (&c);
  CHECK_EQ (c.incremental, 0);
  CHECK_EQ (c.verbose, verbose);        /* nothing changed */

  c.incremental = 0;
  CHECK_EQ (mp_set (&c), 0);
  return mpt_done ();
}

/* { dg-output "^memprof: Boehm refuses incremental mode \\(GC_DISABLE_INCREMENTAL\\?\\): incremental=1 ignored\nok\n$" } */
