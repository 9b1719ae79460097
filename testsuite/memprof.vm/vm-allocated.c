/* mp_vm_allocated: a VM reports an object the plugin cannot see.  The
   plugin passes the call's site, so it counts there, exactly, young or
   major by size and kind; held across a collection, young objects are
   promoted.  A call the plugin does not see (through a pointer) counts
   at the runtime's site "mp_vm_allocated".  Bad input: a pointer that
   is not the start of a GC block, a size larger than the block, or a
   kind not of the GC heap gets one warning, and the call is counted, not
   the block.  */
/* { dg-do run } */
/* { dg-options "-std=gnu11" } */

#include <gc.h>
#include "../lib/mptest.h"

void *volatile sink;
static void *hold[50];

static int
runtime_site (const struct mp_site_info *i, void *data)
{
  if (strcmp (i->callee, "mp_vm_allocated") == 0 && i->line == 0)
    *(unsigned long *) data += i->stats.numAllocate;
  return 0;
}

int
main (void)
{
  GC_INIT ();
  double minor0, promoted0, major0, minor1, promoted1, major1;
  void (*volatile hidden) (void *, size_t, enum mp_source) = mp_vm_allocated;
  unsigned l_young = 0, l_atomic = 0, l_major = 0, l_unc = 0, l_bad = 0,
    l_null = 0;

  mp_counters (&minor0, &promoted0, &major0);
  GC_disable ();
  for (int i = 0; i < 50; i++)
    {
      void *p = GC_malloc (48);
      hold[i] = p;
      mp_vm_allocated (p, 6, MP_SOURCE_NORMAL); l_young = __LINE__;
      p = GC_malloc_atomic (24);
      mp_vm_allocated (p, 3, MP_SOURCE_ATOMIC); l_atomic = __LINE__;
      p = GC_malloc (4000);
      mp_vm_allocated (p, 500, MP_SOURCE_NORMAL); l_major = __LINE__;
      p = GC_malloc_uncollectable (16);
      mp_vm_allocated (p, 2, MP_SOURCE_UNCOLLECTABLE); l_unc = __LINE__;
      GC_free (p);
      hidden (GC_malloc (16), 2, MP_SOURCE_NORMAL);
    }
  GC_enable ();
  CHECK_SITE (l_young, "mp_vm_allocated", 50, 50 * 48, 50 * 6, 0);
  CHECK_SITE (l_atomic, "mp_vm_allocated", 50, 50 * 24, 50 * 3, 0);
  CHECK_SITE (l_major, "mp_vm_allocated", 50, 50 * 4000, 0, 50 * 500);
  CHECK_SITE (l_unc, "mp_vm_allocated", 50, 50 * 16, 0, 50 * 2);
  unsigned long hidden_calls = 0;
  mp_site_foreach (runtime_site, &hidden_calls);
  CHECK_EQ (hidden_calls, 50);

  /* Bad input: counted as calls, one warning for all.  */
  static char not_gc[64];
  mp_vm_allocated (not_gc, 8, MP_SOURCE_NORMAL); l_bad = __LINE__;
  mp_vm_allocated (GC_malloc (16), 100, MP_SOURCE_NORMAL);
  mp_vm_allocated (GC_malloc (16), 2, MP_SOURCE_MALLOC);
  mp_vm_allocated (NULL, 2, MP_SOURCE_NORMAL); l_null = __LINE__;
  struct mpt_site s = SITE (l_bad);
  CHECK_EQ (s.s.numAllocate, 1);
  CHECK_EQ (s.s.bytesAllocated, 0);
  CHECK_EQ (s.minor_words, 0);
  s = SITE (l_null);
  CHECK_EQ (s.s.numAllocate, 1);
  CHECK_EQ (s.s.numAllocateOK, 0);

  /* Young ones held across a collection are promoted.  */
  mp_counters (&minor1, &promoted1, &major1);
  /* Each young object was counted twice: by its GC_malloc here, and as
     reported.  */
  CHECK_EQ (minor1 - minor0, 2 * 50 * (6 + 3 + 2) + 2 + 2);
  collect ();
  mp_counters (&minor1, &promoted1, &major1);
  CHECK (promoted1 - promoted0 >= 50 * 6);
  for (int i = 0; i < 50; i++)
    CHECK (GC_base (hold[i]) == hold[i]);
  return mpt_done ();
}

/* { dg-output "memprof: mp_vm_allocated: 0x\[0-9a-f\]+ is not the start of a GC block of 8 words, or 0 not a GC kind: counted as a call, not as a block\n(.*\n)?ok\n" } */
