/* guest.h -- what a language VM tells the runtime about the program it
   runs (guest.c; memprof.h documents the interface).

   Two things:
   - the guest procedure running in each thread, a site of its own
     (MP_KIND_VM_GUEST) that the VM stores in the thread's record
     (struct mp_thread's guest_site): every GC allocation made while it
     is there is also counted at it, so that the report has exact counts
     per guest procedure.  Those counts are a second view of
     allocations already counted at their C sites: totals skip them;
   - the frame provider, whose frames (opaque words) are captured with
     each sampled call stack, after its C return addresses, and turned
     into function, file and line at report time.

   In a captured stack a guest frame word W is stored as MP_GUEST_FRAME
   | W, and the place where the VM was entered from C as MP_GUEST_ENTRY:
   neither can be a return address, whose top byte is 0 (nor be
   callstack.h's truncation mark, which comes before them).  Before a
   stack is shown, mp_guest_arrange puts the guest frames where they
   belong among the C frames.  */

#ifndef MEMPROF_GUEST_H
#define MEMPROF_GUEST_H

#include "internal.h"
#include "fork.h"

#define MP_GUEST_TAG_MASK (UINT64_C (0xff) << 56)
#define MP_GUEST_FRAME (UINT64_C (0xfe) << 56)
#define MP_GUEST_ENTRY (UINT64_C (0xfd) << 56)

/* Whether word RA of a captured stack is a guest frame or entry.  */
static inline int
mp_is_guest (uintptr_t ra)
{
  uintptr_t tag = ra & MP_GUEST_TAG_MASK;
  return tag == MP_GUEST_FRAME || tag == MP_GUEST_ENTRY;
}

/* Count an allocation of N bytes and WORDS words (MAJOR: in the major
   heap) at the guest procedure running in T, if any.  */
static inline __attribute__ ((always_inline)) void
mp_guest_count (struct mp_thread *t, int64_t n, uint64_t words, int major)
{
  const struct mp_site *g = (const struct mp_site *) t->guest_site;
  if (MP_LIKELY (g == NULL))
    return;
  struct mp_site_counts *c = mp_counts (t, g);
  mp_add (&c->c[SC_NUM_ALLOCATE], 1);
  mp_add (&c->c[SC_BYTES_ALLOCATED], n);
  mp_add (&c->c[major ? SC_MAJOR_WORDS : SC_MINOR_WORDS], (int64_t) words);
}

/* Whether SITE's counts are a second view of others' (a guest site):
   totals leave it out.  */
static inline int
mp_site_is_view (const struct mp_site *site)
{
  return site->kind == MP_KIND_VM_GUEST;
}

/* Append the frame provider's frames to BUF, which holds N of at most
   MAX entries; return the new N.  In the sampling thread, with its
   sampling suspended.  */
size_t mp_guest_capture (uintptr_t *buf, size_t n, size_t max);

/* The frame of guest entry RA (MP_GUEST_FRAME | word): from the
   provider's symbolise, cached for the life of the process, with copies
   of its strings; "??" when it has none.  NULL for an MP_GUEST_ENTRY,
   which shows no frame.  Not under any of the runtime's locks: it may
   call the provider.  */
const struct mp_frame *mp_guest_frame (uintptr_t ra);

/* The stack IN (N entries, as captured) as it is shown: its guest frames
   among its C frames as MEMPROF's vm_frames says, and its truncation
   mark, if any, last, into OUT, which has room for N; return how
   many.  */
size_t mp_guest_arrange (const uintptr_t *in, size_t n, uintptr_t *out);

/* Whether IN has any guest entry.  */
int mp_guest_in (const uintptr_t *in, size_t n);

void mp_guest_fork (enum mp_fork_step step);

#endif
