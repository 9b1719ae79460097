/* Each thread that allocates through interposition has a cache of the
   foreign sites (foreign.h), part of the runtime's own memory: the
   report's figure grows by one cache for each of N threads that run at
   once, exactly.  */
/* { dg-do run } */
/* { dg-options "-std=gnu11 -pthread" } */
/* { dg-skip-if "interposition stands aside under ASan" { asan } } */
/* { dg-set-target-env-var MEMPROF "interpose=1,sections=alloc" } */

#include <pthread.h>
#include "../lib/mptest.h"

#define N 4

void *(*volatile indirect_malloc) (size_t) = malloc;
void *volatile sink;
static pthread_barrier_t all_in;

/* The caches the report counts, and their bytes.  */
static void
caches (size_t *n, size_t *bytes)
{
  char *text = NULL;
  size_t size = 0;
  FILE *f = open_memstream (&text, &size);
  *n = *bytes = 0;
  CHECK (f != NULL);
  if (f == NULL)
    return;
  mp_report (f);
  fclose (f);
  const char *line = strstr (text, "\nforeign-site caches: ");
  CHECK (line != NULL);
  if (line != NULL)
    CHECK_EQ (sscanf (line, "\nforeign-site caches: %zu bytes in %zu thread"
                      " caches\n", bytes, n), 2);
  free (text);
}

/* A foreign allocation, then the wait for every thread's: so many
   threads at once, each with a cache.  */
static void *
allocate (void *arg)
{
  (void) arg;
  free (sink = indirect_malloc (24));
  pthread_barrier_wait (&all_in);
  return NULL;
}

int
main (void)
{
  free (sink = indirect_malloc (24));
  size_t n0, bytes0, n, bytes;
  caches (&n0, &bytes0);
  CHECK (n0 >= 1 && bytes0 >= n0 * 16384);
  pthread_barrier_init (&all_in, NULL, N + 1);
  pthread_t th[N];
  for (int i = 0; i < N; i++)
    CHECK_EQ (pthread_create (&th[i], NULL, allocate, NULL), 0);
  pthread_barrier_wait (&all_in);
  for (int i = 0; i < N; i++)
    pthread_join (th[i], NULL);
  caches (&n, &bytes);
  CHECK_EQ (n - n0, N);
  CHECK_EQ (bytes - bytes0, N * (bytes0 / n0));
  return mpt_done ();
}

/* { dg-output "(^|\n)ok\n" } */
