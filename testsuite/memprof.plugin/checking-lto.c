/* GCC's own consistency checks (-fchecking=2: verify_type,
   verify_gimple, verify_ssa, ... between passes) accept what the plugin
   builds, with the late pass at link time (-flto), every function in
   its own LTO partition: the site descriptors' record types and their
   `const' variants, the user allocators' brackets, every user allocator
   family, inline chains through a static inline wrapper.  The counts
   stay exact.  (plugin.exp also compiles every test of this directory
   with -fchecking.)  */
/* { dg-do run } */
/* { dg-require-effective-target lto } */
/* { dg-require-effective-target gc } */
/* { dg-options "-std=gnu11 -flto -flto-partition=max -fchecking=2 -fplugin-arg-memprof-allocator=my_malloc:malloc,my_gc:gc,my_atomic:gc_atomic,my_uncollectable:gc_uncollectable" } */
/* { dg-prune-output "using serial compilation of" } */
/* { dg-prune-output "see the .-flto. option documentation" } */

#include <gc.h>
#include "../lib/mptest.h"

void *volatile sink;

void *my_malloc (size_t n) { return malloc (n); }
void *my_gc (size_t n) { return GC_MALLOC (n); }
void *my_atomic (size_t n) { return GC_MALLOC_ATOMIC (n); }
void *my_uncollectable (size_t n) { return GC_MALLOC_UNCOLLECTABLE (n); }

static inline void *
wrap (size_t n)
{
  return my_malloc (n);
}

static inline void *
wrap_twice (size_t n)
{
  return wrap (n + 1);
}

struct by_callee
{
  const char *callee;
  unsigned long count, bytes;
};

/* Sum the allocations of the sites whose callee is Q->callee.  */
static int
sum_callee (const struct mp_site_info *i, void *data)
{
  struct by_callee *q = data;
  if (strcmp (i->callee, q->callee) == 0)
    {
      q->count += i->stats.numAllocate;
      q->bytes += i->stats.bytesAllocated;
    }
  return 0;
}

static void
check_callee (const char *callee, unsigned long count, unsigned long bytes)
{
  struct by_callee q = { callee, 0, 0 };
  mp_site_foreach (sum_callee, &q);
  if (q.count != count || q.bytes != bytes)
    fprintf (stderr, "FAIL %s: %lu allocations of %lu bytes, expected"
             " %lu of %lu\n", callee, q.count, q.bytes, count, bytes);
  mpt_failures += q.count != count || q.bytes != bytes;
}

int
main (void)
{
  GC_INIT ();
  for (int i = 0; i < 10; i++)
    free (wrap (10));
  for (int i = 0; i < 4; i++)
    free (wrap_twice (20));
  for (int i = 0; i < 3; i++)
    sink = my_gc (32);
  for (int i = 0; i < 5; i++)
    sink = my_atomic (48);
  for (int i = 0; i < 2; i++)
    GC_FREE (my_uncollectable (64));
  check_callee ("my_malloc", 14, 10 * 10 + 4 * 21);
  check_callee ("my_gc", 3, 3 * 32);
  check_callee ("my_atomic", 5, 5 * 48);
  check_callee ("my_uncollectable", 2, 2 * 64);
  /* What the allocators call inside is theirs, not counted again.  */
  check_callee ("malloc", 0, 0);
  check_callee ("GC_malloc", 0, 0);
  return mpt_done ();
}

/* { dg-output "(^|\n)ok\n" } */
