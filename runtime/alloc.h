/* alloc.h -- the allocator the runtime itself uses, past the one it
   puts in front of the program (interpose.c).

   The runtime defines malloc, free and their kin, so that it counts
   the allocations no rewritten call made (libc's own, a library's built
   without the plugin).  Its own allocations must not count: every file
   of the runtime includes this header (through internal.h), whose macros
   send its calls of the malloc family straight to glibc's __libc_*
   functions; so do the rewritten calls (libc.c), which count
   themselves.  What the runtime cannot redirect, the allocations of the
   libraries it calls (libdw, libunwind, zlib, stdio, qsort...), it
   brackets with mp_quiet_begin and mp_quiet_end, which make interpose.c
   pass them on uncounted.

   Under AddressSanitizer the allocator is ASan's, which these functions
   would go around: there interpose.c stands aside, and the runtime calls
   malloc as usual.  */

#ifndef MEMPROF_ALLOC_H
#define MEMPROF_ALLOC_H

#include <stddef.h>

/* Whether the runtime is built with AddressSanitizer: gcc says so with
   __SANITIZE_ADDRESS__, clang (the fuzzers') with __has_feature.  */
#if defined __SANITIZE_ADDRESS__
# define MP_ASAN 1
#elif defined __has_feature
# if __has_feature (address_sanitizer)
#  define MP_ASAN 1
# endif
#endif

#ifndef MP_ASAN
/* glibc's own entry points, which its malloc family calls.  */
extern void *__libc_malloc (size_t);
extern void __libc_free (void *);
extern void *__libc_calloc (size_t, size_t);
extern void *__libc_realloc (void *, size_t);
extern void *__libc_memalign (size_t, size_t);
extern void *__libc_valloc (size_t);
extern void *__libc_pvalloc (size_t);

# ifndef MP_INTERPOSER          /* interpose.c defines the real names */
#  define malloc(n) __libc_malloc (n)
#  define free(p) __libc_free (p)
#  define calloc(n, s) __libc_calloc (n, s)
#  define realloc(p, n) __libc_realloc (p, n)
#  define memalign(a, n) __libc_memalign (a, n)
#  define valloc(n) __libc_valloc (n)
# endif
#endif

/* How deep the calling thread is in runtime work whose allocations, in
   the libraries it calls, are not the program's: thread-local, so that
   it needs no record (it works before the runtime starts).  */
extern __thread int mp_quiet __attribute__ ((tls_model ("initial-exec")));

/* Swap the thread's cache of foreign sites (foreign.h) for an empty
   one while it is quiet (ON), back when it is not: the interposed
   malloc and free then test no depth, a miss in the empty cache sends
   them to their slow paths, which do.  */
void mp_foreign_quiet (int on);

static inline void
mp_quiet_begin (void)
{
  if (mp_quiet++ == 0)
    mp_foreign_quiet (1);
}

static inline void
mp_quiet_end (void)
{
  if (--mp_quiet == 0)
    mp_foreign_quiet (0);
}

/* A copy of S in the runtime's own memory, or NULL.  */
char *mp_strdup (const char *s);
char *mp_strndup (const char *s, size_t n);

#endif
