/* libc.h -- the malloc family on the system allocator (libc.c), for the
   calls the plugin rewrote (entry.h) and for those it did not, which
   interpose.c catches: each allocation at SITE, called from RA (where
   its call stack starts), with the semantics of the function it stands
   for.  */

#ifndef MEMPROF_LIBC_H
#define MEMPROF_LIBC_H

#include <stdint.h>
#include "internal.h"

void *mp_malloc_at (size_t n, const struct mp_site *site, const void *ra);
void *mp_calloc_at (size_t nmemb, size_t size, const struct mp_site *site,
                    const void *ra);
void *mp_realloc_at (void *p, size_t n, const struct mp_site *site,
                     const void *ra);
void *mp_reallocarray_at (void *p, size_t nmemb, size_t size,
                          const struct mp_site *site, const void *ra);
void *mp_memalign_at (size_t align, size_t n, const struct mp_site *site,
                      const void *ra);
void *mp_aligned_alloc_at (size_t align, size_t n, const struct mp_site *site,
                           const void *ra);
/* Whether the C library's aligned_alloc fails for ALIGN with EINVAL
   (glibc's from 2.38 on, for an ALIGN that is not a power of 2).  */
int mp_aligned_alloc_refuses (size_t align);
int mp_posix_memalign_at (void **out, size_t align, size_t n,
                          const struct mp_site *site, const void *ra);
void *mp_valloc_at (size_t n, const struct mp_site *site, const void *ra);
void *mp_pvalloc_at (size_t n, const struct mp_site *site, const void *ra);
void mp_free_at (void *p, const struct mp_site *site);
/* For allocators on top of the system allocator's blocks (cxx.c): the
   bytes a block is asked for beyond the request, for the tag; count P,
   a block of N + MP_TRAILER bytes at SITE (NULL: a failed allocation),
   and tag it; allocate and count a block of N bytes aligned to ALIGN
   (0: malloc's alignment), or return NULL with nothing counted; and
   count the end of P at SITE without freeing it, setting *N to its
   request if it is one of ours (returning 1).  */
#define MP_TRAILER sizeof (uint64_t)
void *mp_count_block (const struct mp_site *site, void *p, size_t n,
                      const void *ra);
void *mp_try_alloc_at (size_t n, size_t align, const struct mp_site *site,
                       const void *ra);
int mp_uncount_block (void *p, const struct mp_site *site, size_t *n);

/* malloc_usable_size, stopping short of the tag of our blocks.  */
size_t mp_usable_size (void *p);

/* While the thread is quiet (alloc.h): the program's blocks are counted
   at a site of the runtime's, the rest passed on.  */
void mp_free_quiet (void *p);
void *mp_realloc_quiet (void *p, size_t n);
int mp_posix_memalign_quiet (void **out, size_t align, size_t n);

#ifndef MP_ASAN
/* interpose.c's definitions of the malloc family, whichever the
   program's calls reach (libc.c's SYS).  */
void *mp_interposed_malloc (size_t);
void *mp_interposed_calloc (size_t, size_t);
void *mp_interposed_realloc (void *, size_t);
void mp_interposed_free (void *);
void *mp_interposed_memalign (size_t, size_t);
void *mp_interposed_valloc (size_t);
void *mp_interposed_pvalloc (size_t);
size_t mp_interposed_malloc_usable_size (void *);
#endif

void mp_libc_setup (uint64_t seed);
/* Whether the program has a malloc of its own, which the interposers
   leave in front (its blocks untagged): known once the runtime has
   started.  */
int mp_libc_program_malloc (void);
/* Count P, N bytes (0: not known) that an allocator returned at SITE
   with no allocation of ours: untagged, so its free will be foreign.  */
void mp_count_malloc_note (struct mp_thread *t, const struct mp_site *site,
                           void *p, size_t n);

#endif
