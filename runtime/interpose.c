/* interpose.c -- the malloc family, for the calls the plugin did not
   rewrite: libc's own (qsort's buffer, stdio's FILEs and buffers,
   getline), a library's built without the plugin, a program linked with
   the runtime by hand.

   The runtime defines malloc, free and their kin.  Linked into the
   program (libmemprof.a) or loaded with it (libmemprof.so), its
   definitions come before the C library's for the whole process, the
   C library's own calls included, as a malloc replacement's do.  Each
   forwards to glibc's allocator (__libc_malloc and its kin) through
   libc.c, which counts and tags the block as it does for a rewritten
   call, at a site of the calling address (foreign.c); malloc and free,
   the calls made most, are libc.c's own, where its fast paths inline
   with no call between.  So every
   allocation is counted once: the rewritten calls go to libc.c
   directly and never come here.

   What is not the program's is passed on uncounted: the runtime's own
   allocations do not come here at all (alloc.h), and those of the
   libraries it calls (libdw, libunwind, zlib, stdio at exit) come here
   while the thread is quiet.  Counting starts with the first call: if
   the runtime has not started yet (a library's constructor allocates
   before the runtime's), it starts it then; MEMPROF's interpose=0
   turns counting off.  Under ASan, whose allocator this would go
   around, none of this is built: the report says so.  */

#define MP_INTERPOSER
#include <errno.h>
#include "internal.h"
#include "libc.h"
#include "foreign.h"
#include "init.h"
#include "interpose.h"

#ifndef MP_ASAN

_Atomic int mp_interpose_state;

void
mp_interpose_setup (int on)
{
  atomic_store_explicit (&mp_interpose_state, on ? 1 : 2,
                         memory_order_release);
}

int
mp_interposing (void)
{
  return atomic_load_explicit (&mp_interpose_state, memory_order_acquire) == 1;
}

const char *
mp_interpose_off_reason (void)
{
  if (mp_libc_program_malloc ())
    return "the program's own malloc";
  return mp_interposing () ? NULL : "MEMPROF's interpose=0";
}

int
mp_interpose_start (void)
{
  mp_init ();
  return mp_interposing ();
}

#define RA __builtin_return_address (0)
#define SITE(call) mp_foreign_site (RA, call)

MP_INTERPOSE void *
calloc (size_t nmemb, size_t size)
{
  if (MP_UNLIKELY (!mp_interpose_counting ()))
    return __libc_calloc (nmemb, size);
  return mp_calloc_at (nmemb, size, SITE (MP_FOREIGN_CALLOC), RA);
}

/* A block of ours reallocated while quiet is still counted: it was the
   program's.  */
MP_INTERPOSE void *
realloc (void *p, size_t n)
{
  if (MP_UNLIKELY (!mp_interpose_counting ()))
    return mp_realloc_quiet (p, n);
  return mp_realloc_at (p, n, SITE (MP_FOREIGN_REALLOC), RA);
}

MP_INTERPOSE void *
reallocarray (void *p, size_t nmemb, size_t size)
{
  size_t n;
  if (MP_UNLIKELY (!mp_interpose_counting ()))
    {
      if (__builtin_mul_overflow (nmemb, size, &n))
        {
          errno = ENOMEM;
          return NULL;
        }
      return mp_realloc_quiet (p, n);
    }
  return mp_reallocarray_at (p, nmemb, size, SITE (MP_FOREIGN_REALLOCARRAY),
                             RA);
}

MP_INTERPOSE void *
memalign (size_t align, size_t n)
{
  if (MP_UNLIKELY (!mp_interpose_counting ()))
    return __libc_memalign (align, n);
  return mp_memalign_at (align, n, SITE (MP_FOREIGN_MEMALIGN), RA);
}

MP_INTERPOSE void *
aligned_alloc (size_t align, size_t n)
{
  if (MP_UNLIKELY (!mp_interpose_counting ()))
    {
      if (mp_aligned_alloc_refuses (align))
        {
          errno = EINVAL;
          return NULL;
        }
      return __libc_memalign (align, n);
    }
  return mp_aligned_alloc_at (align, n, SITE (MP_FOREIGN_ALIGNED_ALLOC), RA);
}

MP_INTERPOSE int
posix_memalign (void **out, size_t align, size_t n)
{
  if (MP_UNLIKELY (!mp_interpose_counting ()))
    return mp_posix_memalign_quiet (out, align, n);
  return mp_posix_memalign_at (out, align, n,
                               SITE (MP_FOREIGN_POSIX_MEMALIGN), RA);
}

MP_INTERPOSE void *
valloc (size_t n)
{
  if (MP_UNLIKELY (!mp_interpose_counting ()))
    return __libc_valloc (n);
  return mp_valloc_at (n, SITE (MP_FOREIGN_VALLOC), RA);
}

MP_INTERPOSE void *
pvalloc (size_t n)
{
  if (MP_UNLIKELY (!mp_interpose_counting ()))
    return __libc_pvalloc (n);
  return mp_pvalloc_at (n, SITE (MP_FOREIGN_PVALLOC), RA);
}

/* A program may use all the bytes malloc_usable_size reports (SQLite
   does): for our blocks that stops short of the tag.  */
MP_INTERPOSE size_t
malloc_usable_size (void *p)
{
  return mp_usable_size (p);
}

OWN (calloc);
OWN (realloc);
OWN (memalign);
OWN (valloc);
OWN (pvalloc);
OWN (malloc_usable_size);

#else /* MP_ASAN */

void
mp_interpose_setup (int on)
{
  (void) on;
}

int
mp_interposing (void)
{
  return 0;
}

const char *
mp_interpose_off_reason (void)
{
  return "the runtime is built with ASan";
}

#endif
