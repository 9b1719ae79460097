/* Callbacks postponed past the program's last allocation are delivered
   at exit, even with no report: here the promotion of a block that a
   collection found alive just before main returns.  */
/* { dg-do run } */
/* { dg-options "-std=gnu11" } */
/* { dg-set-target-env-var MEMPROF "report=none" } */

#include <gc.h>
#include "../lib/mptest.h"

void *keep;

static void *
on_alloc (const struct mp_allocation *a, void *data)
{
  (void) a;
  (void) data;
  return &keep;
}

static void *
on_promote (void *meta, void *data)
{
  (void) data;
  printf ("promoted %s\n", meta == &keep ? "ok" : "with bad metadata");
  return meta;
}

int
main (void)
{
  GC_INIT ();
  mpt_start (1, (struct mp_tracker) { .alloc_minor = on_alloc,
                                      .promote = on_promote });
  keep = GC_MALLOC (16);
  GC_gcollect ();
  return mpt_done ();
}

/* { dg-output "^ok\npromoted ok\n$" } */
