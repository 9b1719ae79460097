/* Stress: 8 threads allocate and free across the families (malloc,
   calloc, realloc, free; GC_MALLOC, GC_MALLOC_ATOMIC, uncollectable
   blocks and GC_FREE; custom blocks) at sampling rate 1e-2, while a
   tracker whose callbacks themselves malloc and free keeps metadata for
   every sampled block, and a ninth thread sends SIGUSR1 to the workers
   all along, interrupting them inside the allocators.  Every counter
   stays exact, every callback's own allocation is counted at its site,
   the sampled words are within 4 sigma of rate x words, and nothing
   deadlocks (the timeout).  */
/* { dg-do run } */
/* { dg-options "-std=gnu11 -pthread" } */
/* { dg-timeout 180 } */

#include <math.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <unistd.h>
#define GC_THREADS
#include <gc.h>
#include "../lib/mptest.h"
#ifdef __SANITIZE_ADDRESS__
#include <sanitizer/lsan_interface.h>
#endif

#define THREADS 8
#define N 20000
#define RATE 1e-2

static unsigned l_malloc, l_calloc, l_realloc, l_free, l_gc, l_atomic,
  l_uncoll, l_gcfree, l_meta, l_meta_free;
static atomic_long allocs, deallocs, sampled, words;
static atomic_long signals;
static atomic_int finished;     /* workers done; joined only after */
static pthread_t workers[THREADS];

/* The tracker: each sampled block's metadata is a malloc'ed copy of its
   sample count, freed when the block dies.  */
static void *
on_alloc (const struct mp_allocation *a, void *data)
{
  (void) data;
  long *meta = malloc (sizeof *meta); l_meta = __LINE__;
#ifdef __SANITIZE_ADDRESS__
  /* mp_memprof_stop forgets the blocks still tracked, and the program
     has no way to free their metadata then.  */
  __lsan_ignore_object (meta);
#endif
  *meta = (long) a->n_samples;
  atomic_fetch_add (&allocs, 1);
  atomic_fetch_add (&sampled, (long) a->n_samples);
  return meta;
}

static void *
on_promote (void *meta, void *data)
{
  (void) data;
  return meta;
}

static void
on_dealloc (void *meta, void *data)
{
  (void) data;
  atomic_fetch_add (&deallocs, 1);
  free (meta); l_meta_free = __LINE__;
}

static const struct mp_tracker tracker = {
  on_alloc, on_alloc, on_promote, on_dealloc, on_dealloc, NULL
};

static void
on_signal (int sig)
{
  (void) sig;
  atomic_fetch_add (&signals, 1);
}

static size_t
words_of (size_t bytes)
{
  return (bytes + sizeof (void *) - 1) / sizeof (void *);
}

static void *
worker (void *arg)
{
  long id = (long) arg;
  long w = 0;
  for (int i = 0; i < N; i++)
    {
      size_t n = 8 + (size_t) (i % 17) * 8 + (size_t) id;
      char *p = malloc (n); l_malloc = __LINE__;
      char *q = calloc (2, n); l_calloc = __LINE__;
      p = realloc (p, 2 * n); l_realloc = __LINE__;
      p[0] = q[0] = (char) i;
      /* (GCC deletes a malloc/free pair whose block is not used.)  */
      __asm__ volatile ("" : : "r" (p), "r" (q) : "memory");
      free (q), free (p); l_free = __LINE__;
      void *g = GC_MALLOC (n); l_gc = __LINE__;
      void *a = GC_MALLOC_ATOMIC (n); l_atomic = __LINE__;
      void *u = GC_MALLOC_UNCOLLECTABLE (n); l_uncoll = __LINE__;
      GC_FREE (u); l_gcfree = __LINE__;
      mp_free_custom (mp_alloc_custom (n));  /* sampled, not a site */
      __asm__ volatile ("" : : "r" (g), "r" (a) : "memory");
      w += 2 * words_of (2 * n) + 4 * words_of (n);   /* realloc: growth */
    }
  atomic_fetch_add (&words, w);
  atomic_fetch_add (&finished, 1);
  return NULL;
}

static void *
signaller (void *arg)
{
  (void) arg;
  while (atomic_load (&finished) < THREADS)
    {
      for (int i = 0; i < THREADS; i++)
        pthread_kill (workers[i], SIGUSR1);
      usleep (200);
    }
  return NULL;
}

int
main (void)
{
  GC_INIT ();
  struct sigaction sa;
  memset (&sa, 0, sizeof sa);
  sa.sa_handler = on_signal;
  sigaction (SIGUSR1, &sa, NULL);
  CHECK_EQ (mp_memprof_start (RATE, 4, &tracker), 0);

  pthread_t sig;
  for (long i = 0; i < THREADS; i++)
    CHECK_EQ (pthread_create (&workers[i], NULL, worker, (void *) i), 0);
  CHECK_EQ (pthread_create (&sig, NULL, signaller, NULL), 0);
  pthread_join (sig, NULL);     /* no pthread_kill of a joined thread */
  for (int i = 0; i < THREADS; i++)
    pthread_join (workers[i], NULL);
  GC_gcollect ();
  free (malloc (1));            /* a later allocation delivers deaths */
  CHECK_EQ (mp_memprof_stop (), 0);

  const long calls = (long) THREADS * N;
  unsigned each[] = { l_malloc, l_calloc, l_gc, l_atomic, l_uncoll };
  for (size_t k = 0; k < sizeof each / sizeof *each; k++)
    {
      struct mpt_site s = SITE (each[k]);
      CHECK_EQ (s.s.numAllocate, calls);
      CHECK_EQ (s.s.numAllocateOK, calls);
    }
  CHECK_EQ (SITE (l_realloc).s.numReallocate, calls);
  CHECK_EQ (SITE (l_free).s.numDeallocate, 2 * calls);
  CHECK_EQ (SITE (l_gcfree).s.numDeallocate, calls);
  CHECK_EQ (SITE (l_free).s.numForeignDeallocate, 0);

  /* The callbacks' own allocations: counted, never sampled.  */
  CHECK_EQ (SITE (l_meta).s.numAllocate, atomic_load (&allocs));
  CHECK_EQ (SITE (l_meta_free).s.numDeallocate, atomic_load (&deallocs));
  CHECK (atomic_load (&deallocs) <= atomic_load (&allocs));
  /* 5 of the 7 blocks of an iteration (and the realloc growth) are
     freed by hand, and the 2 others are garbage, collected by now.  */
  CHECK (atomic_load (&deallocs) > atomic_load (&allocs) / 2);

  double expected = RATE * (double) atomic_load (&words);
  double sigma = sqrt (expected * (1 - RATE));
  double got = (double) atomic_load (&sampled);
  if (fabs (got - expected) > 4 * sigma)
    fprintf (stderr, "FAIL sampled %.0f words, expected %.0f +- %.0f\n",
             got, expected, 4 * sigma), mpt_failures++;
  CHECK (atomic_load (&signals) > 0);
  return mpt_done ();
}

/* { dg-output "(^|\n)ok\n" } */
