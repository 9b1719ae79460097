/* GC_enable_incremental as the program's first call of Boehm's starts
   Boehm as GC_INIT does, and memprof's setup runs there too, in main:
   a thread that Boehm does not know is registered at its first GC
   allocation.  Left to that allocation, the setup may not run in the
   thread (setup-refused.c: Boehm has no parallel markers in incremental
   mode), which stays unknown, and a collection it starts aborts
   ("Collecting from unknown thread").  */
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

static void *
work (void *arg)
{
  for (int i = 0; i < 3; i++)
    sink = GC_MALLOC (16);
  *(int *) arg = GC_thread_is_registered ();
  return NULL;
}

int
main (void)
{
  GC_enable_incremental ();
  pthread_t th;
  int registered = -1;
  pthread_create (&th, NULL, work, &registered);
  pthread_join (th, NULL);
  printf ("registered: %d\n", registered);
  return 0;
}

/* { dg-output "^registered: 1\n$" } */
