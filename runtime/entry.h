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

/* User allocators (-fplugin-arg-memprof-allocator=NAME:FAMILY).  The
   plugin turns `p = NAME (args)` into
       saved = __mp_user_begin (&site);
       p = NAME (args);
       __mp_user_end (p, saved, &site);
   Allocations that NAME makes through instrumented calls are attributed
   to the user's site; if it made none (it lives in a library built
   without the plugin), __mp_user_end counts the result itself.  */
const struct mp_site *__mp_user_begin (const struct mp_site *);
void __mp_user_end (void *, const struct mp_site *saved,
                    const struct mp_site *);

#endif
