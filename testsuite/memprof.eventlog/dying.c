/* A fatal signal that memprof handles (abort's) writes out what the
   threads' buffers hold before the process dies: the end of the last
   forced collection's span, which no collection's end wrote.  The file
   has no closing bracket, and every span in it is whole.  */
/* { dg-do run } */
/* { dg-options "-std=gnu11" } */
/* { dg-require-effective-target gc } */
/* { dg-set-target-env-var MEMPROF "eventlog=log.json,report=none" } */
/* { dg-shouldfail "abort" } */

#include <gc.h>
#include "../lib/mptest.h"

int
main (void)
{
  GC_INIT ();
  mp_minor ();
  mp_major ();
  abort ();
}

/* { dg-final { scan-eventlog log.json "^parsed \[0-9\]+ events, unclosed$" } } */
/* { dg-final { scan-eventlog log.json "^balanced$" } } */
/* { dg-final { scan-eventlog log.json "^forced mp_major 1$" } } */
