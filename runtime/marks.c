/* marks.c -- reading Boehm's mark bits inline, once the layout they
   are read through is proven on the running Boehm.

   Boehm finds an object's header through a two-level table: the top
   index (GC_arrays' _top_index, a hash table of bottom indices keyed by
   the address's high bits, chained through hash_link) and the bottom
   index (an array of header pointers by block).  With parallel marking,
   the header holds a mark byte per granule.  GC_is_marked does exactly
   this, behind a call and a PLT stub; at each collection the promotion
   check asks it about every young block, which was a tenth of a
   Boehm-heavy program's run.

   The layout is Boehm's private business (gc_hdrs.h, gc_priv.h), so it
   is proven before use, on the objects the promotion check asks about:
   for each, the walk is done with reads that cannot fault
   (process_vm_readv on ourselves), the header found must name the
   object's block and size, and its mark byte must agree with
   GC_is_marked.  Once PROOF marked and PROOF unmarked objects agree,
   the inline reader (marks.h) takes over for good; at the first
   disagreement or failed read, GC_is_marked stays for good.  Other
   than Boehm 8.2 on x86-64 there is nothing to prove: GC_is_marked is
   used.

   The walk to a header also gives an object's size, which the GC
   family's fast path reads at every allocation instead of calling
   GC_size (boehm.c).  That needs no mark byte, so it is proven apart,
   and sooner: on the first PROOF objects that the GC family's slow
   path sizes with GC_size, before any collection.

   The rest runs under the GC lock (the collector's callbacks,
   mp_stat's walk), which guards `state' and `agreed'.  */

#include <dlfcn.h>
#include <sys/uio.h>
#include <unistd.h>
#include "marks.h"

#include "gcweak.h"

#define PROOF 32

const char *const *mp_marks_top_index;
const char *const *mp_marks_size_index;

/* Objects whose header, found with reads that cannot fault, gave
   GC_size's answer, up to PROOF; -1 once one did not.  Any thread,
   atomically.  */
static atomic_int sized;

/* 0 while proving, -1 once refused, 1 once proven.  Set by
   mp_marks_setup, then by prove, under Boehm's lock (in collections).  */
static int state;
static unsigned agreed[2];      /* answers that agreed: unmarked, marked */

/* GC_top_index, if the running Boehm may have the layout marks.h knows:
   8.2 on x86-64.  Set once as Boehm starts; the size proof reads it in
   any thread (atomically).  */
static uintptr_t top_index;

/* Where a block's header names its block (struct hblkhdr's
   hb_block).  */
#define HDR_BLOCK 16

/* Whether the running Boehm may have the layout: 8.2 on x86-64, with
   GC_arrays, in which GC_top_index is.  Not from a collection: dlsym
   takes the dynamic linker's lock, which a thread Boehm stopped inside
   dlopen may hold.  */
static int
known_layout (void)
{
#if defined __x86_64__
  GC_word v = GC_get_version ();
  const char *arrays = dlsym (RTLD_DEFAULT, "GC_arrays");
  if ((v >> 8) != ((8 << 8) | 2) || arrays == NULL)
    return 0;
  __atomic_store_n (&top_index, (uintptr_t) arrays + 0x289f0,
                   __ATOMIC_RELEASE);
  return 1;
#else
  return 0;
#endif
}

/* Read a word at ADDR into *OUT without faulting: 0, or -1.  */
static int
read_word (uintptr_t addr, uintptr_t *out)
{
  struct iovec local = { out, sizeof *out };
  struct iovec remote = { (void *) addr, sizeof *out };
  return process_vm_readv (getpid (), &local, 1, &remote, 1, 0)
         == (ssize_t) sizeof *out ? 0 : -1;
}

/* The header of P's block, found through the layout from TOP with
   reads that cannot fault, if it names P's block and SIZE as its
   objects' size; 0 otherwise.  */
static uintptr_t
checked_header (uintptr_t top, void *p, size_t size)
{
  uintptr_t a = (uintptr_t) p, bi, key, hdr, v;
  uintptr_t hi = a >> (MP_MARKS_LOG_HBLK + MP_MARKS_LOG_BOTTOM);
  if (read_word (top + 8 * (hi & (((uintptr_t) 1 << MP_MARKS_LOG_TOP) - 1)),
                 &bi) != 0)
    return 0;
  for (int steps = 0;; steps++)
    {
      if (bi == 0 || steps > 64 || read_word (bi + MP_MARKS_BI_KEY, &key) != 0)
        return 0;
      if (key == hi)
        break;
      if (read_word (bi + MP_MARKS_BI_LINK, &bi) != 0)
        return 0;
    }
  uintptr_t block = a >> MP_MARKS_LOG_HBLK;
  uintptr_t slot = block & (((uintptr_t) 1 << MP_MARKS_LOG_BOTTOM) - 1);
  if (read_word (bi + 8 * slot, &hdr) != 0
      || read_word (hdr + HDR_BLOCK, &v) != 0
      || v != block << MP_MARKS_LOG_HBLK
      || read_word (hdr + MP_MARKS_HDR_SIZE, &v) != 0 || v != size)
    return 0;
  return hdr;
}

/* P's mark byte, found through the layout with reads that cannot
   fault, or -1 if a read fails or the header is not P's.  */
static int
checked_mark (void *p)
{
  uintptr_t a = (uintptr_t) p, v;
  uintptr_t hdr = checked_header (top_index, p, GC_size (p));
  if (hdr == 0)
    return -1;
  uintptr_t granule = (a & (((uintptr_t) 1 << MP_MARKS_LOG_HBLK) - 1)) >> 4;
  uintptr_t byte = hdr + MP_MARKS_HDR_MARKS + granule;
  if (read_word (byte & ~(uintptr_t) 7, &v) != 0)
    return -1;
  return (int) ((v >> (8 * (byte & 7))) & 0xff) != 0;
}

void
mp_marks_prove_size (void *p, size_t size)
{
  int n = atomic_load_explicit (&sized, memory_order_relaxed);
  uintptr_t top = __atomic_load_n (&top_index, __ATOMIC_ACQUIRE);
  if (n < 0 || n >= PROOF || top == 0)
    return;
  int next = checked_header (top, p, size) != 0 ? n + 1 : -1;
  /* Another thread's answer meanwhile counts too: count this one on
     top of it, unless that one refused.  */
  while (!atomic_compare_exchange_weak (&sized, &n, next))
    {
      if (n < 0 || n >= PROOF)
        return;
      next = next < 0 ? -1 : n + 1;
    }
  if (next == PROOF)
    __atomic_store_n (&mp_marks_size_index, (const char *const *) top,
                      __ATOMIC_RELEASE);
}

/* One more answer of GC_is_marked, M for P, to prove the layout with.  */
static void
prove (void *p, int m)
{
  if (checked_mark (p) != m)
    {
      state = -1;
      return;
    }
  agreed[m]++;
  if (agreed[0] >= PROOF && agreed[1] >= PROOF)
    {
      state = 1;
      /* Released: the GC family's fast path reads it outside the
         GC lock (boehm.c).  */
      __atomic_store_n (&mp_marks_top_index,
                        (const char *const *) top_index, __ATOMIC_RELEASE);
    }
}

void
mp_marks_setup (void)
{
  if (!known_layout ())
    state = -1;
}

int
mp_marked_slow (void *p)
{
  int m = GC_is_marked (p) != 0;
  /* Proof enough of this answer: a long-lived structure's thousands of
     marked blocks, met before any unmarked one, cost no more reads.  */
  if (state == 0 && agreed[m] < PROOF)
    prove (p, m);
  return m;
}
