/* libc.c -- the malloc family, on the system allocator.

   Blocks must stay real malloc blocks: code built without the plugin may
   realloc or free them.  So there is no header; instead each block is
   asked for TRAILER bytes longer, and its last usable word holds a tag:

       high 40 bits  a hash of the block's address, the low 24 bits
                     and a per-process key
       bit 23        set while the sampler tracks the block (sample.c)
       low 23 bits   the slack: usable bytes (less the tag) minus request

   free and realloc read the word at the end of malloc_usable_size: if it
   is the tag of this very address, the block is ours and its requested
   size is known; otherwise the pointer is foreign (a getline buffer, a
   block from an uninstrumented library) and goes to the system allocator
   untouched.  Our free clears the tag first, so a stale tag never makes a
   later foreign block at the same address look like ours.  A foreign
   free of one of our blocks cannot be seen: its bytes stay in bytesUsed.
   The program's malloc_usable_size is rewritten to stop short of the
   tag.  */

#include <dlfcn.h>
#include <errno.h>
#include <gnu/libc-version.h>
#include <malloc.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "internal.h"
#include "entry.h"
#include "stats.h"
#include "libc.h"
#include "sample.h"
#include "dynlibs.h"
#ifndef MP_ASAN
# include "foreign.h"
# include "interpose.h"
/* This file's interposed malloc and free (below), weak from the first
   use of their names.  */
MP_INTERPOSE void *(malloc) (size_t);
MP_INTERPOSE void (free) (void *);
#endif

#define TRAILER MP_TRAILER
#define SLACK_BITS 23
#define SLACK_MASK ((UINT64_C (1) << SLACK_BITS) - 1)
#define TRACKED (UINT64_C (1) << SLACK_BITS)
#define HASH_MASK (~(SLACK_MASK | TRACKED))
#define UNTAG_TRACKED 2         /* see untag_block */

/* The allocator under the rewritten calls: the one the program's own
   calls reach.  That is glibc's behind the runtime's interposers
   (interpose.c), called directly; but a program with a malloc of its
   own keeps it (the interposers are weak), as does one linked with an
   allocator library ahead of libmemprof.so, and each function the
   runtime does not stand in front of is called by its name.  Deciding
   per call, from where the name resolves, costs a compare, and holds
   from the process's first allocation on.  Under ASan the allocator is
   ASan's, by name.  */
#ifdef MP_ASAN
# define SYS(name, args) (name) args
# define SYS_HOT(name, args) (name) args
#else
# define SYS(name, args) \
  (MP_LIKELY (interposed (name)) ? __libc_##name args : (name) args)
# define interposed(name) \
  ((void (*) (void)) &name == (void (*) (void)) &mp_interposed_##name)

/* malloc, realloc and free, the calls a program makes most, decide
   once: their
   pointer starts at a resolver, which decides as SYS does and stores
   the function in effect, so that the rewritten call makes one
   indirect call.  Any thread may store it, always the same value.  */
# define SYS_HOT(name, args) \
  (atomic_load_explicit (&sys_##name, memory_order_relaxed) args)
static void *resolve_malloc (size_t n);
static void *resolve_realloc (void *p, size_t n);
static void resolve_free (void *p);
static void *(*_Atomic sys_malloc) (size_t) = resolve_malloc;
static void *(*_Atomic sys_realloc) (void *, size_t) = resolve_realloc;
static void (*_Atomic sys_free) (void *) = resolve_free;

static void *
resolve_malloc (size_t n)
{
  void *(*f) (size_t) = interposed (malloc) ? __libc_malloc : malloc;
  atomic_store_explicit (&sys_malloc, f, memory_order_relaxed);
  return f (n);
}

static void *
resolve_realloc (void *p, size_t n)
{
  void *(*f) (void *, size_t) = interposed (realloc) ? __libc_realloc : realloc;
  atomic_store_explicit (&sys_realloc, f, memory_order_relaxed);
  return f (p, n);
}

static void
resolve_free (void *p)
{
  void (*f) (void *) = interposed (free) ? __libc_free : free;
  atomic_store_explicit (&sys_free, f, memory_order_relaxed);
  f (p);
}
#endif

/* Whether blocks are tagged: not when the program's malloc is its own,
   whose blocks' layout (their usable size) is unknown; then every block
   is counted when allocated, and its free as foreign.  Set once by
   mp_libc_setup, before any block is tagged.  */
static int tags;

/* The hash key, odd, set once by mp_libc_setup before any block is
   tagged.  */
static uint64_t tag_key = UINT64_C (0x9e3779b97f4a7c15);

/* Whether malloc_usable_size can be read straight from glibc's chunk
   header: set once by mp_libc_setup, after checking it on real blocks.  */
static int glibc_chunks;

/* Whether the C library's aligned_alloc refuses the alignments that
   are not a power of 2 (mp_aligned_alloc_refuses): set once by
   mp_libc_setup.  */
static int aligned_alloc_strict;

/* The C library's own malloc_usable_size, behind the one the runtime
   puts in front of the program (interpose.c); ASan's under ASan.  Set
   once by mp_libc_setup: from the shared libc, or in a static
   executable, which has none to ask, libc.a's internal name for it
   (null in a shared link, where libc.so does not export it).  */
#ifdef MP_ASAN
# define real_usable malloc_usable_size
#else
static size_t (*real_usable) (void *);
extern size_t __malloc_usable_size (void *) __attribute__ ((weak));
#endif

/* The usable size of P, from glibc's chunk header: the low 3 bits of
   the size word before the block are flags; bit 1 marks an mmapped
   chunk, whose header takes two words.  */
static inline size_t
chunk_usable (void *p)
{
  size_t h = *(const size_t *) ((uintptr_t) p - sizeof (size_t));
  return (h & ~(size_t) 7) - ((h & 2) ? 2 : 1) * sizeof (size_t);
}

static inline size_t
usable_size (void *p)
{
  return MP_LIKELY (glibc_chunks) ? chunk_usable (p) : real_usable (p);
}

/* Check chunk_usable against glibc's own answer, for small, aligned and
   mmapped blocks.  */
static int
chunk_layout_known (void)
{
#ifdef MP_ASAN
  /* ASan's malloc is not glibc's: the word before a block is its redzone,
     and reading it is an error, not a mismatch.  */
  return 0;
#else
  static const size_t sizes[] = { 1, 24, 100, 1000, 300000 };
  int ok = real_usable != NULL;
  for (size_t i = 0; ok && i < sizeof sizes / sizeof sizes[0]; i++)
    for (int aligned = 0; aligned < 2; aligned++)
      {
        void *p = aligned ? memalign (256, sizes[i]) : malloc (sizes[i]);
        if (p && chunk_usable (p) != real_usable (p))
          ok = 0;
        free (p);
      }
  return ok;
#endif
}

/* Whether this glibc's aligned_alloc is strict: from 2.38 on.  */
static int
glibc_strict_aligned_alloc (void)
{
#ifdef MP_ASAN
  return 1;
#else
  char *end;
  const char *v = gnu_get_libc_version ();
  unsigned long major = strtoul (v, &end, 10);
  unsigned long minor = *end == '.' ? strtoul (end + 1, NULL, 10) : 0;
  return major > 2 || (major == 2 && minor >= 38);
#endif
}

void
mp_libc_setup (uint64_t seed)
{
  aligned_alloc_strict = glibc_strict_aligned_alloc ();
#ifndef MP_ASAN
  void *libc = mp_libc_handle ();
  real_usable = libc ? (size_t (*) (void *)) dlsym (libc, "malloc_usable_size")
                     : __malloc_usable_size;
#endif
  tag_key = (tag_key ^ seed) | 1;
#ifdef MP_ASAN
  tags = 1;
#else
  tags = (void (*) (void)) &malloc == (void (*) (void)) &mp_interposed_malloc;
#endif
  glibc_chunks = tags && chunk_layout_known ();
}

int
mp_libc_program_malloc (void)
{
  return !tags;
}

/* The tag of P with LOW, its slack and tracked bit.  LOW is hashed too:
   a program that writes a byte or two over the tag (it took glibc's
   malloc_usable_size for its own) must spoil the whole tag, or our free
   or realloc would clear, and so lose, those bytes.  */
static inline uint64_t
make_tag (const void *p, uint64_t low)
{
  /* A multiply by the odd key spreads every bit below it over the 40
     kept ones: those of LOW, and the address's, of which bits 4 and up
     vary; the key, drawn per process, keeps the program's data from
     making a tag.  */
  uint64_t h = ((uintptr_t) p ^ low) * tag_key;
  return (h & HASH_MASK) | low;
}

/* Tag P, a block of USABLE bytes holding a request of N; return the
   slack, or -1 if it does not fit in the tag (then the block is left
   untagged, and counted as allocated but never as used).  */
static inline int64_t
tag_block (void *p, size_t n)
{
  if (MP_UNLIKELY (!tags))
    return -1;
  size_t usable = usable_size (p) - TRAILER;
  uint64_t slack = usable - n;
  if (slack > SLACK_MASK)
    return -1;
  uint64_t tag = make_tag (p, slack);
  memcpy ((char *) p + usable, &tag, sizeof tag);
  return (int64_t) slack;
}

/* Whether P, a block of USABLE bytes, ends in our tag, which is put in
   *TAG.  */
static inline int
tagged (void *p, size_t usable, uint64_t *tag)
{
  if (usable < TRAILER)
    return 0;
  usable -= TRAILER;
  memcpy (tag, (char *) p + usable, sizeof *tag);
  return *tag == make_tag (p, *tag & ~HASH_MASK)
         && (*tag & SLACK_MASK) <= usable;
}

/* If P is one of our blocks, set *N to its request and *SLACK, clear its
   tag, and return 1, or 1 | UNTAG_TRACKED if the sampler tracks it;
   return 0 for a foreign pointer.  */
static inline int
untag_block (void *p, size_t *n, size_t *slack)
{
  if (MP_UNLIKELY (!tags))
    return 0;
  size_t usable = usable_size (p);
  uint64_t tag;
  if (!tagged (p, usable, &tag))
    return 0;
  usable -= TRAILER;
  *slack = tag & SLACK_MASK;
  *n = usable - *slack;
  memset ((char *) p + usable, 0, sizeof tag);
  return 1 | (int) ((tag & TRACKED) >> (SLACK_BITS - 1));
}



/* Tag P again, for a request of N bytes and SLACK, TRACKED or not.  */
static void
retag_block (void *p, size_t n, size_t slack, int tracked)
{
  uint64_t tag = make_tag (p, (tracked ? TRACKED : 0) | slack);
  memcpy ((char *) p + n + slack, &tag, sizeof tag);
}

/* Reopen the young log's gate of T, whose user site alloc_fast took:
   apart, as it wants registers the fast path has not saved.  */
static void __attribute__ ((noinline))
user_site_taken (struct mp_thread *t)
{
  mp_young_gate (t);
}

/* Add N to T's bytesUsed on a fast path; return 1 if that makes a new
   peak of the thread's far from its last flush: then the caller
   flushes, by a tail call (flush_used), so that the path makes no call
   and saves no registers for one.  */
static inline __attribute__ ((always_inline)) int
used_fast (struct mp_thread *t, int64_t n)
{
  int64_t d = mp_own_get (&t->used_delta) + n;
  mp_own_set (&t->used_delta, d);
  if (MP_UNLIKELY (d > mp_own_get (&t->used_peak)))
    {
      mp_own_set (&t->used_peak, d);
      return d > MP_USED_FLUSH;
    }
  return 0;
}

/* The fast path of a block P of N bytes allocated at *SITE, in the
   common case only: P not NULL, a glibc chunk of its own, with a slack
   the tag can hold, the site charged numbered, no sample due.  Return 0
   with nothing counted otherwise, 1 when done, 2 when done but for a
   flush of bytesUsed (a new peak of the thread's is far from its last
   flush), which the caller makes: the path makes no call, so that the
   functions it is inlined in need save no registers for one.  It counts
   the statistics KEEP names (stats.h): all of them but in the lean
   entries, where the tests fold away.  Inside a user allocator's call
   (a program whose allocation wrapper is named as one, gawk's
   pma_malloc, makes every allocation there) the site charged is the
   user allocator's (thread.h's mp_charge_site): it is taken off the
   thread and put in *SITE at once, on a branch of its own, so that the
   common path pays one test for it and the slow path, if the fast one
   gives up later, charges *SITE all the same.  The lean entries leave
   such a block to the slow path, as the user allocator's site may keep
   more than they count.  */
static inline __attribute__ ((always_inline)) int
alloc_fast (const struct mp_site **site, void *p, size_t n, unsigned keep)
{
  struct mp_thread *t = mp_fast_tls;
  if (MP_UNLIKELY (p == NULL))
    return 0;
  if (MP_UNLIKELY (t->user_site != NULL))
    {
      if (keep != MP_STATS_EVERY)
        return 0;
      /* Read again, not kept from the test, which then needs no
         register: t->user_site is the owner's.  */
      *site = __atomic_load_n (&t->user_site, __ATOMIC_RELAXED);
      t->user_site = NULL;
      /* The gate of a thread not known to Boehm stays shut (thread.h's
         mp_young_gate): a program on malloc alone, gawk, calls nothing
         here.  */
      if (t->gc_registered != MP_GC_UNKNOWN)
        user_site_taken (t);
    }
  unsigned id = __atomic_load_n (&(*site)->id, __ATOMIC_ACQUIRE);
  int64_t left = mp_get_counter (&t->sample_left) - (int64_t) mp_words (n);
  /* One sign tests both, and mp_no_fast_thread's MP_NO_FAST: id - 1,
     widened first, is negative for id 0 alone.  Before the chunk's
     header is read: without glibc's chunks (ASan's allocator, a
     program's own), mp_fast_tls stays mp_no_fast_thread.  */
  if (MP_UNLIKELY ((left | ((int64_t) id - 1)) < 0))
    return 0;
  size_t h = *(const size_t *) ((uintptr_t) p - sizeof (size_t));
  size_t usable = (h & ~(size_t) 7) - sizeof (size_t) - TRAILER;
  uint64_t slack = usable - n;
  if (MP_UNLIKELY ((h & 2) != 0 || slack > SLACK_MASK))
    return 0;
  uint64_t tag = make_tag (p, slack);
  memcpy ((char *) p + usable, &tag, sizeof tag);
  struct mp_site_counts *c = mp_counts_of (t, id);
  if (keep & MP_KEEP_CALLS)
    mp_own_add (&c->c[SC_NUM_ALLOCATE], 1);
  if (keep & MP_STAT_BIT (bytesAllocated))
    mp_own_add (&c->c[SC_BYTES_ALLOCATED], (int64_t) n);
  atomic_store_explicit (&t->sample_left, left, memory_order_relaxed);
  if (keep & MP_STAT_BIT (bytesSlack))
    mp_own_add (&t->bytes_slack, (int64_t) slack);
  if ((keep & MP_KEEP_USED) && MP_UNLIKELY (used_fast (t, (int64_t) n)))
    return 2;
  return 1;
}

/* Flush the calling thread's bytesUsed (alloc_fast returned 2), then
   return P: a tail call.  */
static void * __attribute__ ((noinline))
flush_used (void *p)
{
  mp_flush_used (mp_fast_tls);
  return p;
}

/* The calling thread's record, which the fast paths may use from now
   on if glibc's chunk layout is known.  */
static struct mp_thread *
self_for_slow_path (void)
{
  struct mp_thread *t = mp_self ();
  if (glibc_chunks)
    mp_fast_tls = t;
  return t;
}

/* Tag P (NULL if the allocation failed), a block of SOURCE asked for at
   SITE, called from RA, and count it: the general path.  */
static void *
count_alloc_slow (const struct mp_site *site, void *p, size_t n,
                  enum mp_source source, const void *ra)
{
  struct mp_thread *t = self_for_slow_path ();
  struct mp_site_counts *c = mp_counts (t, mp_charge_site (t, site));
  mp_add (&c->c[SC_NUM_ALLOCATE], 1);
  if (p == NULL)
    {
      mp_add (&c->c[SC_NUM_ALLOCATE_FAILED], 1);
      return NULL;
    }
  mp_add (&c->c[SC_BYTES_ALLOCATED], (int64_t) n);
  int64_t slack = tag_block (p, n);
  if (MP_LIKELY (slack >= 0))
    {
      mp_note_alloc (t, (int64_t) n, slack);
      /* An untagged block cannot be tracked: its free would not be seen.  */
      if (MP_UNLIKELY (mp_sample (t, mp_words (n), p, source, ra,
                                  n + (size_t) slack)))
        retag_block (p, n, (size_t) slack, 1);
    }
  return p;
}

/* The RA of an entry point the program calls (an MP_API function)
   into which count_alloc_as is inlined: its own return address, which
   is then read on the slow path only.  */
#define RA_HERE NULL

/* The RA a slow path gets from a fast one given RA.  */
#define CALLER(ra) ((ra) != RA_HERE ? (ra) : MP_RA)

/* Tag P and count it, taking the fast path when it can: counting KEEP,
   or everything on the slow path.  */
static inline __attribute__ ((always_inline)) void *
count_alloc_as (const struct mp_site *site, void *p, size_t n,
                enum mp_source source, const void *ra, unsigned keep)
{
  int done = alloc_fast (&site, p, n, keep);
  if (MP_LIKELY (done == 1))
    return p;
  if (done == 2)
    return flush_used (p);
  return count_alloc_slow (site, p, n, source, CALLER (ra));
}

static inline __attribute__ ((always_inline)) void *
count_alloc (const struct mp_site *site, void *p, size_t n, const void *ra)
{
  return count_alloc_as (site, p, n, MP_SOURCE_MALLOC, ra, MP_STATS_EVERY);
}

/* N + TRAILER, or 0 with errno set when that overflows.  */
static inline size_t
padded (size_t n)
{
  if (MP_UNLIKELY (n > SIZE_MAX - TRAILER))
    {
      errno = ENOMEM;
      return 0;
    }
  return n + TRAILER;
}

static inline __attribute__ ((always_inline)) void *
malloc_as (size_t n, const struct mp_site *site, const void *ra,
           unsigned keep)
{
  size_t size;
  void *p = NULL;
  /* The carry of the add: one test.  */
  if (MP_LIKELY (!__builtin_add_overflow (n, TRAILER, &size)))
    p = SYS_HOT (malloc, (size));
  else
    errno = ENOMEM;
  return count_alloc_as (site, p, n, MP_SOURCE_MALLOC, ra, keep);
}

void *
mp_count_block (const struct mp_site *site, void *p, size_t n, const void *ra)
{
  return count_alloc (site, p, n, ra);
}

void *
mp_try_alloc_at (size_t n, size_t align, const struct mp_site *site,
                 const void *ra)
{
  size_t size = padded (n);
  void *p = size == 0 ? NULL
            : align ? SYS (memalign, (align, size)) : SYS (malloc, (size));
  return p ? count_alloc (site, p, n, ra) : NULL;
}

void *
mp_malloc_at (size_t n, const struct mp_site *site, const void *ra)
{
  return malloc_as (n, site, ra, MP_STATS_EVERY);
}

MP_API void *
__mp_malloc (size_t n, const struct mp_site *site)
{
  return malloc_as (n, site, RA_HERE, MP_STATS_EVERY);
}

static inline __attribute__ ((always_inline)) void *
calloc_as (size_t nmemb, size_t size, const struct mp_site *site,
           const void *ra, unsigned keep)
{
  size_t n = 0, total = 0;
  if (__builtin_mul_overflow (nmemb, size, &n))
    errno = ENOMEM;
  else
    total = padded (n);
  return count_alloc_as (site, total ? SYS (calloc, (1, total)) : NULL, n,
                         MP_SOURCE_MALLOC, ra, keep);
}

void *
mp_calloc_at (size_t nmemb, size_t size, const struct mp_site *site,
              const void *ra)
{
  return calloc_as (nmemb, size, site, ra, MP_STATS_EVERY);
}

MP_API void *
__mp_calloc (size_t nmemb, size_t size, const struct mp_site *site)
{
  return mp_calloc_at (nmemb, size, site, MP_RA);
}

static char *
strndup_at (const char *s, size_t max, const struct mp_site *site,
            const void *ra)
{
  size_t len = strnlen (s, max);
  char *p = SYS (malloc, (len + 1 + TRAILER));
  if (p)
    {
      memcpy (p, s, len);
      p[len] = '\0';
    }
  return count_alloc (site, p, len + 1, ra);
}

MP_API char *
__mp_strdup (const char *s, const struct mp_site *site)
{
  return strndup_at (s, SIZE_MAX, site, MP_RA);
}

MP_API char *
__mp_strndup (const char *s, size_t max, const struct mp_site *site)
{
  return strndup_at (s, max, site, MP_RA);
}

/* ALIGN is a power of 2, as memalign and aligned_alloc want.  */
static int
power_of_2 (size_t align)
{
  return align != 0 && (align & (align - 1)) == 0;
}

void *
mp_memalign_at (size_t align, size_t n, const struct mp_site *site,
                const void *ra)
{
  size_t size = padded (n);
  return count_alloc (site, size ? SYS (memalign, (align, size)) : NULL, n, ra);
}

/* Whether the C library's aligned_alloc refuses an ALIGN that is not a
   power of 2 (EINVAL), as glibc's does from 2.38 on, and ASan's; before,
   glibc's aligned_alloc is its memalign, which rounds such an alignment
   up to one.  */
int
mp_aligned_alloc_refuses (size_t align)
{
  return aligned_alloc_strict && !power_of_2 (align);
}

/* C11 wants aligned_alloc's size a multiple of ALIGN, which the trailer
   breaks; glibc's aligned_alloc is its memalign, but for the alignments
   it refuses.  */
void *
mp_aligned_alloc_at (size_t align, size_t n, const struct mp_site *site,
                     const void *ra)
{
  if (mp_aligned_alloc_refuses (align))
    {
      errno = EINVAL;
      return count_alloc (site, NULL, n, ra);
    }
  return mp_memalign_at (align, n, site, ra);
}

MP_API void *
__mp_aligned_alloc (size_t align, size_t n, const struct mp_site *site)
{
  return mp_aligned_alloc_at (align, n, site, MP_RA);
}

MP_API void *
__mp_memalign (size_t align, size_t n, const struct mp_site *site)
{
  return mp_memalign_at (align, n, site, MP_RA);
}

void *
mp_valloc_at (size_t n, const struct mp_site *site, const void *ra)
{
  size_t size = padded (n);
  return count_alloc (site, size ? SYS (valloc, (size)) : NULL, n, ra);
}

MP_API void *
__mp_valloc (size_t n, const struct mp_site *site)
{
  return mp_valloc_at (n, site, MP_RA);
}

/* posix_memalign reports through its result only: errno is left as it
   was.  Its ALIGN must also be a multiple of sizeof (void *).  */
int
mp_posix_memalign_at (void **out, size_t align, size_t n,
                      const struct mp_site *site, const void *ra)
{
  int saved = errno, rc = 0;
  void *p = NULL;
  if (!power_of_2 (align) || align % sizeof (void *) != 0)
    rc = EINVAL;
  else if ((p = mp_memalign_at (align, n, site, ra)) == NULL)
    rc = ENOMEM;
  if (rc == EINVAL)
    count_alloc (site, NULL, n, ra);
  errno = saved;
  if (rc == 0)
    *out = p;
  return rc;
}

MP_API int
__mp_posix_memalign (void **out, size_t align, size_t n,
                     const struct mp_site *site)
{
  return mp_posix_memalign_at (out, align, n, site, MP_RA);
}

/* Count the end of our block of N bytes and SLACK at SITE.  */
static inline __attribute__ ((always_inline)) void
count_free (struct mp_thread *t, struct mp_site_counts *c, size_t n,
            size_t slack)
{
  mp_add (&c->c[SC_NUM_DEALLOCATE], 1);
  mp_add (&c->c[SC_BYTES_CONTRACTED], (int64_t) n);
  mp_note_free (t, (int64_t) n, (int64_t) slack);
}

/* Whether P, not NULL, is an untracked block of ours in a glibc chunk
   of its own (not mmapped), for the fast paths: then *N is its request
   and *SLACK its slack, and its tag ends its usable bytes.  */
static inline __attribute__ ((always_inline)) int
fast_block (void *p, size_t *n, uint64_t *slack)
{
  size_t h = *(const size_t *) ((uintptr_t) p - sizeof (size_t));
  size_t usable = (h & ~(size_t) 7) - sizeof (size_t) - TRAILER;
  if (MP_UNLIKELY ((h & 2) != 0 || (h & ~(size_t) 7) < 2 * sizeof (size_t)
                   + TRAILER))
    return 0;                   /* mmapped (or not glibc's): read no tag */
  uint64_t tag;
  memcpy (&tag, (char *) p + usable, sizeof tag);
  /* A tracked block's tag has TRACKED set, which make_tag's, of the
     slack alone, has not: it fails the one compare, as a foreign
     block's does.  */
  *slack = tag & SLACK_MASK;
  *n = usable - *slack;
  return *slack <= usable && tag == make_tag (p, *slack);
}

/* The fast path of a free of P at SITE, in the common case only: P is
   an untracked block of ours in a glibc chunk of its own, the site is
   numbered, and bytesUsed is far from a flush.  Return 0 with nothing
   done otherwise.  It counts what KEEP names, as alloc_fast.  */
static inline __attribute__ ((always_inline)) int
free_fast (void *p, const struct mp_site *site, unsigned keep)
{
  struct mp_thread *t = mp_fast_tls;
  /* Before the chunk's header is read (see alloc_fast).  */
  if (MP_UNLIKELY (t == &mp_no_fast_thread || p == NULL))
    return 0;
  size_t n;
  uint64_t slack;
  if (MP_UNLIKELY (!fast_block (p, &n, &slack)))
    return 0;
  unsigned id = __atomic_load_n (&site->id, __ATOMIC_ACQUIRE);
  int used = (keep & MP_KEEP_USED) != 0;
  int64_t d = used ? mp_own_get (&t->used_delta) - (int64_t) n : 0;
  if (MP_UNLIKELY (id == 0 || d < -MP_USED_FLUSH))
    return 0;
  memset ((char *) p + n + slack, 0, sizeof (uint64_t));
  struct mp_site_counts *c = mp_counts_of (t, id);
  if (keep & MP_STAT_BIT (numDeallocate))
    mp_own_add (&c->c[SC_NUM_DEALLOCATE], 1);
  if (keep & MP_STAT_BIT (bytesContracted))
    mp_own_add (&c->c[SC_BYTES_CONTRACTED], (int64_t) n);
  if (used)
    mp_own_set (&t->used_delta, d);
  if (keep & MP_STAT_BIT (bytesSlack))
    mp_own_add (&t->bytes_slack, -(int64_t) slack);
  return 1;
}

int
mp_uncount_block (void *p, const struct mp_site *site, size_t *n)
{
  struct mp_thread *t = self_for_slow_path ();
  struct mp_site_counts *c = mp_counts (t, site);
  size_t slack;
  int ours = p != NULL ? untag_block (p, n, &slack) : 0;
  if (MP_LIKELY (ours))
    {
      count_free (t, c, *n, slack);
      if (MP_UNLIKELY (ours & UNTAG_TRACKED))
        mp_tracked_free (t, p);
    }
  else
    mp_add (&c->c[p ? SC_NUM_FOREIGN_DEALLOCATE : SC_NUM_DEALLOCATE], 1);
  return ours != 0;
}

static void __attribute__ ((noinline))
free_slow (void *p, const struct mp_site *site)
{
  size_t n;
  mp_uncount_block (p, site, &n);
  SYS_HOT (free, (p));
}

static inline __attribute__ ((always_inline)) void
free_as (void *p, const struct mp_site *site, unsigned keep)
{
  if (MP_LIKELY (free_fast (p, site, keep)))
    SYS_HOT (free, (p));
  else
    free_slow (p, site);
}

void
mp_free_at (void *p, const struct mp_site *site)
{
  free_as (p, site, MP_STATS_EVERY);
}

#ifndef MP_ASAN
/* The interposed malloc and free, interpose.c's others: here, where
   the fast paths inline.  The common case, a thread not quiet whose
   cache has the site of the return address, makes no call but the
   allocator's; the rest goes to the slow paths, by a tail call, so that
   the fast ones save no registers for them, and those read the return
   address again.  The cache reads as empty while the thread is quiet
   (foreign.h), so that a hit says the thread is not; and a site in it
   says that the runtime counts:
   mp_foreign_site is called only when it does (mp_interpose_counting),
   and it does from then on (mp_interpose_setup runs once).  */
static void * __attribute__ ((noinline))
malloc_foreign_slow (size_t n, const void *ra)
{
  if (!mp_interpose_counting ())
    return __libc_malloc (n);
  return mp_malloc_at (n, mp_foreign_site (ra, MP_FOREIGN_MALLOC), ra);
}

/* (malloc): alloc.h's macro stands for glibc's in the runtime's calls.  */
MP_INTERPOSE void *
(malloc) (size_t n)
{
  const struct mp_foreign_entry *e = mp_foreign_entry (MP_RA);
  if (MP_UNLIKELY (e == NULL))
    return malloc_foreign_slow (n, MP_RA);
  return malloc_as (n, e->site, RA_HERE, MP_STATS_EVERY);
}

/* A block of ours freed while quiet is still counted: it was the
   program's.  */
static void __attribute__ ((noinline))
free_foreign_slow (void *p, const void *ra)
{
  if (!mp_interpose_counting ())
    mp_free_quiet (p);
  else
    mp_free_at (p, mp_foreign_site (ra, MP_FOREIGN_FREE));
}

MP_INTERPOSE void
(free) (void *p)
{
  if (p == NULL)
    return;
  const struct mp_foreign_entry *e = mp_foreign_entry (MP_RA);
  if (MP_UNLIKELY (e == NULL))
    free_foreign_slow (p, MP_RA);
  else
    free_as (p, e->site, MP_STATS_EVERY);
}

OWN (malloc);
OWN (free);
#endif

MP_API void
__mp_free (void *p, const struct mp_site *site)
{
  free_as (p, site, MP_STATS_EVERY);
}

/* The lean entries (entry.h): __mp_NAME_wW counts on its fast path only
   the work W (stats.h), a constant that folds the fast path's tests.  */
#define LEAN_ENTRIES(w)                                                     \
  MP_API void *__mp_malloc_w##w (size_t n, const struct mp_site *site)      \
  {                                                                         \
    return malloc_as (n, site, RA_HERE, MP_WORK_KEEPS (w));                 \
  }                                                                         \
  MP_API void *__mp_calloc_w##w (size_t nmemb, size_t size,                 \
                                 const struct mp_site *site)                \
  {                                                                         \
    return calloc_as (nmemb, size, site, RA_HERE, MP_WORK_KEEPS (w));       \
  }                                                                         \
  MP_API void __mp_free_w##w (void *p, const struct mp_site *site)          \
  {                                                                         \
    free_as (p, site, MP_WORK_KEEPS (w));                                   \
  }

LEAN_ENTRIES (0)
LEAN_ENTRIES (1)
LEAN_ENTRIES (2)
LEAN_ENTRIES (3)
LEAN_ENTRIES (4)
LEAN_ENTRIES (5)
LEAN_ENTRIES (6)

/* The words a realloc from OLD to N bytes adds: what it samples.  With
   no branch and few registers, for realloc's fast path: the difference
   masked by its own sign.  */
static inline __attribute__ ((always_inline)) uint64_t
grown_words (size_t old, size_t n)
{
  int64_t d = (int64_t) mp_words (n) - (int64_t) mp_words (old);
  return (uint64_t) (d & ~(d >> 63));
}

/* The realloc of P, one of our blocks of OLD bytes and SLACK, its tag
   cleared, to N > 0 failed: P is left as it was, tracked if E is its
   entry.  */
static void * __attribute__ ((noinline))
realloc_failed (struct mp_site_counts *c, void *p, size_t old, size_t slack,
                size_t n, struct mp_tracked *e)
{
  retag_block (p, old, slack, e != NULL);
  mp_tracked_keep (e);
  if (n > old)
    mp_add (&c->c[SC_NUM_EXPAND], 1);
  return NULL;
}

/* The realloc of one of our blocks of OLD bytes and SLACK to N > 0,
   called from RA, returned Q, IN_PLACE or not, which T counts at C and
   tags.  The words it adds are allocated words: they are sampled as a
   block of their own, which Q stands for.  */
static void * __attribute__ ((noinline))
realloc_done (struct mp_thread *t, struct mp_site_counts *c, void *q,
              int in_place, size_t old, size_t slack, size_t n,
              const void *ra)
{
  int64_t new_slack = tag_block (q, n);
  mp_count_realloc (c, in_place, old, n);
  if (new_slack < 0)
    {
      mp_note_free (t, (int64_t) old, (int64_t) slack);
      return q;
    }
  mp_note_alloc (t, (int64_t) n - (int64_t) old, new_slack - (int64_t) slack);
  uint64_t grown = grown_words (old, n);
  /* The growth is sampled as a block of its own; for the profile it is
     data added to a block already counted (usable 0).  */
  if (grown && mp_sample (t, grown, q, MP_SOURCE_MALLOC, ra, 0))
    retag_block (q, n, (size_t) new_slack, 1);
  return q;
}

/* realloc of P, one of our blocks of OLD bytes and SLACK, to N > 0,
   called from RA; E is its tracked entry, if any: a realloc that works
   ends the block as it was, one that fails leaves it as it was.  */
static void *
realloc_ours (struct mp_thread *t, struct mp_site_counts *c, void *p,
              size_t old, size_t slack, size_t n, struct mp_tracked *e,
              const void *ra)
{
  mp_add (&c->c[SC_NUM_REALLOCATE], 1);
  size_t size = padded (n);
  void *q = size ? SYS_HOT (realloc, (p, size)) : NULL;
  if (q == NULL)
    return realloc_failed (c, p, old, slack, n, e);
  mp_tracked_end (t, e);
  return realloc_done (t, c, q, p == q, old, slack, n, ra);
}

/* realloc of P to N at SITE, called from RA: the general path.  */
static void * __attribute__ ((noinline))
realloc_slow (void *p, size_t n, const struct mp_site *site, const void *ra)
{
  if (p == NULL)
    return mp_malloc_at (n, site, ra);
  struct mp_thread *t = self_for_slow_path ();
  struct mp_site_counts *c = mp_counts (t, site);
  size_t old, slack;
  int ours = untag_block (p, &old, &slack);
  if (!ours)
    {
      mp_add (&c->c[SC_NUM_FOREIGN_DEALLOCATE], 1);
      return SYS (realloc, (p, n));
    }
  struct mp_tracked *e = ours & UNTAG_TRACKED ? mp_tracked_take (p, 0) : NULL;
  if (n == 0)
    {
      /* glibc's realloc (p, 0) frees P and returns NULL: a deallocation.  */
      count_free (t, c, old, slack);
      mp_tracked_end (t, e);
      return SYS (realloc, (p, 0));
    }
  /* Inside a user allocator the call's, as an allocation's: counted
     here, the block is not counted again as the call's result.  */
  return realloc_ours (t, mp_counts (t, mp_charge_site (t, site)), p, old,
                       slack, n, e, ra);
}

/* realloc_failed for realloc_call, which took P's slack out of
   bytesSlack before the call: it is put back, read from P's chunk,
   which the failure left as it was.  */
static void * __attribute__ ((noinline))
realloc_fast_failed (struct mp_site_counts *c, void *p, size_t old, size_t n)
{
  size_t slack = chunk_usable (p) - TRAILER - old;
  mp_own_add (&mp_fast_tls->bytes_slack, (int64_t) slack);
  return realloc_failed (c, p, old, slack, n, NULL);
}

/* The sampling countdown of T after a realloc from OLD to N bytes,
   negative if a sample is due in the words it adds.  */
static inline __attribute__ ((always_inline)) int64_t
realloc_left (struct mp_thread *t, size_t old, size_t n)
{
  return mp_get_counter (&t->sample_left) - (int64_t) grown_words (old, n);
}

/* realloc_as's call of the allocator, for P, an untracked block of ours
   of OLD bytes and SLACK, to N bytes at a site whose counters in the
   calling thread are C, called from RA: apart, so that the path that makes no call saves no registers.  A
   result that is not a block of the same kind with a slack the tag can
   hold, a sample due in the words the realloc adds, or a failure, goes
   on to the general path's parts, which count the same.  P's slack
   leaves bytesSlack before the call, so that it need not be kept
   across it (the parts are told 0).  */
static void * __attribute__ ((noinline))
realloc_call (void *p, size_t n, struct mp_site_counts *c, size_t old,
              uint64_t slack, const void *ra)
{
  struct mp_thread *t = mp_fast_tls;
  /* Untagged first, as untag_block does: a block the allocator frees
     keeps no tag.  */
  memset ((char *) p + old + slack, 0, sizeof (uint64_t));
  /* OLD, opaque from here: otherwise GCC keeps the usable size and the
     slack across the call, to derive it again after.  */
  __asm__ ("" : "+r" (old));
  mp_own_add (&c->c[SC_NUM_REALLOCATE], 1);
  mp_own_add (&t->bytes_slack, -(int64_t) slack);   /* see above */
  void *q = SYS_HOT (realloc, (p, n + TRAILER));
  if (MP_UNLIKELY (q == NULL))
    return realloc_fast_failed (c, p, old, n);
  size_t h = *(const size_t *) ((uintptr_t) q - sizeof (size_t));
  size_t usable = (h & ~(size_t) 7) - sizeof (size_t) - TRAILER;
  uint64_t new_slack = usable - n;
  int64_t left = realloc_left (t, old, n);
  size_t in_place = p == q;
  if (MP_UNLIKELY ((h & 2) != 0 || new_slack > SLACK_MASK || left < 0))
    return realloc_done (t, c, q, in_place, old, 0, n, ra);
  uint64_t tag = make_tag (q, new_slack);
  memcpy ((char *) q + usable, &tag, sizeof tag);
  atomic_store_explicit (&t->sample_left, left, memory_order_relaxed);
  mp_count_realloc (c, in_place, old, n);
  mp_note_alloc (t, (int64_t) n - (int64_t) old, (int64_t) new_slack);
  return q;
}

/* Whether the allocator's realloc of a block of ROOM bytes before its
   tag to N bytes would return it as it is, its chunk untouched: N fits,
   and what is left is too small to split off.  glibc's chunk is ROOM
   + TRAILER bytes and a header word, a multiple of 2 words; it keeps
   N + TRAILER and a header word, rounded up to 2 words, and splits off
   a tail of MINSIZE (4 words) or more: with ROOM - N below 4 words, the
   tail is too.  Only glibc's own realloc is known to; the program's,
   if it has one, is called.  */
static inline __attribute__ ((always_inline)) int
realloc_untouched (size_t room, size_t n)
{
#ifdef MP_ASAN
  (void) room;
  (void) n;
  return 0;
#else
  return room - n < 4 * sizeof (size_t)
         && atomic_load_explicit (&sys_realloc, memory_order_relaxed)
            == __libc_realloc;
#endif
}

/* realloc of P to N at SITE, called from RA (RA_HERE: the caller's),
   with a fast path for the common case: P an untracked block of ours in
   a glibc chunk of its own, N neither 0 nor too big, the site numbered,
   no user allocator's call under way (realloc_slow charges it), no
   sample due in the words the realloc adds.  When the allocator
   would return P untouched (realloc_untouched), the path makes no call:
   the block is retagged where it is.  Else realloc_call calls it.  */
static inline __attribute__ ((always_inline)) void *
realloc_as (void *p, size_t n, const struct mp_site *site, const void *ra)
{
  struct mp_thread *t = mp_fast_tls;
  size_t old;
  uint64_t slack;
  unsigned id;
  /* N - 1 wraps for 0, which frees P.  */
  if (MP_UNLIKELY (p == NULL || t == &mp_no_fast_thread
                   || t->user_site != NULL || n - 1 >= SIZE_MAX - TRAILER
                   || !fast_block (p, &old, &slack)
                   || (id = __atomic_load_n (&site->id,
                                             __ATOMIC_ACQUIRE)) == 0))
    return realloc_slow (p, n, site, CALLER (ra));
  /* Opaque from here: otherwise GCC keeps fast_block's usable size and
     tag address, and runs out of registers that need no saving.  */
  __asm__ ("" : "+r" (old), "+r" (slack));
  size_t room = old + slack;
  struct mp_site_counts *c = mp_counts_of (t, id);
  if (MP_UNLIKELY (!realloc_untouched (room, n)))
    return realloc_call (p, n, c, old, slack, CALLER (ra));
  int64_t left;
  if (MP_UNLIKELY ((left = realloc_left (t, old, n)) < 0))
    return realloc_slow (p, n, site, CALLER (ra));
  atomic_store_explicit (&t->sample_left, left, memory_order_relaxed);
  uint64_t tag = make_tag (p, room - n);
  memcpy ((char *) p + room, &tag, sizeof tag);
  mp_own_add (&c->c[SC_NUM_REALLOCATE], 1);
  mp_count_realloc (c, 1, old, n);
  mp_own_add (&t->bytes_slack, (int64_t) old - (int64_t) n);
  /* A shrink flushes far below the last flush, as a free does.  */
  if (MP_UNLIKELY (used_fast (t, (int64_t) n - (int64_t) old)
                   || mp_own_get (&t->used_delta) < -MP_USED_FLUSH))
    return flush_used (p);
  return p;
}

void *
mp_realloc_at (void *p, size_t n, const struct mp_site *site, const void *ra)
{
  return realloc_as (p, n, site, ra);
}

MP_API void *
__mp_realloc (void *p, size_t n, const struct mp_site *site)
{
  return realloc_as (p, n, site, RA_HERE);
}

void *
mp_reallocarray_at (void *p, size_t nmemb, size_t size,
                    const struct mp_site *site, const void *ra)
{
  size_t n;
  if (__builtin_mul_overflow (nmemb, size, &n))
    {
      struct mp_thread *t = mp_self ();
      struct mp_site_counts *c = mp_counts (t, site);
      mp_add (&c->c[p ? SC_NUM_REALLOCATE : SC_NUM_ALLOCATE], 1);
      if (p == NULL)
        mp_add (&c->c[SC_NUM_ALLOCATE_FAILED], 1);
      errno = ENOMEM;
      return NULL;
    }
  return mp_realloc_at (p, n, site, ra);
}

MP_API void *
__mp_reallocarray (void *p, size_t nmemb, size_t size,
                   const struct mp_site *site)
{
  return mp_reallocarray_at (p, nmemb, size, site, MP_RA);
}

/* malloc_usable_size of P as the program's own calls reach it: its
   own, if it has one.  */
static size_t
program_usable (void *p)
{
#ifndef MP_ASAN
  if ((void (*) (void)) &malloc_usable_size
      != (void (*) (void)) &mp_interposed_malloc_usable_size)
    return (malloc_usable_size) (p);
#endif
  return real_usable (p);
}

/* mp_usable_size but for a glibc chunk of its own.  */
static size_t __attribute__ ((noinline))
usable_size_slow (void *p)
{
  if (p == NULL)
    return 0;
  if (MP_UNLIKELY (!tags))
    return program_usable (p);
  size_t usable = usable_size (p);
  uint64_t tag;
  return tagged (p, usable, &tag) ? usable - TRAILER : usable;
}

/* A program may use all the bytes malloc_usable_size reports (SQLite
   does, twice or thrice an allocation): for our blocks that stops short
   of the tag.  The common case, a glibc chunk of its own (glibc's
   chunks imply tags), makes no call, and so saves no registers; its
   usable bytes, at least 24, hold a tag, and a tag that matches its
   hash is ours (the slack it holds is not needed here).  */
size_t
mp_usable_size (void *p)
{
  if (MP_LIKELY (glibc_chunks && p != NULL))
    {
      size_t h = *(const size_t *) ((uintptr_t) p - sizeof (size_t));
      if (MP_LIKELY ((h & 2) == 0))
        {
          size_t usable = (h & ~(size_t) 7) - sizeof (size_t);
          uint64_t tag;
          memcpy (&tag, (char *) p + usable - TRAILER, sizeof tag);
          size_t ours = usable - TRAILER;   /* a conditional move */
          return tag == make_tag (p, tag & ~HASH_MASK) ? ours : usable;
        }
    }
  return usable_size_slow (p);
}

MP_API size_t
__mp_malloc_usable_size (void *p)
{
  return mp_usable_size (p);
}

void *
mp_pvalloc_at (size_t n, const struct mp_site *site, const void *ra)
{
  size_t size = padded (n);
  return count_alloc (site, size ? SYS (pvalloc, (size)) : NULL, n, ra);
}

/* ---- while the thread is quiet (alloc.h) ------------------------------

   A library the runtime calls allocates and frees its own blocks,
   which are not counted; but one of the program's blocks freed or
   reallocated then is counted, at a site of the runtime's.  */

static struct mp_site quiet_site = {
  MP_SITE_ABI, 0, "<runtime>", "<runtime>", "free (a library's, quiet)", 0, 0,
  MP_KIND_INTERNAL, 0, NULL, 0, 0
};

/* Whether P is one of our blocks, tagged.  */
static int
ours (void *p)
{
  uint64_t tag;
  return tags && tagged (p, usable_size (p), &tag);
}

void
mp_free_quiet (void *p)
{
  if (ours (p))
    mp_free_at (p, &quiet_site);
  else
    free (p);
}

void *
mp_realloc_quiet (void *p, size_t n)
{
  if (p != NULL && ours (p))
    return mp_realloc_at (p, n, &quiet_site, MP_RA);
  return realloc (p, n);
}

int
mp_posix_memalign_quiet (void **out, size_t align, size_t n)
{
  if (!power_of_2 (align) || align % sizeof (void *) != 0)
    return EINVAL;
  void *p = memalign (align, n);
  if (p == NULL)
    return ENOMEM;
  *out = p;
  return 0;
}

/* Out-of-heap memory the program reports (memprof.h): malloc blocks of
   their own source, counted at sites of the runtime's.  */
static struct mp_site custom_alloc_site = {
  MP_SITE_ABI, 0, "<runtime>", "<runtime>", "mp_alloc_custom", 0, 0,
  MP_KIND_INTERNAL, 0, NULL, 0, 0
};
static struct mp_site custom_free_site = {
  MP_SITE_ABI, 0, "<runtime>", "<runtime>", "mp_free_custom", 0, 0,
  MP_KIND_INTERNAL, 0, NULL, 0, 0
};

MP_API void *
mp_alloc_custom (size_t n)
{
  size_t size = padded (n);
  return count_alloc_as (&custom_alloc_site,
                         size ? SYS (malloc, (size)) : NULL, n,
                         MP_SOURCE_CUSTOM, MP_RA, MP_STATS_EVERY);
}

MP_API void
mp_free_custom (void *p)
{
  __mp_free (p, &custom_free_site);
}

/* P may come from anywhere (an arena, mmap), so its size is not read:
   it counts the bytes asked for, if known, but not as bytes in use.  */
void
mp_count_malloc_note (struct mp_thread *t, const struct mp_site *site, void *p,
                      size_t n)
{
  struct mp_site_counts *c = mp_counts (t, site);
  mp_add (&c->c[SC_NUM_ALLOCATE], 1);
  if (p == NULL)
    mp_add (&c->c[SC_NUM_ALLOCATE_FAILED], 1);
  else
    mp_add (&c->c[SC_BYTES_ALLOCATED], (int64_t) n);
}
