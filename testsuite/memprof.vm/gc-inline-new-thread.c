/* A thread that Boehm does not know (made by pthread_create, not by
   gc.h's redirection), whose first GC allocation is a pop of
   gc_inline.h's from a free list another thread filled, or a GC_MALLOC,
   after a malloc has given it the thread record that an exited thread
   left, its young-block log in use: the allocation registers the
   thread with Boehm, as any GC allocation of such a thread does, before
   the fast path may count it, and counts it exactly.  */
/* { dg-do run } */
/* { dg-options "-std=gnu11 -pthread" } */

#define GC_THREADS
#include <pthread.h>
#include <stdlib.h>
#include <gc.h>
#include <gc/gc_inline.h>
#include "../lib/mptest.h"
#undef pthread_create           /* gc.h's redirection */
#undef pthread_join

void *volatile sink;
static void **fl;               /* shared: filled by main */
static unsigned l_pop, l_malloc;

/* A thread that logs ARG young blocks, then exits: its record is
   free.  */
static void *
first (void *arg)
{
  for (long i = 0; i < (long) arg; i++)
    sink = GC_MALLOC (16);
  return NULL;
}

/* The site, of one pop by main (which numbers it) and one by the
   thread.  */
static __attribute__ ((noinline)) void
pop (void)
{
  void *p;
  GC_CONS (p, sink, sink, fl); l_pop = __LINE__;
  sink = p;
}

/* The thread unknown to Boehm: a pop if ARG is NULL, else a
   GC_MALLOC; whether it is registered then.  */
static void *
second (void *arg)
{
  void *m = malloc (16);        /* the thread's record */
  sink = m;
  free (m);
  if (arg == NULL)
    pop ();
  else
    {
      sink = GC_MALLOC (16); l_malloc = __LINE__;
    }
  return (void *) (long) GC_thread_is_registered ();
}

int
main (void)
{
  GC_set_all_interior_pointers (0);     /* as gc_inline.h wants */
  GC_INIT ();
  fl = GC_MALLOC_UNCOLLECTABLE (GC_TINY_FREELISTS * sizeof (void *));
  pop ();                       /* fills fl's list of conses */
  GC_disable ();                /* no collection while the thread is
                                   unknown to Boehm */
  pthread_t th;
  void *registered[2];
  CHECK_EQ (pthread_create (&th, NULL, first, (void *) 100L), 0);
  CHECK_EQ (pthread_join (th, NULL), 0);
  for (long i = 0; i < 2; i++)
    {
      CHECK_EQ (pthread_create (&th, NULL, second, (void *) i), 0);
      CHECK_EQ (pthread_join (th, &registered[i]), 0);
    }
  GC_enable ();
  CHECK_EQ ((long) registered[0], 1);
  CHECK_EQ ((long) registered[1], 1);
  CHECK_SITE (l_pop, "GC_CONS", 2, 32, 4, 0);
  CHECK_SITE (l_malloc, "GC_malloc", 1, 16, 2, 0);
  return mpt_done ();
}

/* { dg-output "ok\n" } */
