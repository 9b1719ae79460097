/* A thread's first GC allocation registers it with Boehm, whose
   pthread_getattr_np allocates through the C library's malloc,
   interposed.  Made inside a user allocator, those allocations must not
   take the allocator's call as theirs: the call counts once, at its
   caller, and nothing inside the allocator counts.  */
/* { dg-do run } */
/* { dg-options "-std=gnu11 -pthread -fplugin-arg-memprof-allocator=my_gc:gc" } */
/* { dg-set-target-env-var MEMPROF "interpose=1,report=none" } */
/* { dg-skip-if "interposition stands aside under ASan" { asan } } */

#include <pthread.h>
#include <gc.h>
#include "../lib/mptest.h"

void *volatile sink;

__attribute__ ((noinline)) void *
my_gc (size_t n)
{
  return GC_malloc (n);
}

static void *
worker (void *arg)
{
  (void) arg;
  sink = my_gc (24);		/* line 27 */
  return NULL;
}

int
main (void)
{
  GC_INIT ();
  pthread_t t;
  CHECK_EQ (pthread_create (&t, NULL, worker, NULL), 0);
  CHECK_EQ (pthread_join (t, NULL), 0);
  CHECK_SITE (27, "my_gc", 1, 24, 3, 0);
  CHECK_EQ (SITE (20).s.numAllocate, 0);
  return mpt_done ();
}

/* { dg-output "^ok\n$" } */
