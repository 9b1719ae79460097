/* GC_enable_incremental as the program's first call of Boehm's starts
   Boehm as GC_INIT does, and memprof's setup runs there too, in main:
   a thread that Boehm does not know is registered at its first GC
   allocation.  Left to that allocation, the setup may not run in the
   thread (setup-refused.c: Boehm has no parallel markers in incremental
   mode), which stays unknown, and a collection it starts aborts
   ("Collecting from unknown thread").  */
/* { dg-do run } */
/* { dg-options "-std=gnu11 -pthread" } */
/* { dg-set-target-env-var MEMPROF "report=none" } */

#define START_BOEHM() GC_enable_incremental ()
#include "setup-refused.c"

/* { dg-output "^registered: before 1, after 1\n$" } */
