/* bytesHighTide when one thread shrinks its blocks by realloc and
   another then allocates as much as was given back: the peak is what
   the first thread held before it shrank.  Once with blocks that glibc's
   realloc shrinks (64 kB to 16 bytes), once with blocks that the
   runtime shrinks itself (48 to 24 bytes, libc.c's no-call path).  A
   thread's bytesUsed reaches the global sums by flushes, at 1 MiB from
   the last (thread.h's MP_USED_FLUSH): the peak is exact to within that
   per thread, below (README).  Before, a shrink never flushed, and the
   other thread's flush took the first thread's old peak as still held.  */
/* { dg-do run } */
/* { dg-options "-std=gnu11 -pthread" } */
/* { dg-set-target-env-var MEMPROF "sampling_rate=0,report=none" } */

#include <pthread.h>
#include "../lib/mptest.h"

#define FLUSH ((long long) 1 << 20)

static size_t count, from, to;
static void **blocks, **others;
static pthread_barrier_t shrunk, done;

static void *
shrinker (void *arg)
{
  (void) arg;
  for (size_t i = 0; i < count; i++)
    blocks[i] = malloc (from);
  for (size_t i = 0; i < count; i++)
    blocks[i] = realloc (blocks[i], to);
  pthread_barrier_wait (&shrunk);
  pthread_barrier_wait (&done);   /* alive: no flush at its exit */
  return NULL;
}

static void
round_of (size_t n, size_t big, size_t small)
{
  struct mp_alloc_stats g0, g;
  mp_alloc_stats (&g0);
  count = n;
  from = big;
  to = small;
  blocks = malloc (count * sizeof *blocks);
  others = malloc (count * sizeof *others);
  long long arrays = 2 * (long long) (count * sizeof *blocks);
  pthread_t th;
  pthread_barrier_init (&shrunk, NULL, 2);
  pthread_barrier_init (&done, NULL, 2);
  pthread_create (&th, NULL, shrinker, NULL);
  pthread_barrier_wait (&shrunk);
  for (size_t i = 0; i < count; i++)
    others[i] = malloc (from - to);
  mp_alloc_stats (&g);
  long long peak = g0.bytesUsed + arrays + (long long) (count * from);
  CHECK (g.bytesHighTide <= peak + 4096);
  CHECK (g.bytesHighTide >= peak - 2 * FLUSH);
  pthread_barrier_wait (&done);
  pthread_join (th, NULL);
  for (size_t i = 0; i < count; i++)
    {
      free (blocks[i]);
      free (others[i]);
    }
  free (blocks);
  free (others);
  pthread_barrier_destroy (&shrunk);
  pthread_barrier_destroy (&done);
}

int
main (void)
{
  /* The smaller peak first: the high tide only rises.  */
  round_of ((size_t) 1 << 19, 48, 24);
  round_of (1024, 64 * 1024, 16);
  return mpt_done ();
}

/* { dg-output "^ok\n$" } */
