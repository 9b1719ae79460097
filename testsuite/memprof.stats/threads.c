/* Exact counts with 4 threads through the lean entries: a unit that
   keeps numAllocate, numDeallocate and bytesUsed globally, none per
   call (work 3, entry.h), 50000 malloc/free pairs and 50000 GC_MALLOCs
   per thread, collections running meanwhile.  The global statistics
   are the sums of the per-site counters, kept by every thread.  */
/* { dg-do run } */
/* { dg-options "-std=gnu11 -pthread -fplugin-arg-memprof-stats=numAllocate+numDeallocate+bytesUsed -fplugin-arg-memprof-per-call=none" } */
/* { dg-timeout 120 } */

#include <pthread.h>
#include <gc.h>
#include "../lib/mptest.h"

#define THREADS 4
#define N 50000

static size_t gc_usable[THREADS];
void *volatile kept[THREADS];

static void *
worker (void *arg)
{
  int id = (int) (long) arg;
  for (int i = 0; i < N; i++)
    {
      char *p = malloc (16 + id);
      p[0] = (char) i;
      __asm__ volatile ("" : : "r" (p) : "memory");
      free (p);
      long *q = GC_MALLOC (24);
      q[0] = i;
      gc_usable[id] += GC_size (q);
      __asm__ volatile ("" : : "r" (q) : "memory");
    }
  kept[id] = malloc (100);
  return NULL;
}

int
main (void)
{
  pthread_t t[THREADS];
  for (long i = 0; i < THREADS; i++)
    pthread_create (&t[i], NULL, worker, (void *) i);
  for (int i = 0; i < THREADS; i++)
    pthread_join (t[i], NULL);

  CHECK_EQ (mp_alloc_stats_collected (),
            MP_STATS_numAllocate | MP_STATS_numDeallocate | MP_STATS_bytesUsed);
  struct mp_alloc_stats s;
  mp_alloc_stats (&s);
  size_t used = THREADS * 100;
  for (int i = 0; i < THREADS; i++)
    used += gc_usable[i];
  CHECK_EQ (s.numAllocate, THREADS * (2 * N + 1));
  CHECK_EQ (s.numDeallocate, THREADS * N);
  CHECK_EQ (s.bytesUsed, used);	/* GC blocks count GC_size: none freed */
  CHECK_EQ (s.bytesAllocated, 0);
  CHECK_TEXT (mp_report_per_call_statistics, "");
  return mpt_done ();
}

/* { dg-output "^ok\n" } */
