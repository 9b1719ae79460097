/* What memprof.h promises of a collection's callbacks when another
   thread is delivering: thread B sits in a dealloc_minor callback,
   waiting for main; main's mp_full_major finds main's dropped blocks
   dead, and returns without waiting for B (which would deadlock) and
   without their callbacks; B, let go, delivers them before its
   allocation returns to it.  */
/* { dg-do run } */
/* { dg-options "-std=gnu11 -pthread" } */
/* { dg-timeout 120 } */

#define GC_THREADS
#include <pthread.h>
#include <stdatomic.h>
#include <unistd.h>
#include <gc.h>
#include "../lib/mptest.h"

#define DROPPED 100
enum { MAIN_BLOCK = 1, B_BLOCK = 2, OTHER = 3 };

static __thread long tag;       /* of the blocks the thread allocates */
static __thread int in_b;
static atomic_int b_dropped, b_in_callback, release_b, b_blocked;
static atomic_int main_dead, main_dead_in_b, main_dead_when_b_returned;

static void *
alloc_tagged (const struct mp_allocation *a, void *data)
{
  (void) a, (void) data;
  return (void *) (tag ? tag : OTHER);
}

/* The first of B's blocks to die keeps B in its callback until main
   lets it go (5 seconds at most, so that a wait for it would not
   hang).  */
static void
dealloc_minor (void *meta, void *data)
{
  (void) data;
  if ((long) meta == B_BLOCK && !atomic_exchange (&b_blocked, 1))
    {
      atomic_store (&b_in_callback, 1);
      for (int i = 0; i < 5000 && !atomic_load (&release_b); i++)
        usleep (1000);
    }
  if ((long) meta == MAIN_BLOCK)
    {
      atomic_fetch_add (&main_dead, 1);
      atomic_fetch_add (&main_dead_in_b, in_b);
    }
}

static void __attribute__ ((noinline))
drop_some (long t)
{
  tag = t;
  for (int i = 0; i < DROPPED; i++)
    GC_MALLOC (32);
}

static void *
thread_b (void *arg)
{
  (void) arg;
  in_b = 1;
  drop_some (B_BLOCK);
  atomic_store (&b_dropped, 1);
  /* Each allocation delivers, at rate 1: the one after main's
     collection gets into the callback.  */
  while (!atomic_load (&b_in_callback))
    GC_MALLOC (16);
  atomic_store (&main_dead_when_b_returned, atomic_load (&main_dead));
  return NULL;
}

static const struct mp_tracker tracker = {
  .alloc_minor = alloc_tagged, .alloc_major = alloc_tagged,
  .dealloc_minor = dealloc_minor
};

int
main (void)
{
  GC_INIT ();
  CHECK_EQ (mp_memprof_start (1, 0, &tracker), 0);
  pthread_t b;
  CHECK_EQ (pthread_create (&b, NULL, thread_b, NULL), 0);
  while (!atomic_load (&b_dropped))
    usleep (100);
  GC_gcollect ();               /* B's blocks die; B delivers */
  while (!atomic_load (&b_in_callback))
    usleep (100);
  drop_some (MAIN_BLOCK);
  tag = 0;
  mp_full_major ();
  CHECK_EQ (atomic_load (&main_dead), 0);      /* left to B */
  atomic_store (&release_b, 1);
  pthread_join (b, NULL);
  CHECK (atomic_load (&main_dead_when_b_returned) >= DROPPED * 9 / 10);
  CHECK_EQ (atomic_load (&main_dead_in_b), atomic_load (&main_dead));
  mp_memprof_stop ();
  return mpt_done ();
}

/* { dg-output "(^|\n)ok\n" } */
