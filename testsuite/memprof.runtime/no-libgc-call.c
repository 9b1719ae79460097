/* Bad input: a program without libgc calls memprof.h's collection
   from code the plugin did not see (through a pointer), so nothing made
   the program need libgc (runtime/gcweak.h).  The runtime cannot call
   Boehm: one line says so, and how to link, and the program stops;
   no crash at a null function.  The same call seen by the plugin makes
   the program need libgc, and collects (no-libgc-seen.c).  */
/* { dg-do run } */
/* { dg-options "-std=gnu11 -Wl,--as-needed" } */
/* { dg-shouldfail "abort" } */
/* { dg-set-target-env-var MEMPROF "report=none" } */

#include <stdio.h>
#include <stdlib.h>
#include <memprof.h>

void *volatile sink;
static void (*volatile collect) (void) = mp_full_major;

int
main (void)
{
  sink = malloc (10);
  puts ("ok");
  fflush (stdout);
  collect ();
  puts ("collected");
  return 0;
}

/* { dg-output "^ok\nmemprof: this call needs Boehm GC, but libgc was not in the process when it started: link the program with -Wl,--no-as-needed -lgc\n$" } */
