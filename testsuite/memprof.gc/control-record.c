/* mp_get and mp_set: the defaults, a round trip of every field, the
   fields that reach Boehm and the system, and every out-of-range value
   rejected with EINVAL without changing anything.  */
/* { dg-do run } */
/* { dg-options "-std=gnu11" } */

#include <errno.h>
#include <limits.h>
#include <stddef.h>
#include <sys/resource.h>
#include <gc.h>
#include "../lib/mptest.h"

/* Each field, a value out of its range below and above (LONG_MIN for
   none), and one in range other than the default.  */
static const struct
{
  size_t offset;
  long below, above, other;
} fields[] = {
#define F(name, below, above, other) \
  { offsetof (struct mp_control, name), below, above, other }
  F (minor_heap_size, 4095, (1L << 40) + 1, 1 << 20),
  F (major_heap_increment, -1, (1L << 40) + 1, 200),
  F (space_overhead, 0, 1000001, 120),
  F (verbose, -1, 0x2000, 0x400 | 0x008),
  F (max_overhead, -1, 1000001, 500),
  F (stack_limit, 0, (1L << 60) + 1, 1 << 20),
  F (allocation_policy, -1, 3, 0),
  F (window_size, 0, 51, 20),
  F (custom_major_ratio, 0, 1000001, 88),
  F (custom_minor_ratio, 0, 1000001, 50),
  F (custom_minor_max_size, -1, (1L << 40) + 1, 1 << 16),
  F (incremental, -1, 2, 1),
};
#define N_FIELDS (sizeof fields / sizeof fields[0])

static long *
field (struct mp_control *c, size_t i)
{
  return (long *) ((char *) c + fields[i].offset);
}

/* mp_set (C) with field I made V fails with EINVAL and changes
   nothing, not even the good field it comes with.  */
static void
rejected (size_t i, long v)
{
  struct mp_control before, c, after;
  mp_get (&before);
  c = before;
  size_t j = (i + 1) % N_FIELDS;
  *field (&c, j) = fields[j].other;
  *field (&c, i) = v;
  errno = 0;
  CHECK_EQ (mp_set (&c), -1);
  CHECK_EQ (errno, EINVAL);
  mp_get (&after);
  if (memcmp (&before, &after, sizeof before) != 0)
    {
      fprintf (stderr, "field %zu = %ld changed the record\n", i, v);
      CHECK (0);
    }
}

int
main (void)
{
  struct rlimit stack;
  getrlimit (RLIMIT_STACK, &stack);
  struct mp_control c;
  mp_get (&c);
  CHECK_EQ (c.minor_heap_size, 0);
  CHECK_EQ (c.major_heap_increment, 15);
  long d = (long) GC_get_free_space_divisor ();
  CHECK_EQ (c.space_overhead, (200 + d / 2) / d);
  CHECK_EQ (c.verbose, 0x400);
  CHECK_EQ (c.max_overhead, 1000000);
  CHECK_EQ (c.stack_limit, stack.rlim_cur == RLIM_INFINITY
                           ? 1L << 60 : (long) (stack.rlim_cur / 8));
  CHECK_EQ (c.allocation_policy, 2);
  CHECK_EQ (c.window_size, 1);
  CHECK_EQ (c.custom_major_ratio, 44);
  CHECK_EQ (c.custom_minor_ratio, 100);
  CHECK_EQ (c.custom_minor_max_size, 70000);
  CHECK_EQ (c.incremental, 0);

  errno = 0;
  CHECK_EQ (mp_set (NULL), -1);
  CHECK_EQ (errno, EINVAL);
  for (size_t i = 0; i < N_FIELDS; i++)
    {
      rejected (i, fields[i].below);
      rejected (i, fields[i].above);
      rejected (i, LONG_MIN);
      rejected (i, LONG_MAX);
    }
  rejected (0, 1);              /* below 4096 but for 0 */

  /* Round trips, one field at a time and all at once.  */
  for (size_t i = 0; i < N_FIELDS; i++)
    {
      struct mp_control want, got;
      mp_get (&want);
      *field (&want, i) = fields[i].other;
      CHECK_EQ (mp_set (&want), 0);
      mp_get (&got);
      CHECK_EQ (*field (&got, i), fields[i].other);
      CHECK (memcmp (&want, &got, sizeof want) == 0);
    }

  /* Where the fields land, once Boehm has started (at the first GC
     allocation).  */
  GC_INIT ();
  CHECK (GC_MALLOC (8) != NULL);
  CHECK_EQ (GC_get_free_space_divisor (), 2);   /* 200 / 120, rounded */
  CHECK (GC_is_incremental_mode ());
  getrlimit (RLIMIT_STACK, &stack);
  CHECK_EQ (stack.rlim_cur, (rlim_t) 8 << 20);
  GC_set_free_space_divisor (4);                /* behind memprof's back */
  mp_get (&c);
  CHECK_EQ (c.space_overhead, 50);

  /* Boehm cannot leave incremental mode; a stack limit over the hard
     limit cannot be set.  */
  rejected (N_FIELDS - 1, 0);
  stack.rlim_max = (rlim_t) 16 << 20;
  if (setrlimit (RLIMIT_STACK, &stack) == 0)
    {
      rejected (5, (16 << 20) / 8 + 1);
      mp_get (&c);
      c.stack_limit = (16 << 20) / 8;
      CHECK_EQ (mp_set (&c), 0);
    }
  return mpt_done ();
}

/* { dg-output "(^|\n)ok\n" } */
