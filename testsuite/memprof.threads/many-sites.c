/* More sites than one commit step of the per-thread counter arrays
   (MP_COMMIT_SITES, 4096): numbering the sites past it must make the
   slots usable in every thread record, including those of threads that
   exist already and of threads made later.  Each of MPT_SITES malloc sites
   runs once in main and once in each thread.  */
/* { dg-do run } */
/* { dg-options "-std=gnu11 -pthread" } */
/* { dg-timeout 120 } */
/* GCC 12 at -O2 takes minutes over the 5000 sites under
   -fsanitize=object-size (in its redundancy elimination), and this file
   has no object whose size it could check.  */
/* { dg-additional-options "-fno-sanitize=object-size" } */

#include <pthread.h>
#include "../lib/mptest.h"
#include "../lib/mpmany.h"

#define THREADS 3

static pthread_barrier_t numbered;

static void *
worker (void *arg)
{
  free (malloc (1));      /* this thread's record exists... */
  pthread_barrier_wait (&numbered);
  mpt_many ();            /* ...before main numbered the sites */
  return arg;
}

static void *
late_worker (void *arg)
{
  mpt_many ();
  return arg;
}

struct tally
{
  unsigned sites, exact;
};

static int
count_many (const struct mp_site_info *i, void *data)
{
  struct tally *t = data;
  if (strcmp (i->callee, "malloc") == 0
      && strcmp (i->function, "mpt_many") == 0)
    {
      t->sites++;
      t->exact += i->stats.numAllocate == THREADS + 2
                  && i->stats.bytesAllocated == THREADS + 2;
    }
  return 0;
}

int
main (void)
{
  pthread_t t[THREADS], late;
  pthread_barrier_init (&numbered, NULL, THREADS + 1);
  for (int i = 0; i < THREADS; i++)
    pthread_create (&t[i], NULL, worker, NULL);
  mpt_many ();
  pthread_barrier_wait (&numbered);
  for (int i = 0; i < THREADS; i++)
    pthread_join (t[i], NULL);
  pthread_create (&late, NULL, late_worker, NULL);
  pthread_join (late, NULL);

  struct tally n = { 0, 0 };
  mp_site_foreach (count_many, &n);
  CHECK_EQ (n.sites, MPT_SITES);
  CHECK_EQ (n.exact, MPT_SITES);
  return mpt_done ();
}

/* { dg-output "(^|\n)ok\n" } */
