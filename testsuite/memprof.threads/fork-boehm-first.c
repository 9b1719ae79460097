/* Boehm started before the runtime, as another library's constructor
   would start it: its fork handler is registered first, and runs after
   ours (runtime/fork.c).  4 threads fork while a fifth collects without
   pause, so that forks meet collections ending, whose callbacks take the
   runtime's locks holding Boehm's, and a sixth calls mp_finalise, which
   calls Boehm; the children count exactly, and no fork may hang.

   fork-by-hand.c and fork-by-hand-late.c include this file for a program
   that forks by hand (BY_HAND): Boehm's fork handling off, and
   GC_atfork_prepare, which takes Boehm's lock, called before fork;
   Boehm started before the runtime, or in main (BOEHM_IN_MAIN).

   Every finaliser registered must run once the objects are dropped, but
   Boehm is conservative, and keeps an object alive while some scanned
   word holds its address.  Besides stale stack words (cleared before
   each collection), Boehm 8.2 keeps one in its own data, which it scans
   as any library's: the hint of its next mmap (last_addr, static in
   GC_unix_mmap_get_mem), the end of the heap section it mapped last,
   which is the start of the section above that one, and so the address
   of the object there, if one of ours is.  In about 1 run in 100 to
   400 that object was the one whose finaliser was missing: ten more
   collections with the stack cleared did not let it go, and clearing
   the hint did.  So each object whose finaliser has not run is checked
   against Boehm's own view of it (mpkept.h): one at most may stay
   reachable, as the hint holds one address; a runtime that lost or
   held back finalisers would leave more, or unreachable ones.  */
/* { dg-do run } */
/* { dg-options "-std=gnu11 -pthread -Wno-prio-ctor-dtor" } */
/* { dg-set-target-env-var MEMPROF "sampling_rate=1,report=none" } */
/* { dg-timeout 120 } */
/* { dg-skip-if "ASan's allocator is not fork-safe" { asan } } */

#include <pthread.h>
#include <stdatomic.h>
#define GC_THREADS
#include <gc.h>
#include "../lib/mptest.h"
#include "../lib/mpfork.h"
#include "../lib/mpkept.h"

#define THREADS 4
#define FORKS 50

static unsigned l_gc, l_fin;
static atomic_int stop, bad;
static atomic_long finalised, registered;

/* The objects registered, by number (the object's first word), in
   chunks allocated by the finaliser thread before their first object is
   registered, and never moved.  */
#define CHUNK 65536
#define CHUNKS 4096
struct object
{
  GC_hidden_pointer obj;
  atomic_int finalised;         /* times its finaliser ran */
  GC_hidden_pointer link;       /* a disappearing link, or 0 */
};
static struct object *objects[CHUNKS];

static struct object *
numbered (long i)
{
  return &objects[i / CHUNK][i % CHUNK];
}

/* Boehm's GC_init, called where the plugin does not rewrite it (as
   in a library built without memprof): the runtime's would start the
   runtime first, and its own fork handling.  */
static void (*volatile gc_init) (void) = GC_init;

static void
start_boehm (void)
{
#ifdef BY_HAND
  GC_set_handle_fork (0);
#endif
  gc_init ();
}

#ifndef BOEHM_IN_MAIN
/* Before the runtime's own constructor (priority 101).  */
__attribute__ ((constructor (100))) static void
start_boehm_first (void)
{
  start_boehm ();
}
#endif

static void *
collector (void *arg)
{
  (void) arg;
  while (!atomic_load (&stop))
    GC_gcollect ();
  return NULL;
}

static void
count (void *obj, void *data)
{
  (void) data;
  numbered (*(long *) obj)->finalised++;
  finalised++;
}

static void *
finaliser (void *arg)
{
  (void) arg;
  for (long i = 0; !atomic_load (&stop) && i < (long) CHUNK * CHUNKS; i++)
    {
      if (i % CHUNK == 0
          && (objects[i / CHUNK] = calloc (CHUNK, sizeof (struct object)))
             == NULL)
        break;
      long *o = GC_MALLOC (16); l_fin = __LINE__;
      *o = i;
      numbered (i)->obj = GC_HIDE_POINTER (o);
      mp_finalise (count, o, NULL);
      registered++;
    }
  return NULL;
}

/* Collections with the stack cleared, and the finalisers they find,
   until they have all run (TIMES at most).  */
static void
collect_finalise (int times)
{
  for (int k = 0; k < times && finalised < registered; k++)
    {
      collect ();
      GC_invoke_finalizers ();
    }
}

/* Check that every object that Boehm found unreachable was finalised
   once, and that one at most is still reachable (see above).  */
static void
check_finalised (void)
{
  collect_finalise (10);
  long kept = 0, lost = 0, twice = 0;
  for (long i = 0; i < registered; i++)
    if (numbered (i)->finalised == 0)
      mpt_watch (&numbered (i)->link, numbered (i)->obj);
  collect_finalise (10);
  for (long i = 0; i < registered; i++)
    {
      struct object *x = numbered (i);
      twice += x->finalised > 1;
      kept += x->finalised == 0 && x->link != 0;
      lost += x->finalised == 0 && x->link == 0;
    }
  CHECK (registered > 0);
  CHECK_EQ (twice, 0);
  CHECK_EQ (lost, 0);
  CHECK (kept <= 1);
  CHECK_EQ (finalised + kept, registered);
}

static int
fork_child (void)
{
#ifdef BY_HAND
  GC_atfork_prepare ();
  pid_t pid = fork ();
  if (pid == 0)
    {
      GC_atfork_child ();
      mpt_child_run (10);
    }
  GC_atfork_parent ();
  return pid < 0 ? 1 : mpt_wait_child (pid, 60);
#else
  return mpt_fork_child (10, 60);
#endif
}

static void *
forker (void *arg)
{
  (void) arg;
  for (int i = 0; i < FORKS; i++)
    {
      void *g = GC_MALLOC (40); l_gc = __LINE__;
      __asm__ volatile ("" : : "r" (g) : "memory");
      bad += fork_child ();
    }
  return NULL;
}

int
main (void)
{
#ifdef BOEHM_IN_MAIN
  start_boehm ();
#endif
  mpt_child_allocate (0);
  pthread_t c, f, t[THREADS];
  CHECK_EQ (pthread_create (&c, NULL, collector, NULL), 0);
  CHECK_EQ (pthread_create (&f, NULL, finaliser, NULL), 0);
  for (int i = 0; i < THREADS; i++)
    CHECK_EQ (pthread_create (&t[i], NULL, forker, NULL), 0);
  for (int i = 0; i < THREADS; i++)
    pthread_join (t[i], NULL);
  atomic_store (&stop, 1);
  pthread_join (c, NULL);
  pthread_join (f, NULL);
  CHECK_EQ (bad, 0);
  CHECK_EQ (SITE (l_gc).s.numAllocate, THREADS * FORKS);
  CHECK_EQ (SITE (l_fin).s.numAllocate, registered);
  check_finalised ();
  CHECK_EQ (mpt_child_count (), 0);
  return mpt_done ();
}

/* { dg-output "^ok\n$" } */
