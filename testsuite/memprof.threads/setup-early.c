/* setup-refused.c with Boehm started before the runtime, as another
   library's constructor would start it: the runtime sets up when it
   starts (runtime/init.c), in the thread that started Boehm, so that
   the first thread that Boehm does not know is registered.  */
/* { dg-do run } */
/* { dg-options "-std=gnu11 -pthread -Wno-prio-ctor-dtor" } */
/* { dg-set-target-env-var MEMPROF "report=none" } */

#define BOEHM_FIRST
#include "setup-refused.c"

/* { dg-output "(^|\n)registered: before 1, after 1\n" } */
