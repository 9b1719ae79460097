/* Boehm started by a plain pthread (not the main thread, unknown to
   Boehm) on its first GC allocation, and that thread exiting; then a
   thread created with GC_pthread_create (what gc.h's redirection gives
   GC_THREADS code) running the same function, then the main thread
   allocating and collecting.  No crash, and the counts are exact.  */
/* { dg-do run } */
/* { dg-options "-std=gnu11 -pthread" } */

#include <pthread.h>
#include <gc.h>
#include "../lib/mptest.h"

/* gc.h declares it only with GC_THREADS; the rest of the program is
   plain pthread code.  */
int GC_pthread_create (pthread_t *, const pthread_attr_t *,
		       void *(*) (void *), void *);

#define SIZE 64

void *volatile sink;
static unsigned l_thread, l_main;

static void *
allocate (void *arg)
{
  (void) arg;
  sink = GC_malloc (SIZE); l_thread = __LINE__;
  return NULL;
}

int
main (void)
{
  pthread_t th;
  /* Boehm is started here, by a thread that then exits.  */
  CHECK_EQ (pthread_create (&th, NULL, allocate, NULL), 0);
  CHECK_EQ (pthread_join (th, NULL), 0);
  CHECK (GC_is_init_called ());
  CHECK_EQ (GC_pthread_create (&th, NULL, allocate, NULL), 0);
  CHECK_EQ (pthread_join (th, NULL), 0);

  sink = GC_malloc (SIZE); l_main = __LINE__;
  struct mp_stat st0, st;
  mp_quick_stat (&st0);
  GC_gcollect ();
  mp_quick_stat (&st);
  CHECK_EQ (st.minor_collections - st0.minor_collections, 1);
  CHECK_EQ (st.major_collections - st0.major_collections, 1);

  struct mpt_site s = SITE (l_thread);
  CHECK_EQ (s.n, 1);
  CHECK_EQ (s.s.numAllocate, 2);
  CHECK_EQ (s.s.numAllocateOK, 2);
  CHECK_EQ (s.s.bytesAllocated, 2 * SIZE);
  CHECK_EQ (s.minor_words, 2 * W (SIZE));
  CHECK_EQ (s.major_words, 0);
  s = SITE (l_main);
  CHECK_EQ (s.s.numAllocate, 1);
  CHECK_EQ (s.minor_words, W (SIZE));

  struct mp_alloc_stats a;
  mp_alloc_stats (&a);
  CHECK_EQ (a.numAllocate, 3);
  CHECK_EQ (a.numAllocateOK, 3);
  CHECK_EQ (a.bytesAllocated, 3 * SIZE);
  CHECK_EQ (a.numDeallocate, 0);
  CHECK_EQ (st.minor_words, 3 * W (SIZE));
  return mpt_done ();
}

/* { dg-output "(^|\n)ok\n" } */
