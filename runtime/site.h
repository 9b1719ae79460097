/* site.h -- the ABI between the memprof plugin and the runtime.

   The plugin (plugin/memprof.cc) rewrites each allocation call
   `p = malloc (n)` into `p = __mp_malloc (n, &site)`, where `site` is a
   static `struct mp_site` it emits in the same translation unit.  The
   runtime only reads a descriptor, except for `id`, which it fills in the
   first time the site allocates.  Any change of layout bumps MP_SITE_ABI;
   the runtime refuses descriptors of another ABI (it counts them under an
   "unknown" site rather than misreading them).

   Every runtime entry point takes the original arguments, in order,
   followed by the site pointer; __mp_malloc_usable_size, no allocation,
   takes no site.  */

#ifndef MEMPROF_SITE_H
#define MEMPROF_SITE_H

#include <stddef.h>

#define MP_SITE_ABI 1

/* One function inlined at the allocation point.  */
struct mp_inline_frame
{
  const char *function;   /* the inlined function */
  const char *file;       /* where it was called (its call site) ... */
  unsigned line;          /* ... in the function one level further out */
  unsigned column;
};

/* What the rewritten call originally was.  The family decides the heap
   (system allocator or Boehm) and the source of the block.  */
enum mp_site_kind
{
  MP_KIND_MALLOC, MP_KIND_CALLOC, MP_KIND_REALLOC, MP_KIND_REALLOCARRAY,
  MP_KIND_FREE, MP_KIND_STRDUP, MP_KIND_STRNDUP, MP_KIND_ALIGNED_ALLOC,
  MP_KIND_MEMALIGN, MP_KIND_POSIX_MEMALIGN, MP_KIND_VALLOC,
  MP_KIND_GC_MALLOC, MP_KIND_GC_MALLOC_ATOMIC, MP_KIND_GC_MALLOC_UNCOLLECTABLE,
  MP_KIND_GC_MALLOC_ATOMIC_UNCOLLECTABLE, MP_KIND_GC_MALLOC_IGNORE_OFF_PAGE,
  MP_KIND_GC_MALLOC_ATOMIC_IGNORE_OFF_PAGE, MP_KIND_GC_REALLOC, MP_KIND_GC_FREE,
  MP_KIND_GC_STRDUP, MP_KIND_GC_STRNDUP,
  /* A user allocator named by -fplugin-arg-memprof-allocator=NAME:FAMILY.  */
  MP_KIND_USER_MALLOC, MP_KIND_USER_GC, MP_KIND_USER_GC_ATOMIC,
  MP_KIND_USER_GC_UNCOLLECTABLE,
  MP_KIND_INTERNAL,       /* sites the runtime makes for its own API */
  /* Boehm's wider allocation API (gc_inline.h, gc_mark.h, gc_typed.h).  */
  MP_KIND_GC_MALLOC_KIND, MP_KIND_GC_MALLOC_KIND_GLOBAL,
  MP_KIND_GC_GENERIC_MALLOC, MP_KIND_GC_GENERIC_MALLOC_IGNORE_OFF_PAGE,
  MP_KIND_GC_GENERIC_MALLOC_UNCOLLECTABLE, MP_KIND_GC_MALLOC_EXPLICITLY_TYPED,
  MP_KIND_GC_MALLOC_EXPLICITLY_TYPED_IGNORE_OFF_PAGE,
  MP_KIND_GC_CALLOC_EXPLICITLY_TYPED, MP_KIND_GC_MALLOC_MANY,
  MP_KIND_GC_GENERIC_MALLOC_MANY, MP_KIND_GC_MEMALIGN,
  MP_KIND_GC_POSIX_MEMALIGN,
  /* An object popped from a free list inline: gc_inline.h's macros.  */
  MP_KIND_GC_CARVE,
  /* memprof.h's VM interface: mp_vm_allocated, the sites a VM makes
     for its generated code and for its guest language's procedures.  */
  MP_KIND_VM_ALLOCATED, MP_KIND_VM_CODE, MP_KIND_VM_GUEST,
  /* An allocation no rewritten call made: the runtime's interposed
     malloc family (interpose.c), a site per calling address.  */
  MP_KIND_FOREIGN,
  /* C++'s operator new and delete, in all their forms (cxx.c).  */
  MP_KIND_CXX_NEW, MP_KIND_CXX_NEW_ARRAY, MP_KIND_CXX_DELETE,
  MP_KIND_CXX_DELETE_ARRAY,
  MP_KIND_COUNT
};

/* One allocation site.  Invariant: everything but `id` is constant.  */
struct mp_site
{
  unsigned abi;           /* MP_SITE_ABI */
  unsigned id;            /* 0 until the runtime numbers the site, then
                             its index in the site table; written once,
                             under the site-table lock */
  const char *file;       /* the call's own location ... */
  const char *function;   /* the function GCC emitted code for: the
                             outermost one when calls were inlined */
  const char *callee;     /* the name as written: "malloc", "GC_malloc",
                             "__builtin_malloc", or a user allocator */
  unsigned line;
  unsigned column;
  unsigned kind;          /* enum mp_site_kind */
  unsigned n_inlined;     /* length of `inlined` */
  const struct mp_inline_frame *inlined;
                          /* innermost first: inlined[0].function is the
                             function whose body holds the call, called at
                             inlined[0].file:line from inlined[1].function
                             (or from `function` for the last entry) */
};

#endif
