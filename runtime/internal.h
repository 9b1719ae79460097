/* internal.h -- what the runtime's files share.

   Design.  The hot paths (every rewritten malloc, free and GC_malloc) must
   cost a few nanoseconds, and every counter must be exact with several
   threads.  So nothing on a hot path takes a lock or a locked instruction:

   - each thread owns a `struct mp_thread` (thread.c), found through an
     initial-exec TLS pointer; it holds the thread's counters and its
     per-site counter chunks.  Only the owner writes them, with relaxed
     atomic stores; readers add them up over the registry of all thread
     records ever made.  Records are never freed: a thread that exits
     leaves its counts behind and its record is reused by a later thread,
     so sums stay exact and memory stays bounded by the peak thread count;
   - sites are numbered the first time they run (sites.c), which makes
     the per-thread per-site counters a two-level array lookup;
   - blocks of the malloc family carry a tag in their trailing bytes
     (libc.c), so free can tell ours from foreign pointers without a
     table;
   - young GC blocks are logged per thread (generations.c); at the end of
     each collection's mark phase, with the world stopped, the log is
     checked against Boehm's mark bits to count promoted words exactly.  */

#ifndef MEMPROF_INTERNAL_H
#define MEMPROF_INTERNAL_H

#include <pthread.h>
#include <stdatomic.h>
#include <sys/types.h>
#include <stdint.h>
#include <stdio.h>
#include "memprof.h"
#include "site.h"

#define MP_API __attribute__ ((visibility ("default")))
#define MP_LIKELY(x) __builtin_expect (!!(x), 1)
#define MP_UNLIKELY(x) __builtin_expect (!!(x), 0)

/* A counter written by one thread and read by any: relaxed accesses make
   the race well-defined without a locked instruction.  */
typedef _Atomic int64_t mp_counter;

static inline void
mp_add (mp_counter *c, int64_t n)
{
  atomic_store_explicit (c, atomic_load_explicit (c, memory_order_relaxed) + n,
                         memory_order_relaxed);
}

static inline int64_t
mp_get_counter (const mp_counter *c)
{
  return atomic_load_explicit ((mp_counter *) c, memory_order_relaxed);
}

/* LeakSanitizer's interface, when the program runs under it (these are
   null otherwise).  It scans neither mmap'd memory nor Boehm's heap, and
   cannot know that a block is kept on purpose with no pointer to it.  */
extern void __lsan_register_root_region (const void *p, size_t size)
  __attribute__ ((weak));
extern void __lsan_unregister_root_region (const void *p, size_t size)
  __attribute__ ((weak));
extern void __lsan_ignore_object (const void *p) __attribute__ ((weak));

#include "sites.h"

#include "thread.h"

#include "sample.h"

#include "tracked.h"

/* A size of N bytes in words, rounded up (SPEC's block size).  */
static inline uint64_t
mp_words (size_t n)
{
  return (n + sizeof (void *) - 1) / sizeof (void *);
}

/* The return address of the runtime's entry point, that is, where the
   program called it: a call stack starts there (callstack.c).  Only in
   the MP_API functions that the program calls.  */
#define MP_RA __builtin_return_address (0)


/* A field of a public record, for the writers that list them all.  */
enum mp_field_type { MP_FIELD_DOUBLE, MP_FIELD_LONG, MP_FIELD_INT64 };
struct mp_field
{
  const char *name;             /* NULL ends a table */
  size_t offset;
  unsigned char type;           /* enum mp_field_type */
  unsigned char flag;           /* what the table says it means */
};
extern const struct mp_field mp_stat_fields[];   /* stat.c */
double mp_field_value (const struct mp_field *f, const void *record);

/* fields.c: MEMPROF's name KEY of a control field, or -1.  */
int mp_control_find (const char *key, size_t len);

#include "messages.h"
#include "fork.h"
#include "alloc.h"

#endif
