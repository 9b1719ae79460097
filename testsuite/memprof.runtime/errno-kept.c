/* A successful allocation leaves errno as it was, the first one of a
   thread included: when the runtime starts from it (a constructor of the
   program runs before the runtime's own; starting reads MEMPROF with
   strtoul, which writes errno) and when Boehm starts.  */
/* { dg-do run } */
/* { dg-set-target-env-var MEMPROF "sites=5,v=0x400" } */

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <gc.h>
#include "../lib/mptest.h"

void *volatile sink;

static void *
first_calls (void *arg)
{
  (void) arg;
  errno = 1234;
  sink = malloc (10);
  CHECK_EQ (errno, 1234);
  free (sink);
  errno = 4321;
  sink = GC_MALLOC (10);
  CHECK_EQ (errno, 4321);
  return NULL;
}

static int errno_in_constructor;

__attribute__ ((constructor)) static void
early (void)
{
  errno = 77;
  sink = malloc (10);
  errno_in_constructor = errno;
  free (sink);
}

int
main (void)
{
  CHECK_EQ (errno_in_constructor, 77);
  first_calls (NULL);           /* the main thread's first calls */
  pthread_t th;
  pthread_create (&th, NULL, first_calls, NULL);    /* a new thread's */
  pthread_join (th, NULL);
  return mpt_done ();
}

/* { dg-output "(^|\n)ok\n" } */
