/* gcapi.c -- the rest of Boehm's allocation API: object kinds
   (gc_inline.h, gc_mark.h), typed objects (gc_typed.h), lists of
   objects, aligned blocks, and the objects gc_inline.h's macros pop from
   a free list inline.

   The rule is one allocation per object handed to the program, at the
   line that asked for it.  So a call that returns a list of objects
   (GC_malloc_many, GC_generic_malloc_many) counts each of them at the
   call; but a free-list refill is not N allocations: inside a user
   allocator's call (entry.h), which will count what it hands out, these
   calls count nothing, and gc_inline.h's own refill is left out by the
   plugin, which counts each object the macro pops instead
   (__mp_gc_carved).  */

#include <errno.h>
#include "boehm.h"
#include "entry.h"

#include "gcweak.h"

/* Count the block at P, of N bytes and SOURCE, allocated at SITE by T
   from RA; P may be inside its object (aligned allocations).  */
static void
count_block (struct mp_thread *t, const struct mp_site *site, void *p,
             size_t n, enum mp_source source, const void *ra)
{
  void *base = p ? GC_base (p) : NULL;
  mp_count_gc (t, site, base, n, base ? GC_size (base) : 0, source, ra);
}

/* One entry point per allocator of a size and an object kind.  */
#define KIND_ENTRY(name)                                                    \
  MP_API void *__mp_##name (size_t n, int k, const struct mp_site *s)       \
  {                                                                         \
    struct mp_thread *t = mp_gc_self ();                                    \
    void *p = name (n, k);                                                  \
    mp_count_gc (t, s, p, n, p ? GC_size (p) : 0,                           \
                 mp_gc_source_of_kind (k), MP_RA);                          \
    return p;                                                               \
  }

KIND_ENTRY (GC_malloc_kind)
KIND_ENTRY (GC_malloc_kind_global)
KIND_ENTRY (GC_generic_malloc)
KIND_ENTRY (GC_generic_malloc_ignore_off_page)
KIND_ENTRY (GC_generic_malloc_uncollectable)

/* Typed objects are of a kind of Boehm's own, collectable.  */
#define TYPED_ENTRY(name)                                                   \
  MP_API void *__mp_##name (size_t n, GC_descr d, const struct mp_site *s)  \
  {                                                                         \
    struct mp_thread *t = mp_gc_self ();                                    \
    void *p = name (n, d);                                                  \
    mp_count_gc (t, s, p, n, p ? GC_size (p) : 0, MP_SOURCE_NORMAL, MP_RA); \
    return p;                                                               \
  }

TYPED_ENTRY (GC_malloc_explicitly_typed)
TYPED_ENTRY (GC_malloc_explicitly_typed_ignore_off_page)

MP_API void *
__mp_GC_calloc_explicitly_typed (size_t nmemb, size_t size, GC_descr d,
                                 const struct mp_site *s)
{
  struct mp_thread *t = mp_gc_self ();
  void *p = GC_calloc_explicitly_typed (nmemb, size, d);
  size_t n;
  if (__builtin_mul_overflow (nmemb, size, &n))
    n = 0;                      /* Boehm refuses it: a failed call */
  count_block (t, s, p, n, MP_SOURCE_NORMAL, MP_RA);
  return p;
}

MP_API void *
__mp_GC_memalign (size_t align, size_t n, const struct mp_site *s)
{
  struct mp_thread *t = mp_gc_self ();
  void *p = GC_memalign (align, n);
  count_block (t, s, p, n, MP_SOURCE_NORMAL, MP_RA);
  return p;
}

MP_API int
__mp_GC_posix_memalign (void **out, size_t align, size_t n,
                        const struct mp_site *s)
{
  struct mp_thread *t = mp_gc_self ();
  int rc = GC_posix_memalign (out, align, n);
  count_block (t, s, rc == 0 ? *out : NULL, n, MP_SOURCE_NORMAL, MP_RA);
  return rc;
}

/* Count each object of LIST, of N bytes asked and SOURCE, at SITE,
   unless the call is a user allocator's refill.  */
static void
count_list (struct mp_thread *t, const struct mp_site *site, void *list,
            size_t n, enum mp_source source, const void *ra)
{
  if (t->user_site != NULL)
    return;
  if (list == NULL)
    {
      mp_count_gc (t, site, NULL, n, 0, source, ra);
      return;
    }
  size_t usable = GC_size (list);
  for (void *p = list; p != NULL; p = GC_NEXT (p))
    mp_count_gc (t, site, p, n, usable, source, ra);
}

MP_API void *
__mp_GC_malloc_many (size_t n, const struct mp_site *s)
{
  struct mp_thread *t = mp_gc_self ();
  void *list = GC_malloc_many (n);
  count_list (t, s, list, n, MP_SOURCE_NORMAL, MP_RA);
  return list;
}

MP_API void
__mp_GC_generic_malloc_many (size_t n, int k, void **result,
                             const struct mp_site *s)
{
  struct mp_thread *t = mp_gc_self ();
  GC_generic_malloc_many (n, k, result);
  count_list (t, s, *result, n, mp_gc_source_of_kind (k), MP_RA);
}

/* gc_inline.h's GC_FAST_MALLOC_GRANS has just popped OBJ from the free
   list at OFFSET (granules * sizeof (void *)) in its array of lists: an
   object of that many granules, or one for granules 0, which is what
   the macro asked for (GC_MALLOC_WORDS rounds its words up to whole
   granules), of Boehm's object kind KIND.  Boehm's own size for it is
   no measure: a refill may give objects of a larger size class; its
   usable size is taken to be the one asked for.  OFFSET or KIND all
   ones: the plugin could not tell, ask Boehm.  */
static void __attribute__ ((noinline))
carved (void *obj, size_t offset, int kind, const struct mp_site *s,
        const void *ra)
{
  struct mp_thread *t = mp_gc_self ();
  size_t granules = offset / sizeof (void *);
  size_t n = (granules ? granules : 1) * GC_GRANULE_BYTES, usable = n;
  if ((kind < 0 || offset == (size_t) -1) && obj != NULL)
    {
      kind = GC_get_kind_and_size (obj, &usable);
      n = offset == (size_t) -1 ? usable : n;
    }
  mp_count_gc_slow (t, s ? s : &mp_unknown_site, obj, n, usable,
                    mp_gc_source_of_kind (kind), ra);
}

/* The common case first, with no call: a thread known to Boehm (the
   young log's limit is 0 until then: generations.h), a young object of
   a kind and size the plugin could tell.  */
MP_API void
__mp_gc_carved (void *obj, size_t offset, int kind, const struct mp_site *s)
{
  struct mp_thread *t = mp_self_tls;
  size_t granules = offset / sizeof (void *);
  if (MP_UNLIKELY (granules == 0))
    granules = 1;
  uint64_t words = granules * (GC_GRANULE_BYTES / sizeof (void *));
  size_t n = words * sizeof (void *);
  /* One test each, not a chain of flags.  */
  if (MP_UNLIKELY ((unsigned) kind > 1))
    goto slow;
  if (MP_UNLIKELY (granules >= GC_TINY_FREELISTS))
    goto slow;
  if (MP_UNLIKELY (t == NULL || s == NULL || obj == NULL))
    goto slow;
  if (MP_LIKELY (mp_count_young_words (t, s, obj, n, words, n,
                                       MP_STATS_EVERY)))
    return;
slow:
  carved (obj, offset, kind, s, MP_RA);
}

/* The same where the plugin knows the kind, PTRFREE or NORMAL, and the
   free list, and has a site: SIZE_KIND is the size of the list's
   objects in bytes (granules * GC_GRANULE_BYTES, one granule for
   granules 0) plus the kind.  The pop of every VM's object takes this
   entry, the one to keep short.  The free list is one of gc_inline.h's
   tiny ones, of fewer than GC_TINY_FREELISTS granules, and OBJ was on
   it (the macro pops nothing else), so the object is young, and not
   NULL.  */
MP_API void
__mp_gc_carved_young (void *obj, size_t size_kind, const struct mp_site *s)
{
  struct mp_thread *t = mp_self_tls;
  uint64_t words = size_kind / sizeof (void *);
  size_t n = words * sizeof (void *);
  if (MP_LIKELY (t != NULL
                 && mp_count_young_words (t, s, obj, n, words, n,
                                          MP_STATS_EVERY)))
    return;
  carved (obj, n / (GC_GRANULE_BYTES / sizeof (void *)),
          (int) (size_kind % sizeof (void *)), s, MP_RA);
}

/* The plugin computes SIZE_KIND with a granule of two words.  */
_Static_assert (GC_GRANULE_BYTES == 2 * sizeof (void *),
                "__mp_gc_carved_young's granule");

/* The refill of gc_inline.h's free list, which the plugin sends here
   instead of to the family above: its objects are counted as the macro
   pops them.  */
MP_API void
__mp_GC_generic_malloc_many_refill (size_t n, int k, void **result)
{
  GC_generic_malloc_many (n, k, result);
}
