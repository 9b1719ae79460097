/* boehm.c -- the GC family, on Boehm GC, and user allocators.

   Each entry point calls the Boehm function it stands for and counts the
   result: per-site allocator statistics, and OCaml's words (minor for
   collectable blocks of at most MP_MAX_YOUNG_WOSIZE words, logged for the
   promotion check; major for larger and uncollectable ones, which no
   collection can reclaim).  */

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "boehm.h"
#include "libc.h"
#include "entry.h"
#include "libc.h"
#include "sample.h"
#include "marks.h"

#include "gcweak.h"

/* Register T, the calling thread, with Boehm unless the setup did
   (BY_SETUP) or the program did.  Quiet: Boehm asks for the stack with
   pthread_getattr_np, whose allocations are the C library's, not the
   program's (nor, inside a user allocator, its call's).  */
static void
register_thread (struct mp_thread *t, int by_setup)
{
  t->gc_registered = by_setup ? MP_GC_REGISTERED_BY_US : MP_GC_READY;
  if (!GC_thread_is_registered ())
    {
      struct GC_stack_base sb;
      mp_quiet_begin ();
      int ok = GC_get_stack_base (&sb) == GC_SUCCESS
               && GC_register_my_thread (&sb) == GC_SUCCESS;
      mp_quiet_end ();
      if (ok)
        t->gc_registered = MP_GC_REGISTERED_BY_US;
      else
        mp_warn ("cannot register this thread with Boehm GC");
    }
  mp_young_gate (t);
}

/* A thread that Boehm does not know (created without gc.h's pthread
   redirection) is registered on its first GC allocation; thread.c
   unregisters it at exit.  Not while the setup may not run in it
   (generations.c's setup_safe): it stays unknown then.  */
static void
gc_thread_setup (struct mp_thread *t)
{
  int saved = errno;     /* starting Boehm must not show in errno */
  int by_setup = mp_gc_setup ();
  if (by_setup >= 0)
    register_thread (t, by_setup);
  errno = saved;
}

/* GC_init, which gc.h's GC_INIT calls, rewritten by the plugin: Boehm
   and our setup start in the thread that starts Boehm, and when it does.
   Left to the first GC allocation, the setup would run in whichever
   thread makes it, maybe while the starter is inside Boehm (a
   collection the plugin does not see), before Boehm locks anything.  */
MP_API void
__mp_GC_init (void)
{
  mp_gc_self ();
}

/* GC_enable_incremental, rewritten by the plugin: the program's first
   call of Boehm may be this one, which starts it as GC_init does.  Our
   setup first, as at GC_init: Boehm switches incremental mode on in a
   running collector too.  */
MP_API void
__mp_GC_enable_incremental (void)
{
  __mp_GC_init ();
  GC_enable_incremental ();
}

/* Only a process that started without libgc gets here without it: a
   program that calls memprof.h's collections, finalisers or VM
   interface from code the plugin did not see (the plugin makes each
   unit that calls them need libgc: gcweak.h), or that loaded a module
   with GC calls by dlopen, with libgc, after the runtime's weak
   references to it were bound to nothing.  */
static void __attribute__ ((noreturn, cold))
no_libgc (void)
{
  mp_warn ("this call needs Boehm GC, but libgc was not in the process "
           "when it started: link the program with -Wl,--no-as-needed -lgc");
  abort ();
}

struct mp_thread *
mp_gc_self_slow (void)
{
  if (!mp_gc_linked ())
    no_libgc ();
  struct mp_thread *t = mp_self ();
  if (t->gc_registered == MP_GC_UNKNOWN)
    gc_thread_setup (t);
  if (t->gc_registered == MP_GC_UNKNOWN)
    return t;                   /* asked again at the next call */
  return mp_gc_tls = t;
}

void
mp_count_gc_slow (struct mp_thread *t, const struct mp_site *site, void *base,
                  size_t n, size_t usable, enum mp_source source,
                  const void *ra)
{
  struct mp_site_counts *c = mp_counts (t, mp_charge_site (t, site));
  mp_add (&c->c[SC_NUM_ALLOCATE], 1);
  if (MP_UNLIKELY (base == NULL))
    {
      mp_add (&c->c[SC_NUM_ALLOCATE_FAILED], 1);
      return;
    }
  mp_add (&c->c[SC_BYTES_ALLOCATED], (int64_t) n);
  mp_note_alloc (t, (int64_t) usable, (int64_t) (usable - n));
  uint64_t words = mp_words (n);
  int major = source == MP_SOURCE_UNCOLLECTABLE || words > MP_MAX_YOUNG_WOSIZE;
  mp_add (&c->c[major ? SC_MAJOR_WORDS : SC_MINOR_WORDS], (int64_t) words);
  if (MP_LIKELY (!major && words))
    mp_young_log (t, base, words);
  mp_guest_count (t, (int64_t) n, words, major);
  mp_sample (t, words, base, source, ra, usable);
}

void
mp_count_gc_alloc (struct mp_thread *t, const struct mp_site *site, void *base,
                   size_t n, enum mp_source source, const void *ra)
{
  mp_count_gc (t, site, base, n, base ? GC_size (base) : 0, source, ra);
}

/* Allocate N bytes with FN at SITE into *OUT, and count what KEEP
   names on the fast path; return 0 if it was not taken, and the block
   is for gc_alloc_slow to count.  Where a statistic needs the block's
   size, it is read from the block's header (marks.h), without a call;
   until marks.c has proven the walk to it the slow path asks GC_size.
   So the path makes no call after FN's, and keeps the block in no
   register that a call must preserve.  The caller's return address is
   read on the slow path alone, so that the fast one keeps no register
   for it across the calls of Boehm.  */
static inline __attribute__ ((always_inline)) int
gc_alloc_fast (void *(*fn) (size_t), size_t n, const struct mp_site *site,
               enum mp_source source, unsigned keep, void **out)
{
  mp_gc_self ();
  void *p = fn (n);
  *out = p;
  if (source == MP_SOURCE_UNCOLLECTABLE)
    return 0;
  /* Read again rather than kept across the calls in a register that
     they must preserve.  */
  struct mp_thread *t = mp_self_tls;
  size_t usable = 0;
  if ((keep & MP_KEEP_SIZE) && p != NULL)
    {
      const size_t *size = mp_marks_size_in (t, p);
      if (MP_UNLIKELY (size == NULL))
        return 0;
      usable = *size;
    }
  return mp_count_young_fast (t, site, p, n, usable, keep);
}

/* The rest: count P, of N bytes asked at SITE, from RA, on the fast
   path still if it can be taken with GC_size's answer, which proves the
   fast path's reader; return P.  */
static void *__attribute__ ((noinline))
gc_alloc_slow (void *p, size_t n, const struct mp_site *site,
               enum mp_source source, unsigned keep, const void *ra)
{
  size_t usable = 0;
  if (p != NULL)
    mp_marks_prove_size (p, usable = GC_size (p));
  mp_count_gc_as (mp_self (), site, p, n, usable, source, ra, keep);
  return p;
}

/* The body of an entry point that allocates N bytes at S with FN: the
   slow path a tail call, so that the block is kept across no call.  */
#define GC_ALLOC_BODY(fn, source, keep)                                     \
  void *block;                                                              \
  if (MP_UNLIKELY (!gc_alloc_fast (fn, n, s, source, keep, &block)))        \
    return gc_alloc_slow (block, n, s, source, keep, MP_RA);                \
  return block

/* One entry point per Boehm allocator: NAME stands for Boehm's NAME.  */
#define GC_ENTRY(name, source)                                              \
  MP_API void *__mp_##name (size_t n, const struct mp_site *s)              \
  {                                                                         \
    GC_ALLOC_BODY (name, source, MP_STATS_EVERY);                           \
  }

/* The lean entries (entry.h): __mp_NAME_wW counts on its fast path only
   the work W (stats.h).  */
#define GC_LEAN_ENTRY(name, source, w)                                      \
  MP_API void *__mp_##name##_w##w (size_t n, const struct mp_site *s)       \
  {                                                                         \
    GC_ALLOC_BODY (name, source, MP_WORK_KEEPS (w));                        \
  }
#define GC_LEAN_ENTRIES(w)                                                  \
  GC_LEAN_ENTRY (GC_malloc, MP_SOURCE_NORMAL, w)                            \
  GC_LEAN_ENTRY (GC_malloc_atomic, MP_SOURCE_ATOMIC, w)

GC_LEAN_ENTRIES (0)
GC_LEAN_ENTRIES (1)
GC_LEAN_ENTRIES (2)
GC_LEAN_ENTRIES (3)
GC_LEAN_ENTRIES (4)
GC_LEAN_ENTRIES (5)
GC_LEAN_ENTRIES (6)

GC_ENTRY (GC_malloc, MP_SOURCE_NORMAL)
GC_ENTRY (GC_malloc_atomic, MP_SOURCE_ATOMIC)
GC_ENTRY (GC_malloc_uncollectable, MP_SOURCE_UNCOLLECTABLE)
GC_ENTRY (GC_malloc_atomic_uncollectable, MP_SOURCE_UNCOLLECTABLE)
GC_ENTRY (GC_malloc_ignore_off_page, MP_SOURCE_NORMAL)
GC_ENTRY (GC_malloc_atomic_ignore_off_page, MP_SOURCE_ATOMIC)

/* The GC_DEBUG forms return a pointer past Boehm's debug header; the
   block, for sizes and mark bits, starts at GC_base.  */
static inline void *
gc_debug_alloc (void *(*fn) (size_t, const char *, int), size_t n,
                const char *file, int line, const struct mp_site *site,
                enum mp_source source, const void *ra)
{
  struct mp_thread *t = mp_gc_self ();
  void *p = fn (n, file, line);
  mp_count_gc_alloc (t, site, p ? GC_base (p) : NULL, n, source, ra);
  return p;
}

/* The same for the GC_DEBUG forms, which take gc.h's GC_EXTRAS too.  */
#define GC_DEBUG_ENTRY(name, source)                                        \
  MP_API void *__mp_##name (size_t n, const char *f, int l,                 \
                            const struct mp_site *s)                        \
  {                                                                         \
    return gc_debug_alloc (name, n, f, l, s, source, MP_RA);                \
  }

GC_DEBUG_ENTRY (GC_debug_malloc, MP_SOURCE_NORMAL)
GC_DEBUG_ENTRY (GC_debug_malloc_atomic, MP_SOURCE_ATOMIC)
GC_DEBUG_ENTRY (GC_debug_malloc_uncollectable, MP_SOURCE_UNCOLLECTABLE)
GC_DEBUG_ENTRY (GC_debug_malloc_atomic_uncollectable, MP_SOURCE_UNCOLLECTABLE)
GC_DEBUG_ENTRY (GC_debug_malloc_ignore_off_page, MP_SOURCE_NORMAL)
GC_DEBUG_ENTRY (GC_debug_malloc_atomic_ignore_off_page, MP_SOURCE_ATOMIC)

static char *
gc_strndup_at (const char *str, size_t max, const struct mp_site *s,
               const void *ra)
{
  struct mp_thread *t = mp_gc_self ();
  size_t n = str ? strnlen (str, max) + 1 : 0;
  char *p = max == SIZE_MAX ? GC_strdup (str) : GC_strndup (str, max);
  mp_count_gc_alloc (t, s, p, n, MP_SOURCE_ATOMIC, ra);
  return p;
}

MP_API char *
__mp_GC_strdup (const char *str, const struct mp_site *s)
{
  return gc_strndup_at (str, SIZE_MAX, s, MP_RA);
}

MP_API char *
__mp_GC_strndup (const char *str, size_t max, const struct mp_site *s)
{
  return gc_strndup_at (str, max, s, MP_RA);
}

MP_API char *
__mp_GC_debug_strdup (const char *str, const char *f, int l,
                      const struct mp_site *s)
{
  struct mp_thread *t = mp_gc_self ();
  char *p = GC_debug_strdup (str, f, l);
  mp_count_gc_alloc (t, s, p ? GC_base (p) : NULL, str ? strlen (str) + 1 : 0,
                     MP_SOURCE_ATOMIC, MP_RA);
  return p;
}

MP_API char *
__mp_GC_debug_strndup (const char *str, size_t max, const char *f, int l,
                       const struct mp_site *s)
{
  struct mp_thread *t = mp_gc_self ();
  char *p = GC_debug_strndup (str, max, f, l);
  mp_count_gc_alloc (t, s, p ? GC_base (p) : NULL,
                     str ? strnlen (str, max) + 1 : 0, MP_SOURCE_ATOMIC, MP_RA);
  return p;
}

/* A pointer Boehm would crash on: it is not the start of a GC block.  */
static int
foreign_gc_pointer (struct mp_site_counts *c, void *p, void *base,
                    const char *what)
{
  if (base != NULL)
    return 0;
  mp_add (&c->c[SC_NUM_FOREIGN_DEALLOCATE], 1);
  mp_warn ("%s of %p, which is not on the GC heap: ignored", what, p);
  return 1;
}

/* Count the explicit free of BASE, of USABLE bytes, at C.  */
static void
count_gc_free (struct mp_thread *t, struct mp_site_counts *c, void *base,
               size_t usable)
{
  mp_young_forget (t, base);
  mp_tracked_end (t, mp_tracked_take (base, 1));
  mp_add (&c->c[SC_NUM_DEALLOCATE], 1);
  mp_add (&c->c[SC_BYTES_CONTRACTED], (int64_t) usable);
  mp_note_free (t, (int64_t) usable, 0);
}

static void
gc_free (void (*fn) (void *), void *p, void *base, const struct mp_site *s,
         const char *what)
{
  struct mp_thread *t = mp_gc_self ();
  struct mp_site_counts *c = mp_counts (t, s);
  if (p == NULL)
    mp_add (&c->c[SC_NUM_DEALLOCATE], 1);
  else if (!foreign_gc_pointer (c, p, base, what))
    {
      count_gc_free (t, c, base, GC_size (base));
      fn (p);
    }
}

MP_API void
__mp_GC_free (void *p, const struct mp_site *s)
{
  gc_free (GC_free, p, p && GC_base (p) == p ? p : NULL, s, "GC_free");
}

MP_API void
__mp_GC_debug_free (void *p, const struct mp_site *s)
{
  gc_free (GC_debug_free, p, p ? GC_base (p) : NULL, s, "GC_debug_free");
}

/* Count a GC_realloc of BASE (OLD usable bytes) to N bytes that gave a
   block at QBASE (NULL if it failed), called from RA.  */
static void
count_gc_realloc (struct mp_thread *t, struct mp_site_counts *c, void *base,
                  size_t old, void *qbase, size_t n, const void *ra)
{
  mp_add (&c->c[SC_NUM_REALLOCATE], 1);
  if (qbase == NULL)
    {
      mp_add (&c->c[SC_NUM_EXPAND], n > old);
      return;
    }
  int in_place = qbase == base;
  mp_count_realloc (c, in_place, old, n);
  size_t usable = GC_size (qbase);
  if (in_place)
    {
      /* Boehm may resize a large block in place: its usable size moves. */
      mp_note_alloc (t, (int64_t) usable - (int64_t) old, 0);
      return;
    }
  /* A move is a new block, young or major by its size and kind, and the
     end of the old one.  */
  mp_young_forget (t, base);
  mp_note_alloc (t, (int64_t) usable - (int64_t) old, (int64_t) (usable - n));
  uint64_t words = mp_words (n);
  enum mp_source source
    = mp_gc_source_of_kind (GC_get_kind_and_size (qbase, NULL));
  int major = words > MP_MAX_YOUNG_WOSIZE || source == MP_SOURCE_UNCOLLECTABLE;
  mp_add (&c->c[major ? SC_MAJOR_WORDS : SC_MINOR_WORDS], (int64_t) words);
  if (!major && words)
    mp_young_log (t, qbase, words);
  mp_sample (t, words, qbase, source, ra, usable);
}

/* GC_realloc, or GC_debug_realloc (with FILE and LINE) when DEBUG.  */
static void *
gc_realloc (void *p, size_t n, int debug, const char *file, int line,
            const struct mp_site *s, const void *ra)
{
  struct mp_thread *t = mp_gc_self ();
  void *base = GC_base (p);
  struct mp_site_counts *c = mp_counts (t, s);
  if (foreign_gc_pointer (c, p, base, debug ? "GC_debug_realloc" : "GC_realloc"))
    {
      errno = EINVAL;
      return NULL;
    }
  size_t old = GC_size (base);
  if (n == 0)
    {
      /* GC_realloc (p, 0) frees P and returns NULL.  */
      count_gc_free (t, c, base, old);
      return debug ? GC_debug_realloc (p, 0, file, line) : GC_realloc (p, 0);
    }
  /* Inside a user allocator the call's, as an allocation's: counted
     here, the block is not counted again as the call's result.  */
  c = mp_counts (t, mp_charge_site (t, s));
  /* Boehm frees a block it moves: its entry must be off the table
     before, and ends only if it moved.  */
  struct mp_tracked *e = mp_tracked_take (base, 1);
  void *q = debug ? GC_debug_realloc (p, n, file, line) : GC_realloc (p, n);
  /* GC_realloc's result is the start of its block, P's if in place.  */
  void *qbase = !debug ? (q == p ? base : q) : q ? GC_base (q) : NULL;
  if (q == NULL || qbase == base)
    mp_tracked_keep (e);
  else
    mp_tracked_end (t, e);
  count_gc_realloc (t, c, base, old, qbase, n, ra);
  return q;
}

MP_API void *
__mp_GC_realloc (void *p, size_t n, const struct mp_site *s)
{
  if (p == NULL)
    {
      GC_ALLOC_BODY (GC_malloc, MP_SOURCE_NORMAL, MP_STATS_EVERY);
    }
  return gc_realloc (p, n, 0, NULL, 0, s, MP_RA);
}

MP_API void *
__mp_GC_debug_realloc (void *p, size_t n, const char *f, int l,
                       const struct mp_site *s)
{
  if (p == NULL)
    return gc_debug_alloc (GC_debug_malloc, n, f, l, s, MP_SOURCE_NORMAL,
                           MP_RA);
  return gc_realloc (p, n, 1, f, l, s, MP_RA);
}

/* User allocators (entry.h).  A call takes the site unless another
   user allocator's call is under way in the thread and has not yet been
   charged for an allocation: then it is part of that one.  */

static inline int
user_take (struct mp_thread *t, const struct mp_site *site)
{
  if (t->user_site != NULL)
    return 0;
  mp_set_user_site (t, site ? site : &mp_unknown_site);
  return 1;
}

/* __mp_user_begin in a thread without a record yet: apart, so that the
   common case keeps no stack frame.  */
static int __attribute__ ((noinline))
user_begin_first (const struct mp_site *site)
{
  return user_take (mp_self (), site);
}

MP_API int
__mp_user_begin (const struct mp_site *site)
{
  struct mp_thread *t = mp_self_tls;
  if (MP_UNLIKELY (t == NULL))
    return user_begin_first (site);
  return user_take (t, site);
}

/* Count P, which the user allocator at SITE returned and no allocation
   inside it counted: a GC block at its size and kind, anything else as
   a call (its size is not known).  Without libgc, nothing is a GC
   block.  */
static void
count_user_result (struct mp_thread *t, const struct mp_site *site, void *p,
                   const void *ra)
{
  void *base = NULL;
  if (site->kind != MP_KIND_USER_MALLOC && p != NULL && mp_gc_linked ())
    {
      mp_gc_self ();
      base = GC_base (p);
    }
  if (base == NULL)
    {
      mp_count_malloc_note (t, site, p, 0);
      return;
    }
  size_t size;
  int kind = GC_get_kind_and_size (base, &size);
  mp_count_gc (t, site, base, size, size, mp_gc_source_of_kind (kind), ra);
}

/* The end of a call that took the calling thread's user site, unless
   an allocation inside took it since: then nothing is left to count.
   Apart, so that __mp_user_end's common case saves no registers.  */
static void __attribute__ ((noinline))
user_end_uncharged (void *p, const void *ra)
{
  struct mp_thread *t = mp_self ();
  const struct mp_site *site = t->user_site;
  if (site == NULL)
    return;
  mp_set_user_site (t, NULL);
  count_user_result (t, site, p, ra);
}

MP_API void
__mp_user_end (void *p, int took)
{
  if (!took)
    return;
  struct mp_thread *t = mp_self_tls;   /* __mp_user_begin made it */
  if (MP_UNLIKELY (t == NULL || t->user_site != NULL))
    user_end_uncharged (p, MP_RA);
}
