/* A VM's own allocator, as GNU Guile's scm_inline_gc_alloc: `static
   inline', it pops a per-thread free list that GC_generic_malloc_many
   refills, and takes GC_malloc_kind for sizes past its lists.  Named
   with allocator=, it is profiled inlined (at -O2) as well as called
   (at -O0): one allocation per object it returns, at the line that
   called it, exactly; the refills count nothing; the slow path's own
   allocation is charged to the caller's line once, not twice.  Four
   threads.  */
/* { dg-do run } */
/* { dg-options "-std=gnu11 -pthread -fplugin-arg-memprof-allocator=vm_alloc:gc" } */

#define GC_THREADS
#include <pthread.h>
#include <gc.h>
#include <gc/gc_inline.h>
#include "../lib/mptest.h"

#define THREADS 4
#define N 2000
#define LISTS 8

void *volatile sink;
static __thread void **freelists;
static unsigned l_small, l_other, l_large;

static inline void *
vm_alloc (size_t granules)
{
  if (granules >= LISTS)
    return GC_malloc_kind (granules * 16, GC_I_NORMAL);
  void *head = freelists[granules];
  if (__builtin_expect (head == NULL, 0))
    {
      GC_generic_malloc_many (granules * 16, GC_I_NORMAL,
			      &freelists[granules]);
      head = freelists[granules];
      if (head == NULL)
	return NULL;
    }
  freelists[granules] = *(void **) head;
  *(void **) head = NULL;
  return head;
}

static void *
worker (void *arg)
{
  (void) arg;
  freelists = GC_MALLOC_UNCOLLECTABLE (LISTS * sizeof (void *));
  for (int i = 0; i < N; i++)
    {
      sink = vm_alloc (1); l_small = __LINE__;
      sink = vm_alloc (3); l_other = __LINE__;
      if (i % 10 == 0)
	{
	  sink = vm_alloc (40); l_large = __LINE__;
	}
    }
  return NULL;
}

int
main (void)
{
  GC_set_all_interior_pointers (0);	/* as gc_inline.h wants */
  GC_INIT ();
  pthread_t th[THREADS];
  for (long i = 0; i < THREADS; i++)
    CHECK_EQ (pthread_create (&th[i], NULL, worker, (void *) i), 0);
  for (int i = 0; i < THREADS; i++)
    pthread_join (th[i], NULL);
  const unsigned long n = THREADS * N, big = THREADS * (N / 10);
  /* A popped object is counted at Boehm's size for it (the allocator's
     request is not known): at least its granules.  */
  struct mpt_site s = SITE (l_small);
  CHECK_EQ (s.s.numAllocate, n);
  CHECK_EQ (s.s.numAllocateOK, n);
  CHECK (s.s.bytesAllocated >= n * 16 && s.s.bytesAllocated <= n * 32);
  CHECK_EQ (s.minor_words * 8, s.s.bytesAllocated);
  s = SITE (l_other);
  CHECK_EQ (s.s.numAllocate, n);
  CHECK (s.s.bytesAllocated >= n * 48 && s.s.bytesAllocated <= n * 64);
  CHECK_SITE (l_large, NULL, big, big * 640, big * 80, 0);
  struct mp_alloc_stats st;
  mp_alloc_stats (&st);
  CHECK_EQ (st.numAllocate, 2 * n + big + THREADS);  /* + the lists */
  return mpt_done ();
}

/* { dg-output "ok\n" } */
