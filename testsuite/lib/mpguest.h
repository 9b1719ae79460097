/* mpguest.h -- a toy VM's frame provider for the guest-frame tests:
   #include after mptest.h, having defined MPT_GUEST_PROCS, and
   MPT_GUEST_NAME (P) and MPT_GUEST_LINE (P) for each procedure number
   P below it.

   Each thread keeps the numbers of the procedures it runs in
   mpt_shadow, outermost first, mpt_depth of them, each run by one
   activation of the VM's entry function: mpt_capture gives them
   innermost first, each followed by MP_FRAME_ENTRY, and mpt_symbolise
   names procedure P MPT_GUEST_NAME (P) at toy.scm:MPT_GUEST_LINE (P).  */

#ifndef MPGUEST_H
#define MPGUEST_H

#include <stdint.h>

static __thread uintptr_t mpt_shadow[16];
static __thread int mpt_depth;

static size_t
mpt_capture (uintptr_t *frames, size_t max, void *data)
{
  (void) data;
  size_t n = 0;
  for (int i = mpt_depth; i-- > 0 && n + 2 <= max;)
    {
      frames[n++] = mpt_shadow[i];
      frames[n++] = MP_FRAME_ENTRY;
    }
  return n;
}

static int
mpt_symbolise (uintptr_t w, struct mp_frame *out, void *data)
{
  (void) data;
  if (w >= MPT_GUEST_PROCS)
    return -1;
  out->function = MPT_GUEST_NAME (w);
  out->file = "toy.scm";
  out->line = MPT_GUEST_LINE (w);
  return 0;
}

#endif
