/* Namesakes met by several threads at once: 2 threads run a_run (the
   static helper of namesakes/a.c, 4 MiB a call) and 2 run b_run (b.c's,
   16 MiB), 8 times each, while the main thread reads the space profiles
   over and over, so that the frames are named, and renamed when the
   second helper is met, under the readers.  Then the profiles are
   exact: `helper (a.c)' 64 MiB, `helper (b.c)' 256 MiB, and no
   `helper'.  */
/* { dg-do run } */
/* { dg-options "-std=gnu11 -g -pthread" } */
/* { dg-additional-sources "../memprof.output/namesakes/a.c ../memprof.output/namesakes/b.c" } */
/* { dg-set-target-env-var MEMPROF "sampling_rate=1,report=none" } */
/* { dg-timeout 120 } */

#include <pthread.h>
#include <stdatomic.h>
#include "../lib/mptest.h"

#define CALLS 8
#define MIB 1048576.0

void *volatile namesakes_sink;
void a_run (void);
void b_run (void);

static atomic_int running;

static void *
worker (void *arg)
{
  for (int i = 0; i < CALLS; i++)
    arg == NULL ? a_run () : b_run ();
  atomic_fetch_sub (&running, 1);
  return NULL;
}

struct seen
{
  double a, b;                  /* helper (a.c)'s and (b.c)'s bytes */
  int plain;                    /* profiles named `helper' */
};

static int
each (const struct mp_space_profile *p, void *data)
{
  struct seen *s = data;
  if (strcmp (p->function, "helper (a.c)") == 0)
    s->a = p->exclusive.allocated;
  else if (strcmp (p->function, "helper (b.c)") == 0)
    s->b = p->exclusive.allocated;
  else if (strcmp (p->function, "helper") == 0)
    s->plain++;
  return 0;
}

int
main (void)
{
  pthread_t t[4];
  atomic_store (&running, 4);
  for (long i = 0; i < 4; i++)
    CHECK (pthread_create (&t[i], NULL, worker, (void *) (i % 2)) == 0);
  struct seen s;
  while (atomic_load (&running) > 0)
    {
      memset (&s, 0, sizeof s);
      CHECK (mp_space_profile_foreach (each, &s) == 0);
      /* One helper alone is `helper' (or already named by its file);
         both, never.  */
      CHECK (s.plain == 0 || (s.a == 0 && s.b == 0));
    }
  for (int i = 0; i < 4; i++)
    CHECK (pthread_join (t[i], NULL) == 0);
  memset (&s, 0, sizeof s);
  CHECK (mp_space_profile_foreach (each, &s) == 0);
  CHECK_EQ (s.plain, 0);
  CHECK_EQ (s.a, 2 * CALLS * 4 * MIB);
  CHECK_EQ (s.b, 2 * CALLS * 16 * MIB);
  return mpt_done ();
}

/* { dg-output "^ok\n$" } */
