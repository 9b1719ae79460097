/* vm.c -- memprof.h's interface for language VMs: the objects they
   report (mp_vm_allocated), their sites, and the fast path that their
   generated code runs inline (struct mp_vm_thread).  The frames of the
   guest language are guest.c's.

   The fast path is the GC family's own count (boehm.h) cut to what a
   young object needs, on the thread's own record: the sampler's
   countdown, the site's counters, and an append to the young-block
   log.  So struct mp_vm_thread is a view of the record from its
   sample_left on, and a site's counters are at a fixed offset from it
   (sites.c puts them after the record, by site number).  Whatever needs
   more (a sample, a full log, the decided entries a collection leaves,
   the minor heap budget: the log's limit stops short for them) goes
   through mp_vm_slow, the ordinary count.  */

#include <errno.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include "boehm.h"
#include "libc.h"
#include "entry.h"
#include "libc.h"

#include "gcweak.h"

#define VIEW(field) (offsetof (struct mp_thread, field) \
                     - offsetof (struct mp_thread, sample_left))
_Static_assert (VIEW (sample_left) == offsetof (struct mp_vm_thread, words_left)
                && VIEW (young.entries) == offsetof (struct mp_vm_thread, log)
                && VIEW (young.count)
                   == offsetof (struct mp_vm_thread, log_count)
                && VIEW (young.limit)
                   == offsetof (struct mp_vm_thread, log_limit),
                "struct mp_vm_thread is a view of struct mp_thread");
_Static_assert ((int) SC_NUM_ALLOCATE == MP_VM_NUM_ALLOCATE
                && (int) SC_BYTES_ALLOCATED == MP_VM_BYTES_ALLOCATED
                && (int) SC_MINOR_WORDS == MP_VM_MINOR_WORDS
                && sizeof (mp_counter) == sizeof (int64_t),
                "the counters generated code adds to");
_Static_assert (MP_EPOCH_MASK == 15 && MP_WORDS_SHIFT == 48,
                "the young-block log's entries, as memprof.h gives them");

/* Where calls of mp_vm_allocated that the plugin did not rewrite, and
   slow paths without a site, count.  */
static struct mp_site vm_allocated_site = {
  MP_SITE_ABI, 0, "<runtime>", "<runtime>", "mp_vm_allocated", 0, 0,
  MP_KIND_VM_ALLOCATED, 0, NULL, 0, 0
};

/* Whether OBJ, of WORDS words of KIND, is what memprof.h allows.  */
static int
valid (void *obj, size_t words, enum mp_source kind)
{
  if (kind != MP_SOURCE_NORMAL && kind != MP_SOURCE_ATOMIC
      && kind != MP_SOURCE_UNCOLLECTABLE)
    return 0;
  return GC_base (obj) == obj && words <= GC_size (obj) / sizeof (void *);
}

/* Count OBJ, WORDS words of KIND, at SITE, in T, from RA.  */
static void
count (struct mp_thread *t, const struct mp_site *site, void *obj,
       size_t words, enum mp_source kind, const void *ra)
{
  static atomic_int warned;
  if (obj != NULL && !valid (obj, words, kind))
    {
      if (!atomic_exchange (&warned, 1))
        mp_warn ("mp_vm_allocated: %p is not the start of a GC block of %zu "
                 "words, or %d not a GC kind: counted as a call, not as a "
                 "block", obj, words, (int) kind);
      mp_count_malloc_note (t, site, obj, 0);
      return;
    }
  mp_count_gc (t, site, obj, words * sizeof (void *), obj ? GC_size (obj) : 0,
               kind, ra);
}

MP_API void
__mp_vm_allocated (void *obj, size_t words, enum mp_source kind,
                   const struct mp_site *site)
{
  count (mp_gc_self (), site, obj, words, kind, MP_RA);
}

MP_API void
mp_vm_allocated (void *obj, size_t words, enum mp_source kind)
{
  count (mp_gc_self (), &vm_allocated_site, obj, words, kind, MP_RA);
}

MP_API void
mp_vm_slow (void *obj, size_t words, enum mp_source kind,
            const struct mp_vm_site *site)
{
  const struct mp_site *s = (const struct mp_site *) site;
  count (mp_gc_self (), s ? s : &vm_allocated_site, obj, words, kind, MP_RA);
}

MP_API const struct mp_vm_site *
mp_vm_site (const char *function, const char *file, unsigned line,
            enum mp_vm_site_kind kind)
{
  size_t fn = strlen (function ? function : "??") + 1;
  size_t fl = file ? strlen (file) + 1 : 0;
  struct mp_site *s = calloc (1, sizeof *s + fn + fl);
  if (s == NULL)
    return NULL;
  char *strings = (char *) (s + 1);
  s->abi = MP_SITE_ABI;
  s->function = memcpy (strings, function ? function : "??", fn);
  s->file = fl ? memcpy (strings + fn, file, fl) : "<unknown>";
  s->line = line;
  s->kind = kind == MP_VM_PROCEDURE ? MP_KIND_VM_GUEST : MP_KIND_VM_CODE;
  s->callee = kind == MP_VM_PROCEDURE ? "(procedure)" : "(generated code)";
  /* Sites live as long as the process: the table of sites points here.  */
  if (__lsan_ignore_object)
    __lsan_ignore_object (s);
  return (const struct mp_vm_site *) s;
}

MP_API const struct mp_vm_site **
mp_vm_running (void)
{
  return &mp_self ()->guest_site;
}

MP_API struct mp_vm_thread *
mp_vm_thread (unsigned abi)
{
  if (abi != MP_VM_ABI)
    {
      errno = EINVAL;
      return NULL;
    }
  return (struct mp_vm_thread *) &mp_gc_self ()->sample_left;
}

MP_API ptrdiff_t
mp_vm_site_offset (const struct mp_vm_site *site)
{
  const struct mp_site *s = (const struct mp_site *) site;
  if (s == NULL || s->kind != MP_KIND_VM_CODE)
    {
      errno = EINVAL;
      return -1;
    }
  unsigned id = mp_site_number (s);
  return (ptrdiff_t) ((MP_RECORD_SLOTS - 1 + id) * sizeof (struct mp_site_counts)
                      - offsetof (struct mp_thread, sample_left));
}

MP_API const volatile uint64_t *
mp_vm_epoch (void)
{
  return (const volatile uint64_t *) &mp_gc_epoch;
}
