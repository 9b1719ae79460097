/* The life of tracked GC blocks at rate 1, each path with exact counts
   and OCaml's order (alloc, promote, dealloc, each at most once):
   young blocks that die, promoted blocks that die later, large blocks,
   a block a finaliser resurrects, GC_free, a moving GC_realloc, and
   promote returning NULL.  Postponed callbacks are delivered at the next
   allocation (deliver ()).  */
/* { dg-do run } */
/* { dg-options "-std=gnu11" } */
/* { dg-timeout 120 } */

#include <gc.h>
#include "../lib/mptest.h"

#define K 1000
#define MAX_IDS 8192

/* Per block id: 1 young, 2 major, 3 dead; what each callback saw.
   volatile: see rate1.c.  */
static volatile unsigned char state[MAX_IDS], was_promoted[MAX_IDS];
static volatile int ids, promotes, dealloc_minors, dealloc_majors, bad;
static volatile int keep_promoted = 1;

static void *
meta_of (int id)
{
  return (void *) (uintptr_t) (id * 4 + 1);
}

static int
id_of (void *meta)
{
  uintptr_t m = (uintptr_t) meta;
  return m % 4 == 1 && m / 4 < MAX_IDS ? (int) (m / 4) : 0;
}

static void *
on_alloc (const struct mp_allocation *a, int young)
{
  if (a->source == MP_SOURCE_MALLOC || ids + 1 >= MAX_IDS)
    return NULL;
  int id = ++ids;
  state[id] = young ? 1 : 2;
  return meta_of (id);
}

MPT_ALLOC_CALLBACKS (on_alloc)

static void *
on_promote (void *meta, void *data)
{
  (void) data;
  int id = id_of (meta);
  bad += id == 0 || state[id] != 1;
  state[id] = 2;
  was_promoted[id] = 1;
  promotes++;
  return keep_promoted ? meta : NULL;
}

static void
on_dealloc (void *meta, int young)
{
  int id = id_of (meta);
  bad += id == 0 || state[id] != (young ? 1 : 2);
  state[id] = 3;
  if (young)
    dealloc_minors++;
  else
    dealloc_majors++;
}

static void
on_dealloc_minor (void *meta, void *data)
{
  (void) data;
  on_dealloc (meta, 1);
}

static void
on_dealloc_major (void *meta, void *data)
{
  (void) data;
  on_dealloc (meta, 0);
}

void *keep[K];
void *volatile resurrected;

/* The oracle: a disappearing link per block of keep[], which Boehm clears
   when it finds the block unreachable.  The collector is conservative,
   so a stale copy of a pointer may keep a block or two alive: the
   callbacks must agree with Boehm, block for block.  */
static GC_hidden_pointer links[K];

static int first_id;            /* of the last fill */

static __attribute__ ((noinline)) void
fill (size_t size)
{
  first_id = ids + 1;
  for (int i = 0; i < K; i++)
    {
      GC_unregister_disappearing_link ((void **) &links[i]);
      keep[i] = GC_MALLOC (size);
      links[i] = GC_HIDE_POINTER (keep[i]);
      GC_general_register_disappearing_link ((void **) &links[i], keep[i]);
    }
}

/* How many blocks of the last fill died, and were promoted, as the
   callbacks said.  */
static int
died (void)
{
  int n = 0;
  for (int id = first_id; id < first_id + K; id++)
    n += state[id] == 3;
  return n;
}

static int
promoted (void)
{
  int n = 0;
  for (int id = first_id; id < first_id + K; id++)
    n += was_promoted[id];
  return n;
}

/* How many blocks of the last fill Boehm found dead; most must be (seen
   here: up to 7% kept by stale pointers).  */
static int
dead (void)
{
  int n = 0;
  for (int i = 0; i < K; i++)
    n += links[i] == 0;
  CHECK (n >= K / 2);
  return n;
}

static __attribute__ ((noinline)) void
drop (void)
{
  memset (keep, 0, sizeof keep);
}

static void *volatile sink;

/* Deliver what is due: any allocation does.  */
static void
deliver (void)
{
  sink = malloc (8);
  free (sink);
}

static void
resurrect (void *obj, void *data)
{
  (void) data;
  resurrected = obj;
}

static __attribute__ ((noinline)) void
make_finalised (void)
{
  void *p = GC_MALLOC (32);
  GC_REGISTER_FINALIZER (p, resurrect, NULL, NULL, NULL);
}

static void
reset (void)
{
  promotes = dealloc_minors = dealloc_majors = 0;
}

int
main (void)
{
  GC_INIT ();
  mpt_start (1, (struct mp_tracker) { .alloc_minor = mpt_on_minor,
                                      .alloc_major = mpt_on_major,
                                      .promote = on_promote,
                                      .dealloc_minor = on_dealloc_minor,
                                      .dealloc_major = on_dealloc_major });

  /* young blocks that die young (the few a stale pointer keeps are
     promoted) */
  fill (16);
  drop ();
  collect ();
  deliver ();
  CHECK_EQ (promoted (), K - dead ());
  CHECK_EQ (died (), dead ());
  CHECK_EQ (dealloc_minors, dead ());

  /* promoted blocks, which die later */
  reset ();
  fill (16);
  collect ();
  deliver ();
  CHECK_EQ (promotes, K);
  collect ();
  deliver ();
  CHECK_EQ (promotes, K);       /* once only */
  CHECK_EQ (dealloc_majors, 0);
  drop ();
  collect ();
  deliver ();
  CHECK_EQ (died (), dead ());
  CHECK_EQ (dealloc_minors, 0);

  /* large blocks: major from the start */
  reset ();
  fill ((MP_MAX_YOUNG_WOSIZE + 1) * sizeof (void *));
  collect ();
  deliver ();
  CHECK_EQ (promoted (), 0);
  drop ();
  collect ();
  deliver ();
  CHECK_EQ (died (), dead ());

  /* a block that its finaliser resurrects is not dead */
  reset ();
  make_finalised ();
  collect ();
  GC_invoke_finalizers ();
  deliver ();
  CHECK (resurrected != NULL);
  CHECK_EQ (dealloc_minors + dealloc_majors, 0);
  CHECK_EQ (promotes, 1);
  resurrected = NULL;
  collect ();
  collect ();
  deliver ();
  CHECK_EQ (dealloc_majors, 1);

  /* GC_free and a moving GC_realloc end the block at once */
  reset ();
  void *p = GC_MALLOC (16);
  GC_FREE (p);
  CHECK_EQ (dealloc_minors, 1);
  int before = ids;
  p = GC_MALLOC (16);
  p = GC_REALLOC (p, 4000);
  CHECK_EQ (dealloc_minors, 2);
  CHECK_EQ (ids, before + 2);   /* the moved block is a new one */
  GC_FREE (p);
  CHECK_EQ (dealloc_majors, 1);

  /* promote saying NULL stops tracking */
  reset ();
  keep_promoted = 0;
  fill (16);
  collect ();
  deliver ();
  CHECK_EQ (promotes, K);
  drop ();
  collect ();
  deliver ();
  dead ();
  CHECK_EQ (died (), 0);

  CHECK_EQ (bad, 0);
  CHECK_EQ (mp_memprof_stop (), 0);
  return mpt_done ();
}

/* { dg-output "(^|\n)ok\n" } */
