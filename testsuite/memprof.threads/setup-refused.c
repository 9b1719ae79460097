/* Boehm started by code the plugin did not see (GC_init called through
   a pointer), single-threaded still, and a thread that Boehm does not
   know makes the first GC allocation memprof sees: memprof's setup may
   not run there, as the thread that started Boehm could be inside it,
   unlocked (runtime/generations.c, setup_safe).  It warns once and
   leaves the thread unregistered; the starter's first GC allocation
   runs the setup, and a later thread is registered as usual.
   setup-early.c includes this file with BOEHM_FIRST, and
   setup-incremental.c with START_BOEHM.  */
/* { dg-do run } */
/* { dg-options "-std=gnu11 -pthread" } */
/* { dg-set-target-env-var MEMPROF "report=none" } */

/* GC_thread_is_registered, without the redirection of pthread_create.  */
#define GC_THREADS
#define GC_NO_THREAD_REDIRECTS
#include <gc.h>
#include <pthread.h>
#include <stdio.h>

void *volatile sink;
void (*volatile start_boehm) (void) = GC_init;
#ifndef START_BOEHM
# define START_BOEHM() start_boehm ()
#endif

static void *
work (void *arg)
{
  for (int i = 0; i < 3; i++)
    sink = GC_MALLOC (16);
  *(int *) arg = GC_thread_is_registered ();
  return NULL;
}

static int
registered_in_thread (void)
{
  pthread_t th;
  int registered = -1;
  pthread_create (&th, NULL, work, &registered);
  pthread_join (th, NULL);
  return registered;
}

#ifdef BOEHM_FIRST
/* Before the runtime's own constructor (priority 101).  */
__attribute__ ((constructor (100))) static void
start_boehm_first (void)
{
  start_boehm ();
}
#endif

int
main (void)
{
#ifndef BOEHM_FIRST
  START_BOEHM ();
#endif
  int before = registered_in_thread ();
  sink = GC_MALLOC (16);
  int after = registered_in_thread ();
  printf ("registered: before %d, after %d\n", before, after);
  return 0;
}

/* { dg-output "(^|\n)memprof: Boehm GC was started by code built without memprof, \[^\n\]*\n" } */
/* { dg-output "registered: before 0, after 1\n" } */
