/* OCaml's finalisation on Boehm: mp_finalise calls run in the reverse
   order of their registration for objects found unreachable together,
   after a finaliser the program registered first; a finaliser resurrects
   its object; mp_finalise_release lets the rest run from inside one;
   mp_finalise_last runs once the object is gone for good; alarms run at
   the end of each full collection until deleted; and bad input is
   refused with a warning.  */
/* { dg-do run } */
/* { dg-options "-std=gnu11" } */

#include <errno.h>
#include <gc.h>
#include "../lib/mptest.h"

static char order[64];          /* the tags of the calls, in call order */
static volatile int alarms;
void *a, *b, *c, *d, *saved;
void *volatile sink;

static void
note (const char *tag)
{
  strcat (order, tag);
}

static void
fin (void *obj, void *data)
{
  (void) obj;
  note (data);
}

static void
fin_last (void *data)
{
  note (data);
}

static void
resurrect (void *obj, void *data)
{
  note (data);
  saved = obj;
}

static void
release_then_note (void *obj, void *data)
{
  (void) obj;
  mp_finalise_release ();       /* the rest run now, before us */
  note (data);
}

static void
program_finaliser (void *obj, void *data)
{
  (void) obj;
  (void) data;
  note ("P");
}

static void
ring (void *data)
{
  (void) data;
  alarms++;
}

/* Finalisers whose data only memprof's records refer to.  */
#define MANY 200
void *objs[MANY];
static volatile int intact, plain_runs;

static void
check_data (void *obj, void *data)
{
  (void) obj;
  intact += ((long *) data)[0] == 4242;
}

static void
plain (void *obj, void *data)
{
  (void) obj;
  plain_runs++;
  if (data)
    intact += ((long *) data)[0] == 4242;
}

static void *
marked (void)
{
  long *d = GC_MALLOC (2 * sizeof (long));
  d[0] = 4242;
  return d;
}

static __attribute__ ((noinline)) void
make_many (void)
{
  for (int i = 0; i < MANY; i++)
    {
      objs[i] = GC_MALLOC (32);
      GC_register_finalizer (objs[i], plain, marked (), NULL, NULL);
      mp_finalise (check_data, objs[i], marked ());
    }
}

static __attribute__ ((noinline)) void
churn (void)
{
  for (int i = 0; i < 100000; i++)
    sink = GC_MALLOC (16);      /* reuses whatever was reclaimed */
}

static __attribute__ ((noinline)) void
make_objects (void)
{
  a = GC_MALLOC (32);
  b = GC_MALLOC (32);
  c = GC_MALLOC (32);
  d = GC_MALLOC (32);
}

static __attribute__ ((noinline)) void
drop_objects (void)
{
  a = b = c = d = NULL;
}

/* A collection, its finalisers, and an allocation to deliver what is
   due.  */
static void
cycle (void)
{
  collect ();
  GC_invoke_finalizers ();
  sink = malloc (8);
  free (sink);
}

int
main (void)
{
  GC_INIT ();

  /* order, several per object, and the program's own finaliser */
  make_objects ();
  GC_register_finalizer (c, program_finaliser, NULL, NULL, NULL);
  mp_finalise (fin, a, "a");
  mp_finalise (fin, b, "b");
  mp_finalise (fin, c, "c");
  mp_finalise (fin, a, "A");
  mp_finalise_last (fin_last, d, "d");
  mp_finalise_last (fin_last, b, "l");
  drop_objects ();
  cycle ();
  /* the program's finaliser runs as Boehm finds c, ours once all are
     found, latest first; d had no finaliser: it is gone already */
  CHECK_EQ (strcmp (order, "PAcbad"), 0);
  order[0] = '\0';
  cycle ();                     /* now b, finalised, is gone for good */
  CHECK_EQ (strcmp (order, "l"), 0);

  /* resurrection, then death for good */
  order[0] = '\0';
  make_objects ();
  mp_finalise (resurrect, a, "r");
  mp_finalise_last (fin_last, a, "L");
  drop_objects ();
  cycle ();
  CHECK_EQ (strcmp (order, "r"), 0);
  CHECK (saved != NULL && GC_base (saved) == saved);
  cycle ();
  CHECK_EQ (strcmp (order, "r"), 0);    /* alive: saved holds it */
  saved = NULL;
  cycle ();
  cycle ();
  CHECK_EQ (strcmp (order, "rL"), 0);

  /* release: the later-registered ones run from inside the first */
  order[0] = '\0';
  make_objects ();
  mp_finalise (fin, a, "1");
  mp_finalise (fin, b, "2");
  mp_finalise (release_then_note, c, "3");
  drop_objects ();
  cycle ();
  CHECK_EQ (strcmp (order, "213"), 0);

  /* alarms */
  struct mp_alarm *al = mp_create_alarm (ring, NULL);
  CHECK (al != NULL);
  cycle ();
  cycle ();
  cycle ();
  CHECK_EQ (alarms, 3);
  mp_delete_alarm (al);
  cycle ();
  CHECK_EQ (alarms, 3);

  /* data that only memprof's records refer to stays alive */
  make_many ();
  for (int i = 0; i < 3; i++)
    {
      collect ();
      churn ();
    }
  memset (objs, 0, sizeof objs);
  intact = plain_runs = 0;
  cycle ();
  CHECK_EQ (plain_runs, MANY);
  CHECK_EQ (intact, 2 * MANY);

  /* an mp_finalise object found before plain ones still gets its call */
  order[0] = '\0';
  make_objects ();
  mp_finalise (fin, a, "s");
  for (int i = 0; i < MANY; i++)
    {
      objs[i] = GC_MALLOC (32);
      GC_register_finalizer (objs[i], plain, NULL, NULL, NULL);
    }
  drop_objects ();
  memset (objs, 0, sizeof objs);
  cycle ();
  CHECK_EQ (strcmp (order, "s"), 0);

  /* bad input */
  errno = 0;
  mp_finalise (fin, sink, "x");         /* freed malloc memory: not GC */
  CHECK_EQ (errno, EINVAL);
  mp_finalise_last (NULL, GC_MALLOC (8), NULL);
  errno = 0;
  CHECK (mp_create_alarm (NULL, NULL) == NULL);
  CHECK_EQ (errno, EINVAL);
  mp_delete_alarm (NULL);
  return mpt_done ();
}

/* { dg-output "memprof: mp_finalise of 0x\[0-9a-f\]+, which is not the start of a GC block: ignored\n" } */
/* { dg-output "memprof: mp_finalise_last with no function: ignored\n" } */
/* { dg-output "ok\n" } */
