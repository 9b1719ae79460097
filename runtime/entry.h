/* entry.h -- the functions the plugin's rewritten calls land in.

   Each takes the arguments of the function it stands in for, in order,
   then the site descriptor (site.h), and keeps that function's exact
   semantics: return value, errno, alignment, NULL handling.  The plugin
   declares them itself with the same types; this header is for the
   runtime and for tests.  */

#ifndef MEMPROF_ENTRY_H
#define MEMPROF_ENTRY_H

#include <stddef.h>
#include "site.h"


/* The C library family: blocks live on the system allocator.  */
void *__mp_malloc (size_t, const struct mp_site *);
void *__mp_calloc (size_t, size_t, const struct mp_site *);
void *__mp_realloc (void *, size_t, const struct mp_site *);
void *__mp_reallocarray (void *, size_t, size_t, const struct mp_site *);
void __mp_free (void *, const struct mp_site *);
char *__mp_strdup (const char *, const struct mp_site *);
char *__mp_strndup (const char *, size_t, const struct mp_site *);
void *__mp_aligned_alloc (size_t, size_t, const struct mp_site *);
void *__mp_memalign (size_t, size_t, const struct mp_site *);
int __mp_posix_memalign (void **, size_t, size_t, const struct mp_site *);
void *__mp_valloc (size_t, const struct mp_site *);
/* Not an allocation: it takes no site.  */
size_t __mp_malloc_usable_size (void *);

/* The lean entries: for a site whose unit leaves statistics out
   (site.h's stats_omitted and per_call_omitted), __mp_NAME_wW is NAME
   whose fast path does only the work W (stats.h's mp_site_work, 0 to
   6): bit 1 counts the site's calls and bytes, 2 bytesUsed and
   bytesHighTide, 4 bytesSlack.  The plugin calls them for malloc,
   calloc, free, GC_malloc and GC_malloc_atomic, the calls a program
   makes most; their slow paths count everything, and the reports show
   what the site kept.  */
#define MP_LEAN_ENTRY(w)                                                    \
  void *__mp_malloc_w##w (size_t, const struct mp_site *);                 \
  void *__mp_calloc_w##w (size_t, size_t, const struct mp_site *);         \
  void __mp_free_w##w (void *, const struct mp_site *);                    \
  void *__mp_GC_malloc_w##w (size_t, const struct mp_site *);              \
  void *__mp_GC_malloc_atomic_w##w (size_t, const struct mp_site *);
MP_LEAN_ENTRY (0) MP_LEAN_ENTRY (1) MP_LEAN_ENTRY (2) MP_LEAN_ENTRY (3)
MP_LEAN_ENTRY (4) MP_LEAN_ENTRY (5) MP_LEAN_ENTRY (6)
#undef MP_LEAN_ENTRY

/* The Boehm family: blocks live on the collected heap.  */
void *__mp_GC_malloc (size_t, const struct mp_site *);
void *__mp_GC_malloc_atomic (size_t, const struct mp_site *);
void *__mp_GC_malloc_uncollectable (size_t, const struct mp_site *);
void *__mp_GC_malloc_atomic_uncollectable (size_t, const struct mp_site *);
void *__mp_GC_malloc_ignore_off_page (size_t, const struct mp_site *);
void *__mp_GC_malloc_atomic_ignore_off_page (size_t, const struct mp_site *);
void *__mp_GC_realloc (void *, size_t, const struct mp_site *);
void __mp_GC_free (void *, const struct mp_site *);
char *__mp_GC_strdup (const char *, const struct mp_site *);
char *__mp_GC_strndup (const char *, size_t, const struct mp_site *);

/* The rest of Boehm's allocation API (gcapi.c).  A descriptor of
   gc_typed.h, GC_descr, is a GC_word: unsigned long.  */
void *__mp_GC_malloc_kind (size_t, int, const struct mp_site *);
void *__mp_GC_malloc_kind_global (size_t, int, const struct mp_site *);
void *__mp_GC_generic_malloc (size_t, int, const struct mp_site *);
void *__mp_GC_generic_malloc_ignore_off_page (size_t, int,
                                              const struct mp_site *);
void *__mp_GC_generic_malloc_uncollectable (size_t, int,
                                            const struct mp_site *);
void *__mp_GC_malloc_explicitly_typed (size_t, unsigned long,
                                       const struct mp_site *);
void *__mp_GC_malloc_explicitly_typed_ignore_off_page (size_t, unsigned long,
                                                       const struct mp_site *);
void *__mp_GC_calloc_explicitly_typed (size_t, size_t, unsigned long,
                                       const struct mp_site *);
void *__mp_GC_malloc_many (size_t, const struct mp_site *);
void __mp_GC_generic_malloc_many (size_t, int, void **,
                                  const struct mp_site *);
void *__mp_GC_memalign (size_t, size_t, const struct mp_site *);
int __mp_GC_posix_memalign (void **, size_t, size_t, const struct mp_site *);
/* An object gc_inline.h's macros popped from a free list: the plugin
   finds the pop in their expansion and adds this call after it, with
   the offset of that free list in the array of lists and the object
   kind of its refill (all ones where it cannot tell).  */
void __mp_gc_carved (void *, size_t offset, int kind, const struct mp_site *);
/* The same for an object of a known size and kind, PTRFREE or NORMAL:
   SIZE_KIND is their sum (gcapi.c).  */
void __mp_gc_carved_young (void *, size_t size_kind, const struct mp_site *);
/* Their refill, which counts nothing.  */
void __mp_GC_generic_malloc_many_refill (size_t, int, void **);

/* GC_DEBUG spellings: (size, file, line) as gc.h's GC_EXTRAS pass them.  */
void *__mp_GC_debug_malloc (size_t, const char *, int, const struct mp_site *);
void *__mp_GC_debug_malloc_atomic (size_t, const char *, int,
                                   const struct mp_site *);
void *__mp_GC_debug_malloc_uncollectable (size_t, const char *, int,
                                          const struct mp_site *);
void *__mp_GC_debug_malloc_atomic_uncollectable (size_t, const char *, int,
                                                 const struct mp_site *);
void *__mp_GC_debug_malloc_ignore_off_page (size_t, const char *, int,
                                            const struct mp_site *);
void *__mp_GC_debug_malloc_atomic_ignore_off_page (size_t, const char *, int,
                                                   const struct mp_site *);
void *__mp_GC_debug_realloc (void *, size_t, const char *, int,
                             const struct mp_site *);
void __mp_GC_debug_free (void *, const struct mp_site *);
char *__mp_GC_debug_strdup (const char *, const char *, int,
                            const struct mp_site *);
char *__mp_GC_debug_strndup (const char *, size_t, const char *, int,
                             const struct mp_site *);

/* C++'s operator new and delete (cxx.c), by their mangled names: a
   std::align_val_t is a size_t, a const std::nothrow_t & a pointer.  */
void *__mp__Znwm (size_t, const struct mp_site *);
void *__mp__Znam (size_t, const struct mp_site *);
void *__mp__ZnwmRKSt9nothrow_t (size_t, const void *, const struct mp_site *);
void *__mp__ZnamRKSt9nothrow_t (size_t, const void *, const struct mp_site *);
void *__mp__ZnwmSt11align_val_t (size_t, size_t, const struct mp_site *);
void *__mp__ZnamSt11align_val_t (size_t, size_t, const struct mp_site *);
void *__mp__ZnwmSt11align_val_tRKSt9nothrow_t (size_t, size_t, const void *,
                                               const struct mp_site *);
void *__mp__ZnamSt11align_val_tRKSt9nothrow_t (size_t, size_t, const void *,
                                               const struct mp_site *);
void __mp__ZdlPv (void *, const struct mp_site *);
void __mp__ZdaPv (void *, const struct mp_site *);
void __mp__ZdlPvm (void *, size_t, const struct mp_site *);
void __mp__ZdaPvm (void *, size_t, const struct mp_site *);
void __mp__ZdlPvSt11align_val_t (void *, size_t, const struct mp_site *);
void __mp__ZdaPvSt11align_val_t (void *, size_t, const struct mp_site *);
void __mp__ZdlPvmSt11align_val_t (void *, size_t, size_t,
                                  const struct mp_site *);
void __mp__ZdaPvmSt11align_val_t (void *, size_t, size_t,
                                  const struct mp_site *);
void __mp__ZdlPvRKSt9nothrow_t (void *, const void *, const struct mp_site *);
void __mp__ZdaPvRKSt9nothrow_t (void *, const void *, const struct mp_site *);
void __mp__ZdlPvSt11align_val_tRKSt9nothrow_t (void *, size_t, const void *,
                                               const struct mp_site *);
void __mp__ZdaPvSt11align_val_tRKSt9nothrow_t (void *, size_t, const void *,
                                               const struct mp_site *);

/* User allocators (-fplugin-arg-memprof-allocator=NAME:FAMILY).  The
   plugin turns each call `p = NAME (args)` into
       took = __mp_user_begin (&site);
       p = NAME (args);
       if (took)
         __mp_user_end (p, took);
   and brackets NAME's own body the same way, with a site it gives where
   NAME was inlined (a call site no call is left for), so that the
   allocator need not be kept out of line.  A call under way takes the
   thread's user site (took = 1) unless another one already holds it,
   as NAME's body does when its call was bracketed: nested calls are one
   allocation, and the inner bracket's end is a test, not a call.  The
   first allocation that instrumented code makes inside is charged to
   the site and clears it; if none did (NAME popped a free list, or
   lives in a library built without the plugin), __mp_user_end counts
   the result itself.  */
int __mp_user_begin (const struct mp_site *);
void __mp_user_end (void *, int took);

#endif
