/* minor_heap_size is per thread (as OCaml 5's minor heap is per domain)
   and any collection starts every thread's count again: two threads that
   each allocate 2^20 young words with a budget of 2^16 run between 16
   and 32 minor collections.  */
/* { dg-do run } */
/* { dg-options "-std=gnu11 -pthread" } */
/* { dg-set-target-env-var MEMPROF "h=16M,s=64k" } */

#define GC_THREADS
#include <gc.h>
#include <pthread.h>
#include "../lib/mptest.h"

static void *
work (void *arg)
{
  for (int i = 0; i < (1 << 20) / 16; i++)
    GC_MALLOC (128);
  return arg;
}

int
main (void)
{
  GC_INIT ();
  struct mp_control c;
  mp_get (&c);
  CHECK_EQ (c.minor_heap_size, 65536);
  GC_MALLOC (16);
  struct mp_stat s0, s1;
  mp_quick_stat (&s0);
  pthread_t t[2];
  for (int i = 0; i < 2; i++)
    CHECK_EQ (pthread_create (&t[i], NULL, work, NULL), 0);
  for (int i = 0; i < 2; i++)
    pthread_join (t[i], NULL);
  mp_quick_stat (&s1);
  long n = s1.minor_collections - s0.minor_collections;
  CHECK (n >= 16 && n <= 32);
  return mpt_done ();
}

/* { dg-output "(^|\n)ok\n" } */
