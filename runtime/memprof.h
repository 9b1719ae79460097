/* memprof.h -- the public interface of the memprof runtime.

   A program compiled with -fplugin=memprof.so and linked with -lmemprof
   needs no code change: every allocation site is counted and a report is
   printed at exit.  This header is for programs that want to read the
   counters or print the report themselves.

   Two families of blocks are counted:
   - the GC family (GC_malloc and friends) lives on Boehm GC's heap, with
     OCaml's generational accounting (see "The stat record");
   - the malloc family (malloc and friends) stays on the system allocator
     and is counted in the allocator statistics only.

   Every counter here is exact, in multi-threaded programs too: each thread
   counts in its own records, and a reader adds them up.  A reader running
   while other threads allocate sees each counter at some recent value;
   once the other threads have stopped allocating, the sums are exact.  */

#ifndef MEMPROF_H
#define MEMPROF_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Blocks larger than this many words are allocated directly in the major
   heap, as OCaml's Max_young_wosize.  */
#define MP_MAX_YOUNG_WOSIZE 256

/* The stat record: OCaml's Gc.stat, for the GC heap.  A word is
   sizeof (void *) bytes; a block's size in words is its requested size
   rounded up to whole words (Boehm's granule rounding is not counted).

   minor_words     words allocated young (blocks of at most
                   MP_MAX_YOUNG_WOSIZE words, collectable);
   promoted_words  words of young blocks that survived their first
                   collection;
   major_words     words allocated directly in the major heap (larger
                   blocks, uncollectable blocks) plus promoted_words.
   So allocated words = minor_words + major_words - promoted_words, exactly.

   minor_collections counts every Boehm collection (a full collection
   begins with a minor one, as in OCaml), major_collections the full ones.

   The heap fields describe Boehm's heap, which is made of heap blocks
   (multiples of 4 KiB): a used heap block holds objects of one size, a
   free one holds nothing.  Where OCaml's meaning cannot carry over, the
   difference is said.
   heap_words      the heap mapped now (Boehm's GC_get_heap_size); free
                   memory returned to the system (mp_compact) is not in it;
   top_heap_words  the largest heap_words seen (at collections and now);
   heap_chunks     heap sections: Boehm's initial one and one per growth;
   live_words, live_blocks
                   the objects Boehm's last collection marked (reachable
                   then, uncollectable objects included), walked through
                   Boehm's mark bits, plus the young blocks allocated by
                   instrumented calls since then.  OCaml counts every block
                   not on a free list; Boehm's free lists are not visible,
                   so unreachable blocks that the collector has not yet
                   found are not live here.  Objects waiting in a thread's
                   free-list cache were marked too and count (the
                   collector's slack: up to about a thousand per thread
                   and object kind), as
                   do objects freed with GC_free since the last collection.
                   Words of marked objects are Boehm's sizes (rounded to
                   its 16-byte granule); blocks allocated since the last
                   collection in a larger size (over MP_MAX_YOUNG_WOSIZE
                   words) or by code built without the plugin count from
                   the next collection on.  In incremental mode, during
                   a collection, the marks are those of its marking so
                   far;
   free_words      words in free heap blocks that are mapped (a used heap
                   block's free objects are not counted: see live_words);
   free_blocks, largest_free
                   free heap blocks, and the largest, in words; unlike
                   free_words these include free blocks unmapped by
                   mp_compact, which Boehm maps again when it needs them;
   fragments       words lost in used heap blocks: the tail of a block
                   that its objects do not fill, and the rounding of a
                   large object to whole blocks;
   compactions     calls of mp_compact, and compactions max_overhead
                   triggered;
   stack_size      words of the calling thread's stack in use;
   forced_major_collections
                   calls of mp_major, mp_full_major and mp_compact.
   So live_words + free_words <= heap_words, and top_heap_words >=
   heap_words.  */
struct mp_stat
{
  double minor_words;
  double promoted_words;
  double major_words;
  long minor_collections;
  long major_collections;
  long heap_words;
  long heap_chunks;
  long live_words;
  long live_blocks;
  long free_words;
  long free_blocks;
  long largest_free;
  long fragments;
  long compactions;
  long top_heap_words;
  long stack_size;
  long forced_major_collections;
};

/* Fill *st.  mp_stat walks Boehm's heap (under its lock, stopping any
   thread that wants to allocate in Boehm: some milliseconds for a heap of
   100 MB); mp_quick_stat does not, and leaves live_words, live_blocks,
   free_words, free_blocks, largest_free and fragments at zero, as OCaml's
   quick_stat does.  Before the program's first GC allocation the heap
   fields are all zero.  */
void mp_stat (struct mp_stat *st);
void mp_quick_stat (struct mp_stat *st);

/* OCaml's Gc.counters: the three word counters of the stat record.  Any
   pointer may be NULL.  */
void mp_counters (double *minor, double *promoted, double *major);

/* Words allocated young since the program started.  */
double mp_minor_words (void);

/* Bytes allocated on the GC heap since the program started:
   (minor_words + major_words - promoted_words) * sizeof (void *).  */
double mp_allocated_bytes (void);

/* Print the stat record as OCaml's Gc.print_stat does.  */
void mp_print_stat (FILE *out);

/* Allocator statistics: the counters of D's StatsCollector, kept for the
   whole program and for each call site.  Every rewritten call is an
   operation at its own site, as in D's per-call statistics:

   numAllocate, numAllocateOK  calls that allocate (malloc, calloc,
                   strdup, GC_malloc, realloc (NULL, n), ..., and calls of
                   user allocators), and those that returned a block;
   numReallocate, numReallocateOK, numReallocateInPlace
                   realloc calls on a block, those that succeeded, and
                   those that kept the block where it was;
   numExpand, numExpandOK  reallocs that grew a block, and those that grew
                   it in place;
   numDeallocate   free, GC_free and realloc (p, 0) calls, free (NULL)
                   included; a free of a pointer memprof did not allocate
                   goes to the system allocator untouched and is counted in
                   numForeignDeallocate instead;
   bytesAllocated  bytes requested by allocations, plus the growth of
                   reallocated blocks (a user allocator built without the
                   plugin counts GC_size for a GC block, nothing for
                   others);
   bytesExpanded, bytesContracted  growth and shrinkage by realloc; in
                   per-site statistics bytesContracted also counts the
                   bytes a free released, as in D;
   bytesMoved, bytesNotMoved  bytes kept by reallocs that moved the block,
                   and by those that did not;
   bytesUsed       bytes of blocks allocated and not yet freed.  For the
                   malloc family these are requested bytes.  For the GC
                   family a GC_free does not know the requested size, so
                   GC blocks are counted at their usable size (GC_size),
                   on allocation and on GC_free alike; blocks reclaimed by
                   the collector are not deallocations (see live_words);
   bytesSlack      bytes the allocator added beyond the request (malloc's
                   and Boehm's rounding) for blocks still held; for GC
                   blocks freed with GC_free the slack is not known and
                   stays counted;
   bytesHighTide   the highest bytesUsed seen; exact in a single-threaded
                   program, within 1 MiB per thread otherwise.

   The per-site statistics have the counters that D allows per call: all
   of the above but bytesUsed, bytesSlack and bytesHighTide.

   Which of them are collected is a choice, as D's `flags' (global) and
   `perCallFlags' (per call site) are: all of them by default.  The
   plugin's -fplugin-arg-memprof-stats=LIST and
   -fplugin-arg-memprof-per-call=LIST choose for the sites of a unit,
   and MEMPROF's stats=LIST and per_call=LIST narrow the choice at run
   time, for code already built.  A LIST joins D's names and groups (the
   MP_STATS_* below, without the prefix) with `+' (or `,' in the plugin's
   arguments).  A site compiled with fewer statistics costs less: the
   plugin calls a lean entry of the runtime for it, which leaves out the
   work of the others (README, "Overhead", measures it); MEMPROF's
   choice changes what is shown, not what code already built costs.  A
   global statistic is shown when every site that has run collected it,
   so that its total is exact; a site's per-call statistics are those
   its unit chose.  The report, mp_report_statistics,
   mp_report_per_call_statistics and the JSON report show the collected
   statistics only, as D's reports do; those not collected read 0 here
   and in struct mp_site_info.  */
enum mp_stats_option
{
  MP_STATS_numAllocate = 1u << 0, MP_STATS_numAllocateOK = 1u << 1,
  MP_STATS_numExpand = 1u << 2, MP_STATS_numExpandOK = 1u << 3,
  MP_STATS_numReallocate = 1u << 4, MP_STATS_numReallocateOK = 1u << 5,
  MP_STATS_numReallocateInPlace = 1u << 6, MP_STATS_numDeallocate = 1u << 7,
  MP_STATS_numForeignDeallocate = 1u << 8, MP_STATS_bytesUsed = 1u << 9,
  MP_STATS_bytesAllocated = 1u << 10, MP_STATS_bytesExpanded = 1u << 11,
  MP_STATS_bytesContracted = 1u << 12, MP_STATS_bytesMoved = 1u << 13,
  MP_STATS_bytesNotMoved = 1u << 14, MP_STATS_bytesSlack = 1u << 15,
  MP_STATS_bytesHighTide = 1u << 16,
  /* D's groups: every numXxx, every bytesXxx, all (`none' is 0).  */
  MP_STATS_numAll = 0x001ff, MP_STATS_bytesAll = 0x1fe00,
  MP_STATS_all = 0x1ffff
};

struct mp_alloc_stats
{
  uint64_t numAllocate, numAllocateOK;
  uint64_t numExpand, numExpandOK;
  uint64_t numReallocate, numReallocateOK, numReallocateInPlace;
  uint64_t numDeallocate, numForeignDeallocate;
  uint64_t bytesAllocated, bytesExpanded, bytesContracted;
  uint64_t bytesMoved, bytesNotMoved;
  int64_t bytesUsed, bytesSlack;
  int64_t bytesHighTide;
};

/* A function GCC inlined at a site, and where it was called.  */
struct mp_inlined
{
  const char *function;
  const char *file;
  unsigned line, column;
};

/* One call site and its counters.  The inline chain lists the functions
   that GCC inlined at the site, innermost first: inlined[0].function is
   the function whose body holds the call.  */
struct mp_site_info
{
  const char *file;
  unsigned line, column;
  const char *function;    /* the function the code was emitted in */
  const char *callee;      /* what was called: "malloc", "GC_malloc", ... */
  unsigned n_inlined;
  const struct mp_inlined *inlined;
  struct mp_alloc_stats stats;          /* the per-call counters */
  double minor_words, major_words;      /* GC words allocated here */
  unsigned collected;   /* the MP_STATS_* bits of those kept in STATS */
  int not_rewritten;       /* a call the plugin did not rewrite, caught by
                              the runtime's own malloc family: FILE,
                              LINE and FUNCTION are the calling
                              address's, CALLEE the function called */
};

/* The global counters.  */
void mp_alloc_stats (struct mp_alloc_stats *out);

/* The MP_STATS_* bits of the global statistics collected so far.  */
unsigned mp_alloc_stats_collected (void);

/* Call FN on every site that has run, in no particular order (D's
   byFileLine), until FN returns nonzero; return that value or 0.  The
   info and its strings are valid during the call only.  */
int mp_site_foreach (int (*fn) (const struct mp_site_info *, void *data),
                     void *data);

/* D's reports: one `name:value` line per global counter collected, and
   one `file.c(655): [numAllocate:21, numAllocateOK:21, bytesAllocated:324202]`
   line per source line that has allocation sites with per-call
   statistics (nonzero counters collected, in D's order).  With nothing
   collected they print nothing, as D's do.  */
void mp_report_statistics (FILE *out);
void mp_report_per_call_statistics (FILE *out);

/* The whole exit-time report, now, on OUT.  */
void mp_report (FILE *out);

/* Sampling: OCaml's Gc.Memprof.

   Once mp_memprof_start has run, every word allocated by an instrumented
   call (both families) is sampled independently with probability
   SAMPLING_RATE: a block of n words gets Binomial (n, rate) samples, so
   n_samples / rate is an unbiased estimate of its size for every n, and
   at rate 1 n_samples is its size exactly.  A block with at least one
   sample is passed to the tracker: alloc_minor for a young GC block
   (collectable, at most MP_MAX_YOUNG_WOSIZE words), alloc_major for every
   other block.  What the callback returns is the block's metadata; NULL
   stops tracking it.

   Callbacks run in the allocating (or freeing) thread, after the block is
   made and before the allocating call returns, with sampling suspended in
   that thread: what a callback allocates is never sampled.  They may call
   the runtime, and they leave errno as it was.  GCC compiles the code
   around an allocation knowing that malloc, free and the GC allocators
   touch no variable of the program, and callbacks run inside them: make
   what a callback writes volatile or atomic if the allocating code reads
   it.

   A tracked malloc-family or custom block is reported to dealloc_major
   when it is freed (free, mp_free_custom, or a realloc that works, which
   ends the block as it was), in the freeing thread.  The words a realloc
   adds are sampled as a block of their own: its size is the words
   added, and the realloc's result is the block.

   A tracked GC block is young until the next collection.  If it survives
   it, promote gets its metadata and returns the metadata to keep from
   then on (NULL stops tracking it).  When Boehm really reclaims the block
   (after its finaliser, if any, ran and left it unreachable: a block a
   finaliser resurrects is not dead), dealloc_minor or dealloc_major gets
   its metadata, as the block was young or not; GC_free and a GC_realloc
   that moves the block end it the same way.  These callbacks are
   postponed: they run at a later allocation of some thread, never twice,
   one thread at a time, a block's in order (alloc, promote, dealloc),
   and never inside Boehm's callbacks (GC_set_on_collection_event's, the
   start callback, the heap resize one), which run holding Boehm's lock:
   an allocation there leaves them, as it leaves finalisers and a
   compaction, to the next allocation after.

   Each allocation comes with its call stack: every frame a debugger's
   backtrace shows at the allocating call, inlined frames included,
   innermost first, no frame of memprof's own, and, as gdb's backtrace,
   none outside main: a stack ends at main, or in other threads at their
   start routine (MEMPROF's past_main keeps the frames of libc's start-up
   and of what runs a thread).  It has at most CALLSTACK_SIZE return
   addresses (at most MP_MAX_CALLSTACK; 0 captures none), and at most
   CALLSTACK_SIZE frames.  It is captured as return addresses when the
   sample falls and symbolised (with elfutils' libdw, loaded then) only
   when asked for; the first lookup in a process takes about a
   millisecond.  Frames in a module not built with the plugin whose
   debug information is compressed (libc's, as libc6-dbg installs it)
   are named from its symbol table, without file and line: libdw would
   inflate all of it to read any of it.  */
enum mp_source
{
  MP_SOURCE_NORMAL,             /* GC_malloc and the like */
  MP_SOURCE_ATOMIC,             /* GC_malloc_atomic, GC_strdup, ... */
  MP_SOURCE_UNCOLLECTABLE,      /* GC_malloc_uncollectable, ... */
  MP_SOURCE_MALLOC,             /* the malloc family */
  MP_SOURCE_CUSTOM              /* mp_alloc_custom */
};

/* A call stack, valid during the callback that received it.  */
typedef struct mp_callstack mp_callstack;

#define MP_MAX_CALLSTACK 1024

/* A frame: its function, and the position in it (FILE NULL and LINE 0
   where there is no debug information).  INLINED is nonzero for a frame
   that GCC inlined into the next one.  FUNCTION is named as the report
   names it (README, "The report"): C++'s demangled signature, and a
   namesake of another function met so far followed by its file, as
   `helper (a.c)'.  */
struct mp_frame
{
  const char *function, *file;
  unsigned line;
  int inlined;
};

/* The number of frames of CS.  */
size_t mp_callstack_length (const mp_callstack *cs);

/* Frame I of CS (0 is the allocating function) into *OUT; 0, or -1 with
   errno EINVAL if there is no frame I.  The strings live as long as the
   process.  */
int mp_callstack_frame (const mp_callstack *cs, size_t i,
                        struct mp_frame *out);

/* Print CS on OUT, a line per frame, as `#0  fn at file.c:12 (inlined)'.  */
void mp_callstack_print (FILE *out, const mp_callstack *cs);

struct mp_allocation
{
  size_t n_samples;             /* sampled words of the block, >= 1 */
  size_t size;                  /* the block's size in words */
  enum mp_source source;
  const mp_callstack *callstack;
};

struct mp_tracker
{
  void *(*alloc_minor) (const struct mp_allocation *, void *data);
  void *(*alloc_major) (const struct mp_allocation *, void *data);
  void *(*promote) (void *minor_meta, void *data);
  void (*dealloc_minor) (void *minor_meta, void *data);
  void (*dealloc_major) (void *major_meta, void *data);
  void *data;                   /* passed to every callback */
};

/* A tracker that tracks nothing; any callback may be NULL.  */
extern const struct mp_tracker mp_null_tracker;

/* Start sampling at SAMPLING_RATE (0 to 1) with TRACKER (copied).  The
   report's own sampling (MEMPROF's sampling_rate) goes on at that rate
   and sees the same samples; mp_memprof_stop puts its rate back.
   Return 0, or -1 with errno EBUSY if sampling is already started, or
   EINVAL for a rate out of range or a NULL tracker.  */
int mp_memprof_start (double sampling_rate, size_t callstack_size,
                      const struct mp_tracker *tracker);

/* Out-of-heap memory, as OCaml's custom blocks: N bytes from the system
   allocator, counted in the allocator statistics at the runtime's sites
   "mp_alloc_custom" and "mp_free_custom", and sampled as
   MP_SOURCE_CUSTOM (alloc_major, then dealloc_major at mp_free_custom).
   mp_free_custom (NULL) does nothing; free () may free them too.  */
void *mp_alloc_custom (size_t n);
void mp_free_custom (void *p);

/* Stop sampling and forget every tracked block, without callbacks.
   Return 0, or -1 with errno EINVAL if sampling is not started.  It
   returns once the callbacks under way in other threads are over; no
   callback starts after.  */
int mp_memprof_stop (void);

/* Space profiles, as MLWorks' function_space_profile: per function, what
   its allocations cost and what became of them, from the report's
   sampling (every sample, at MEMPROF's sampling_rate or the program's
   between mp_memprof_start and mp_memprof_stop).

   Each figure is an estimate.  A sampled block of W words with n
   samples taken at rate r stands for n / (r W) blocks of its size: the
   sum over samples is an unbiased estimate of what was allocated, and at
   rate 1 (n = W) it is exact.  RATE_MIN and RATE_MAX say which rates
   the samples were taken at.

   The model of copies.  The heap does not move blocks; a block "copied"
   is one that survived a collection.  A sampled GC block has an age, the
   number of collections it has survived, starting at 0.  Each time a
   collection finds it alive (it was allocated before the collection
   began), its estimate is added to copies[min (age, 3)] and its age
   grows by one.  So copies[0] counts the blocks that survived their
   first collection (for young blocks, their promotion), copies[1] their
   second, copies[2] their third and copies[3] all later ones, and a
   block that lives through k collections is copied k times, like a
   block a generational copying collector moves k times.  Blocks of the
   malloc family and custom blocks are never copied.

   The breakdown by kind: kinds[k][0] is what was allocated of source k
   (blocks, data bytes: the size in words, and overhead bytes: what the
   allocator gave beyond that, Boehm's granule rounding or malloc's), and
   kinds[k][1 + g] what of it survived at age g.

   Exclusive figures count the allocations whose site is in the function
   itself (after inlining: the innermost frame of the site); inclusive
   figures count every sample whose call stack passes through the
   function, once per stack however often the function recurs in it.
   Inclusive figures see only the frames the call stacks keep
   (callstack_size).  */
#define MP_AGES 4               /* ages 0, 1, 2, and 3 and over */
#define MP_SOURCES 5            /* the values of enum mp_source */

struct mp_space_amount
{
  double count;                 /* blocks */
  double data;                  /* bytes: the blocks' size in words */
  double overhead;              /* bytes beyond that */
};

struct mp_space_totals
{
  double allocated;             /* data bytes allocated */
  double count;                 /* blocks allocated */
  double overhead;              /* overhead bytes allocated */
  double copied;                /* data bytes copied: sum of copies */
  double copies[MP_AGES];       /* data bytes copied at each age */
  double live;                  /* data bytes not dead yet */
  struct mp_space_amount kinds[MP_SOURCES][1 + MP_AGES];
};

struct mp_space_profile
{
  const char *function;         /* lives as long as the process */
  uint64_t samples;             /* samples (sampled words) whose site is
                                   in it */
  double rate_min, rate_max;    /* the rates of all the samples */
  struct mp_space_totals exclusive, inclusive;
};

/* Call FN (PROFILE, DATA) for each function with a sampled allocation
   site or on a sampled call stack, the largest exclusive allocation
   first (then the largest inclusive one, then by name); stop early and
   return what FN returned if it is not 0.  Returns 0 when done, or -1
   with errno EINVAL for a NULL FN, ENOMEM without memory.  Symbolises
   the call stacks (see mp_callstack).  */
int mp_space_profile_foreach (int (*fn) (const struct mp_space_profile *,
                                         void *data),
                              void *data);

/* Collections, as OCaml's Gc.  Each delivers the callbacks due (the
   tracker's, finalise_last's, alarms') before it returns, those of what
   it collected among them; but the callbacks of each kind (the
   tracker's; finalise_last's and alarms') are delivered by one thread
   at a time, in order, and while another thread delivers them (in one
   of them, or about to call one) the collection leaves them to it and
   returns without waiting, since that callback may be waiting for the
   caller: that thread delivers them, those due after it started
   included, before it returns to the program.

   mp_minor        ends the youth of every young block: a partial Boehm
                   collection in incremental mode, else a full one
                   (counted in major_collections too: Boehm has nothing
                   smaller);
   mp_major_slice  a slice of Boehm's incremental work
                   (GC_collect_a_little); N is accepted for OCaml's sake
                   and has no effect; returns 0;
   mp_major        a full collection;
   mp_full_major   a full collection, its finalisers, and a full
                   collection again for what they leave;
   mp_compact      three full collections, the last two returning the
                   free memory to the system (GC_gcollect_and_unmap;
                   Boehm 8.2 unmaps a block two collections after the one
                   that freed it): Boehm does not move blocks, this is
                   what compacting means here.  heap_words falls by what
                   was given back, the blocks dead at the call included.
   mp_major, mp_full_major and mp_compact count in the stat record's
   forced_major_collections, mp_compact in compactions.  */
void mp_minor (void);
long mp_major_slice (long n);
void mp_major (void);
void mp_full_major (void);
void mp_compact (void);

/* The control record: OCaml's Gc.control, read with mp_get and changed
   with mp_set.  Sizes are in words.  What each field does on Boehm:

   minor_heap_size   the young-words budget of a thread (OCaml 5's minor
                     heap is per domain): once a thread has allocated this
                     many young words since the last collection, it runs a
                     minor collection (see mp_minor), at the allocation
                     that reached the budget, so that block is promoted if
                     it is still held.  0, the default, sets no budget:
                     collections happen when Boehm decides.  A thread
                     sees a new value at its next allocation (rarely, a
                     race with that allocation delays it by up to a few
                     thousand).  0 or 4096 to 2^40;
   major_heap_increment  accepted, no effect: Boehm chooses how much its
                     heap grows.  0 to 2^40 (OCaml: at most 1000 is a
                     percentage of the heap, more is words); default 15;
   space_overhead    Boehm's free-space divisor D, which lets about
                     2/D of the heap be allocated between collections:
                     D = 200 / space_overhead, rounded, at least 1.  Read
                     back, it is the value set, or 200 / D if the divisor
                     was set some other way.  1 to 1000000; default from
                     Boehm's divisor (3: 67);
   verbose           the messages printed on stderr, each a line starting
                     with `memprof: ' (see MP_VERBOSE_*).  0 to 0x1fff;
                     default 0x400;
   max_overhead      when the free words of the heap exceed this percentage
                     of its used words at the end of a full collection,
                     memprof compacts the heap (as mp_compact, at the next
                     allocation of some thread).  0 compacts after every
                     full collection, 1000000 (the default) never.  0 to
                     1000000;
   stack_limit       the main thread's stack limit (RLIMIT_STACK's soft
                     limit), in words; setting it above the hard limit
                     fails.  1 to 2^60, where 2^60 means no limit
                     (RLIM_INFINITY);
   allocation_policy accepted, no effect: Boehm allocates heap blocks best
                     fit from free lists by size, which is policy 2, the
                     default.  0 to 2;
   window_size       accepted, no effect (Boehm has no smoothing of major
                     slices).  1 to 50; default 1;
   custom_major_ratio, custom_minor_ratio, custom_minor_max_size
                     accepted, no effect: mp_alloc_custom memory is freed
                     by mp_free_custom, never by the collector, so
                     collecting sooner would not release it.  Ratios 1 to
                     1000000 (defaults 44 and 100), the size 0 to 2^40
                     bytes (default 70000);
   incremental       Boehm's incremental (generational) marking: 0 or 1.
                     Boehm cannot switch it off once on, so setting 0 then
                     fails.  Boehm may refuse to switch it on
                     (GC_DISABLE_INCREMENTAL in the environment, its leak
                     detector, no way to track dirty pages): mp_get and
                     mp_set start Boehm to ask it, and MEMPROF's
                     incremental=1 is dropped with a warning.  Off by
                     default: it made binary-trees slower.

   mp_get fills *C with the settings now.  mp_set (C) checks every field
   of *C, then applies them all and returns 0, or changes nothing and
   returns -1 with errno EINVAL if one is out of range (or NULL), or
   ENOTSUP if Boehm refuses incremental mode.  */
struct mp_control
{
  long minor_heap_size;
  long major_heap_increment;
  long space_overhead;
  long verbose;
  long max_overhead;
  long stack_limit;
  long allocation_policy;
  long window_size;
  long custom_major_ratio;
  long custom_minor_ratio;
  long custom_minor_max_size;
  long incremental;
};

void mp_get (struct mp_control *c);
int mp_set (const struct mp_control *c);

/* The verbose flags, in the spirit of OCaml's.  Each message is one line
   on stderr.  */
#define MP_VERBOSE_MAJOR      0x001  /* "starting a major GC cycle (collection N)" */
#define MP_VERBOSE_MINOR      0x002  /* "minor collection N: W words promoted",
                                        and "major slice" */
#define MP_VERBOSE_HEAP       0x004  /* "growing heap to N KiB",
                                        "shrinking heap to N KiB" */
#define MP_VERBOSE_COMPACTION 0x010  /* "compacting heap (N KiB)",
                                        "compaction done (N KiB)" */
#define MP_VERBOSE_PARAMS     0x020  /* "new FIELD: VALUE", for each field
                                        mp_set changes */
#define MP_VERBOSE_OVERHEAD   0x200  /* "estimated overhead: N%" after each
                                        full collection, against
                                        max_overhead */
#define MP_VERBOSE_FINALISE   0x080  /* "calling finalisation functions",
                                        "done calling finalisation
                                        functions" */
#define MP_VERBOSE_EXIT_STAT  0x400  /* the stat record in the exit report */
/* OCaml's other flags name things Boehm and C do not have: 0x008 (stack
   and table resizing), 0x040 (slice size computation), 0x100 (library
   search), 0x800 and 0x1000 (debugging, address space).  They are
   accepted and print nothing.  */

/* Finalisation, as OCaml's Gc.

   mp_finalise (FN, OBJ, DATA): FN (OBJ, DATA) runs once OBJ, the start of
   a GC block, has become unreachable; OBJ is alive again for the call,
   and stays so if FN stores it somewhere (a tracker then sees no death).
   An object may have several; each runs once.  As OCaml's, they have no
   order: an object in a cycle, or reached from another finalisable
   object, is finalised once no root reaches it, and whatever it reaches
   stays valid while its calls run (Boehm's java finalisation, on by
   default, does that; with GC_set_java_finalization (0) mp_finalise
   warns, once).  Boehm prints no "Finalization cycle" for them.  Those
   of objects found unreachable by the same collection run in the
   reverse order of their mp_finalise calls, after the program's own
   finalisers of those objects.  They run when Boehm runs finalisers (at
   an allocation, or GC_invoke_finalizers); when a finaliser of the
   program's that keeps an order (GC_register_finalizer's or
   _ignore_self's, on the object in a cycle or on an object that
   reaches it) holds the object back, at an allocation after the
   collection that found it unreachable.

   A finaliser the program registers on the object itself, with
   GC_register_finalizer, _ignore_self, _no_order or _unreachable, keeps
   its kind and runs as it would without mp_finalise calls, before or
   after them: the plugin rewrites these calls so that they replace the
   program's finaliser alone, give back the program's previous one, and
   leave the mp_finalise calls in place.  One registered by code built
   without the plugin is taken as GC_register_finalizer's kind, and its
   own GC_register_finalizer calls replace the mp_finalise calls, as they
   would any finaliser.

   mp_finalise_last (FN, OBJ, DATA): FN (DATA) runs after OBJ is gone for
   good, finalisers included, at a later allocation of some thread or at
   exit; those due together run in the reverse order of their calls.

   mp_finalise_release (): from a finaliser, lets the next ones run now,
   without waiting for this one to return.

   mp_create_alarm (FN, DATA): FN (DATA) runs at the end of each full
   collection (at a later allocation, like finalise_last), until
   mp_delete_alarm.  NULL with errno EINVAL for a NULL FN, ENOMEM without
   memory, ENOSYS in a process that started without libgc (a call the
   plugin did not see: one that it sees makes the program need libgc),
   which has no collection to run it.

   Without libgc, the collections (mp_minor ...) deliver what the
   trackers are owed and collect nothing, and mp_finalise and
   mp_finalise_last have no GC block to watch: a warning, and EINVAL.

   A bad OBJ or a NULL FN gets a one-line warning and is ignored, with
   errno EINVAL.  */
void mp_finalise (void (*fn) (void *obj, void *data), void *obj, void *data);
void mp_finalise_last (void (*fn) (void *data), void *obj, void *data);
void mp_finalise_release (void);
struct mp_alarm;
struct mp_alarm *mp_create_alarm (void (*fn) (void *data), void *data);
void mp_delete_alarm (struct mp_alarm *alarm);

/* Language VMs.  A VM on Boehm's heap tells memprof here what the
   plugin cannot see: objects its generated code allocates, and the
   program it runs, whose procedures and frames then show in the report
   among the C ones.  doc/vm-integration.md shows how, with GNU Guile as
   the example.

   Declared with MEMPROF_OPTIONAL defined, these functions are weak
   references: a VM built and linked without memprof then finds them
   NULL and skips them (if (mp_vm_allocated) ...).  */
#if defined MEMPROF_OPTIONAL && !defined MP_VM_DECL
# define MP_VM_DECL __attribute__ ((weak))
#elif !defined MP_VM_DECL
# define MP_VM_DECL
#endif

/* OBJ, the start of a block of WORDS words on Boehm's heap, of KIND
   (MP_SOURCE_NORMAL, MP_SOURCE_ATOMIC or MP_SOURCE_UNCOLLECTABLE), has
   just been handed to the program by code the plugin cannot see (a free
   list popped in code the VM generates, an allocator built without the
   plugin).  It is counted like any allocation: at the call's site, which
   the plugin passes as it does for malloc (built without the plugin, the
   call counts at the runtime's site "mp_vm_allocated"), young or major
   by its size and kind, sampled.  A NULL OBJ is a failed allocation.  An
   OBJ that is not the start of a GC block, or another KIND, gets one
   warning; the call is counted, the block is not.  */
MP_VM_DECL void mp_vm_allocated (void *obj, size_t words,
                                 enum mp_source kind);

/* A site of the VM's: MP_VM_CODE, an allocation point of code the VM
   generates, whose allocations are counted there (see mp_vm_young), or
   MP_VM_PROCEDURE, a procedure of the guest language, which counts every
   GC allocation made while it runs (see mp_vm_running).  FUNCTION, FILE
   and LINE are copied (NULL: "??" and no file).  It lives as long as the
   process, in the report's sites; NULL without memory.  */
enum mp_vm_site_kind { MP_VM_CODE, MP_VM_PROCEDURE };
struct mp_vm_site;
MP_VM_DECL const struct mp_vm_site *
mp_vm_site (const char *function, const char *file, unsigned line,
            enum mp_vm_site_kind kind);

/* The running procedure: the calling thread's slot, which stays the
   same for the thread's life.  While the VM keeps a procedure's site
   there (a pointer store when a procedure starts running, and when the
   procedure it returns to does), every GC allocation the thread makes,
   whatever C site counts it, is also counted at that site: the report
   gets exact allocation counts per guest procedure.  These are a second
   view of the same allocations: totals leave them out.  NULL: none.  */
MP_VM_DECL const struct mp_vm_site **mp_vm_running (void);

/* Allocation in generated code.  As OCaml's young-limit check, a JIT
   emits the fast path inline: counting a young object (collectable,
   MP_SOURCE_NORMAL or MP_SOURCE_ATOMIC, at most MP_MAX_YOUNG_WOSIZE
   words) takes a few loads and stores into the allocating thread's
   record, laid out as struct mp_vm_thread, and a call of mp_vm_slow
   when the sampler's countdown runs out or the young-block log reaches
   its limit (full, or holding entries a collection has decided).
   mp_vm_young below is that fast path in C: a JIT emits the same
   instructions.  Larger and uncollectable objects go through
   mp_vm_allocated.  The fast path counts at its own site only (not at
   the running procedure: give generated code sites of its own), and
   leaves bytesUsed alone.

   The thread's record is at mp_vm_thread (), the same for the thread's
   life.  A site's counters are at the same offset from every thread's
   record: mp_vm_site_offset (SITE), for a site of MP_VM_CODE, made
   once (-1 with errno EINVAL for another).  The young-block log holds one word per block:
   its address (16-byte aligned, below 2^48) | the collections completed
   (*mp_vm_epoch ()) mod 16 | its words << 48; the count is stored after
   the entry, with release order (a plain store on x86-64).  The layout
   is MP_VM_ABI's; mp_vm_thread returns NULL for another.  */
#define MP_VM_ABI 1
struct mp_vm_thread
{
  int64_t words_left;           /* words to allocate before the sampler's
                                   slow path: subtract, and call
                                   mp_vm_slow if it would go below 0 */
  uint64_t *log;                /* the young-block log */
  size_t log_count;             /* its entries */
  size_t log_limit;             /* call mp_vm_slow when log_count is at
                                   it; the collector lowers it after a
                                   collection: read it at each
                                   allocation */
};

/* A site's counters, from the record plus its offset: int64_t each.  */
enum { MP_VM_NUM_ALLOCATE, MP_VM_BYTES_ALLOCATED, MP_VM_MINOR_WORDS };

MP_VM_DECL struct mp_vm_thread *mp_vm_thread (unsigned abi);
MP_VM_DECL ptrdiff_t mp_vm_site_offset (const struct mp_vm_site *site);
MP_VM_DECL const volatile uint64_t *mp_vm_epoch (void);

/* The slow path: count OBJ (WORDS words of KIND at SITE) as
   mp_vm_allocated would, sampling it if its words hold the next sampled
   one; the fast path has changed nothing then.  */
MP_VM_DECL void mp_vm_slow (void *obj, size_t words, enum mp_source kind,
                            const struct mp_vm_site *site);

/* The fast path, for a young OBJ of WORDS words of KIND at SITE, whose
   counters are at OFFSET from VT (VT from mp_vm_thread (MP_VM_ABI),
   OFFSET from mp_vm_site_offset (SITE), EPOCH from mp_vm_epoch ()).  */
static inline void
mp_vm_young (struct mp_vm_thread *vt, ptrdiff_t offset,
             const volatile uint64_t *epoch, void *obj, size_t words,
             enum mp_source kind, const struct mp_vm_site *site)
{
  int64_t left = vt->words_left - (int64_t) words;
  size_t n = vt->log_count;
  if (left < 0 || n >= vt->log_limit)
    {
      mp_vm_slow (obj, words, kind, site);
      return;
    }
  int64_t *c = (int64_t *) ((char *) vt + offset);
  vt->words_left = left;
  c[MP_VM_NUM_ALLOCATE] += 1;
  c[MP_VM_BYTES_ALLOCATED] += (int64_t) (words * sizeof (void *));
  c[MP_VM_MINOR_WORDS] += (int64_t) words;
  vt->log[n] = (uint64_t) (uintptr_t) obj | (*epoch & 15)
               | (uint64_t) words << 48;
  __atomic_store_n (&vt->log_count, n + 1, __ATOMIC_RELEASE);
}

/* Guest call stacks.  A VM registers a frame provider; at each sample
   memprof calls CAPTURE in the allocating thread (with sampling
   suspended there), which writes the VM's frames as opaque words into
   FRAMES, at most MAX, and returns how many.  The words are the VM's
   to choose (a pointer to a procedure's code, an index), each below
   2^56.  At report time SYMBOLISE (WORD, OUT, DATA) turns each distinct
   word once into a function, file and line (strings copied; INLINED
   is ignored), and returns 0, or -1 if it cannot: the frame shows "??",
   as does a word of 2^56 or more.

   ENTRY is the VM's C function that runs guest code: a guest frame is
   shown just outside (as the caller of) the C frame of the ENTRY
   activation running it.  CAPTURE
   lists, innermost first, for each activation of ENTRY on the C stack,
   innermost first, the frames it runs, then MP_FRAME_ENTRY.  Guest
   frames whose ENTRY activation is not among the C frames captured
   (callstack_size cut the stack below it, or the allocation ran on a C
   path not under ENTRY), and all of them without ENTRY (NULL), come
   after all the C frames, outermost, as their callers.  The guest
   frames are not counted in callstack_size.
   MEMPROF's vm_frames says how they show: `interleave' (the default),
   `instead' (the guest frames in place of the C frames from the
   innermost activation of ENTRY to the outermost), or `off' (C frames
   only).  The frames go with the sample everywhere: the report, pprof,
   folded stacks, JSON, HTML and the tracker's call stacks.

   mp_set_frame_provider (P) copies *P and replaces the provider; NULL
   removes it.  It returns once no CAPTURE of the one it replaced runs
   any more, having symbolised that one's frames of the samples so far,
   so the VM may free DATA then.  Returns 0, or -1 with errno EINVAL for
   a P without CAPTURE or SYMBOLISE.  */
#define MP_FRAME_ENTRY (~(uintptr_t) 0)
struct mp_frame_provider
{
  size_t (*capture) (uintptr_t *frames, size_t max, void *data);
  int (*symbolise) (uintptr_t frame, struct mp_frame *out, void *data);
  const void *entry;
  void *data;
};
MP_VM_DECL int mp_set_frame_provider (const struct mp_frame_provider *p);

/* The event log, OCaml's eventlog: MEMPROF's eventlog=PATH writes the
   runtime's events to PATH as they happen, in the Chrome trace-event
   format (a JSON array), which Perfetto (ui.perfetto.dev) and
   chrome://tracing open.  Each event has a timestamp (microseconds since
   the runtime started) and the thread that made it:

     minor, major, mark, reclaim
                 spans of each collection's phases in the thread that
                 collected: minor for every collection (a full one
                 begins with a minor one, as in OCaml: the stat record's
                 minor_collections counts them), major around the full
                 ones (major_collections), mark and reclaim inside;
     forced      a span around a collection the runtime forced, its
                 `args.by' saying what forced it: mp_minor,
                 mp_major_slice, mp_major, mp_full_major, mp_compact,
                 max_overhead, minor_heap_size, young-block log full;
     compaction  a span around a compaction;
     finalisers  a span while memprof runs finalisers: mp_finalise's,
                 mp_finalise_last's and alarms;
     heap growth an instant, with a counter `heap', at each growth of
                 Boehm's heap (`args.bytes', the new size);
     alloc_minor, alloc_major, promote, dealloc_minor, dealloc_major
                 spans around the tracker's callbacks;
     exit report a span around the report's writing at exit, with text,
                 pprof, folded and json spans for each file written.

   A span is recorded whole or not at all: its end is recorded if its
   beginning was.  The file is written through a small buffer per
   thread, which goes to the file when it is full, at the end of each
   collection, at the thread's end, at mp_eventlog_pause and at exit;
   exit also writes the array's closing `]', which the format allows to
   be missing, so that a process that crashes or is killed leaves a file
   that loads up to its last write (a fatal signal memprof handles
   writes what it can first).  MEMPROF's eventlog_paused=1 starts the log
   paused, as OCAMLRUNPARAM's eventlog `p' does.  */

/* OCaml's Gc.eventlog_pause and Gc.eventlog_resume: pause writes the
   events recorded so far to the file and stops recording; resume starts
   it again.  Pausing a paused log, resuming a running one, or either
   without a log does nothing.  */
void mp_eventlog_pause (void);
void mp_eventlog_resume (void);

/* Configuration: the MEMPROF environment variable, read at start-up, a
   comma-separated list of KEY=VALUE items like OCAMLRUNPARAM:
       MEMPROF=sampling_rate=1e-3,callstack_size=64,v=0x400,report=prof.txt

   Numbers are decimal, 0x hexadecimal or 0 octal, and may end in k, M or
   G (times 2^10, 2^20, 2^30), as in OCAMLRUNPARAM; no sign or white
   space may come before them.

   The report:
     report=PATH        where the exit report goes: a file, `stderr' (the
                        default) or `none'
     sections=LIST      the report's sections, joined by `+': stat (the
                        stat record, also needs verbose's 0x400), alloc
                        (allocator statistics), sites, functions (space
                        profiles), stacks (call stacks); `all' (the
                        default) or `none'
     sites=N            sites listed, largest first (default 20, 0: all)
     functions=N        space profiles listed (default 10, 0: all)
     stacks=N           call stacks listed per section (default 5, 0: all)
     pprof=PATH         also write pprof's profile.proto, gzipped
     folded=PATH        also write folded stacks (flamegraph.pl, speedscope)
     json=PATH          also write the JSON report (doc/report-json.md)
     html=PATH          also write a self-contained HTML report
     stats=LIST         the global statistics shown, of those the plugin's
                        stats= chose: D's names and groups (mp_stats_option)
                        joined by `+' (default all)
     per_call=LIST      the same for the per-call statistics (default all)
     eventlog=PATH      write the event log (mp_eventlog_pause) to PATH
     eventlog_paused=B  1: the event log starts paused (default 0)
                        In every PATH, %p is the pid and %% a %; a forked
                        child given a PATH without %p writes PATH.PID.
   Each file is written at exit to a new file beside it, PATH.tmpXXXXXX
   (made with O_EXCL, mode 0666 less the umask), then renamed over PATH:
   so PATH's directory must be writable, a symlink at PATH is replaced,
   not followed, and PATH is never left half-written.  A file that
   cannot be written whole (a full disk, a write error, RLIMIT_FSIZE) is
   removed, PATH keeps what it had, and one warning line names PATH and
   the reason; the text report then goes to stderr, whole.  SIGXFSZ is
   ignored while the files are written if the program left it at its
   default, which would kill the process.  A PATH that is a character
   device or a FIFO, or the file stdout or stderr is open on (/dev/null,
   a terminal, /dev/stdout), is written in place, after what stdout and
   stderr buffered.  A process that dies by one of the signals whose
   summary memprof writes (abort, SIGSEGV, SIGTERM, ...) while it writes
   its files removes the temporary ones, with unlink(2), which is
   async-signal-safe; SIGKILL, or another signal that kills, leaves them.
   The event log cannot wait for the end: it is written as it goes, to a
   new file made beside PATH in the same way, and renamed over PATH when
   the runtime starts, before anything is written; a PATH that cannot be
   made or written gets one warning, and the program runs on without
   it.
   Sampling:
     sampling_rate=R    the report's sampling rate, 0 to 1 (0: off); by
                        default 1e-4 when something shows the samples
                        (the report with its functions or stacks
                        section, pprof, folded, json or html), else 0:
                        with report=none alone, nothing is sampled for
                        the report, and mp_space_profile_foreach and
                        mp_report see only the samples of
                        mp_memprof_start
     callstack_size=N   frames per sampled call stack (default 64, at most
                        MP_MAX_CALLSTACK), a language VM's frames
                        (mp_set_frame_provider) on top; a stack cut there
                        ends, in the report's forms, with a frame
                        `(truncated)'
     past_main=B        1: call stacks go on past main, into libc's
                        start-up (__libc_start_call_main,
                        __libc_start_main, _start), and past a thread's
                        start routine (start_thread, clone3), as gdb's
                        `set backtrace past-main on'; 0 (the default):
                        they stop at main and at the start routine
     own_limit=BYTES    memory for the sampling tables (default 256M): past
                        it, or when malloc refuses them memory, sampling
                        (mp_memprof_start's too) stops for good with one
                        warning, and counting goes on; the report's
                        allocator statistics show the figures
     vm_frames=MODE     a language VM's frames (mp_set_frame_provider):
                        interleave (the default), instead, or off
   The calls no rewritten site made:
     interpose=B        1 (the default): the runtime's malloc family, C++
                        operators and dlclose, in front of the C and C++
                        libraries', count them at a site of their calling
                        address (mp_site_info's not_rewritten); 0: they
                        pass them on uncounted.  Under ASan, 0 whatever
                        it says.
   The collector: each field of struct mp_control, by its long name or by
   OCaml's letter, with the same ranges:
     s  minor_heap_size          i  major_heap_increment
     o  space_overhead           v  verbose
     O  max_overhead             l  stack_limit
     a  allocation_policy        w  window_size
     M  custom_major_ratio       m  custom_minor_ratio
     n  custom_minor_max_size       incremental
   and
     h  init_heap_size          words Boehm's heap grows to at its start.

   An empty item does nothing.  A bad item (unknown key, no `=', a value
   that is not a number or is out of range) gets one warning line on
   stderr naming it; the other items still apply, and the program runs
   on.  When a key comes twice, the last one counts.  */

/* Who may steer the runtime.  MEMPROF is read once, at start-up, but
   not in these two cases.

   Secure mode: a process the kernel starts with AT_SECURE set
   (set-user-ID or set-group-ID, or given file capabilities) does not
   read MEMPROF at all, as glibc ignores MALLOC_CHECK_ and its tunables
   there.  Its environment and its stderr belong to the user who started
   it, not to the one it runs as, so it writes no report, no other form
   and no fatal-signal summary, anywhere, and the report's sampling is
   off (symbolising its call stacks would have libdw read debug files
   and ask the debuginfod servers named in DEBUGINFOD_URLS).  It still
   counts, and the program may call mp_report or mp_memprof_start
   itself.

   A build that must never be steered by its environment defines, in
   one of its files (in C++, after including this header, so that it
   has C linkage and is not static):

       const int mp_ignore_environment = 1;

   The runtime then never reads MEMPROF: every setting keeps its
   default, the report on stderr included.  The runtime reads this
   variable through a weak reference, with the static library and the
   shared one alike, so a program that does not define it, or defines it
   to 0, reads MEMPROF.  */
extern const int mp_ignore_environment;

#ifdef __cplusplus
}
#endif

#endif /* MEMPROF_H */
