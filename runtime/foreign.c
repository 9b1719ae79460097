/* foreign.c -- the sites of the allocations that no rewritten call made
   (interpose.c): libc's own (qsort's buffer, stdio's), a library's built
   without the plugin.  A site stands for the address its call returns
   to, which identifies the call; it is made the first time that call
   allocates, counted like any site, and named when a report wants it,
   from the address, as a frame of a call stack is.

   The sites are in a hash table by address, under `lock', and never
   freed (the site table points to them).  Each thread keeps a cache of
   the latest it used, so that a call usually finds its site without the
   lock; the lookups read it through mp_foreign_sets, which names an
   empty cache while the thread is quiet: the fast paths' one test of
   the cache is also that of quiet.  */

#include <dlfcn.h>
#include <pthread.h>
#include <stdlib.h>
#include "foreign.h"
#include "sites.h"
#include "symbols.h"
#include "symtab.h"

struct foreign
{
  struct mp_site site;          /* first: a site, to the rest */
  const void *ra;
  struct foreign *next;         /* hash chain */
  struct foreign *all;          /* the list of all */
  int named;                    /* site's names are the caller's */
};

__thread struct mp_foreign_entry mp_foreign_cache[MP_FOREIGN_CACHE]
  __attribute__ ((tls_model ("initial-exec")));
/* Read-only, in no section that Boehm scans.  */
const struct mp_foreign_entry mp_foreign_none[MP_FOREIGN_CACHE];
__thread const struct mp_foreign_entry *mp_foreign_sets
  __attribute__ ((tls_model ("initial-exec"))) = mp_foreign_none;

void
mp_foreign_quiet (int on)
{
  mp_foreign_sets = on ? mp_foreign_none : mp_foreign_cache;
}

#define BUCKETS 4096
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
/* BUCKETS chains, calloc'ed by the first `find', not static: Boehm
   scans the program's bss, and its size sets how often Boehm collects
   (see output.c's BUFFER_SIZE).  */
static struct foreign **buckets;
static struct foreign *all;     /* every foreign site, newest first */

static const char *const callees[MP_FOREIGN_CALLS] = {
  "malloc", "calloc", "realloc", "reallocarray", "free", "memalign",
  "aligned_alloc", "posix_memalign", "valloc", "pvalloc", "operator new",
  "operator new[]", "operator delete", "operator delete[]"
};

/* The site of RA, made if new; the unknown site without memory.  */
static const struct mp_site *
find (const void *ra, enum mp_foreign_call call)
{
  if (buckets == NULL)
    buckets = calloc (BUCKETS, sizeof *buckets);
  if (buckets == NULL)
    return &mp_unknown_site;
  struct foreign **head = &buckets[((uintptr_t) ra >> 2) % BUCKETS];
  for (struct foreign *f = *head; f; f = f->next)
    if (f->ra == ra)
      return &f->site;
  struct foreign *f = calloc (1, sizeof *f);
  if (f == NULL)
    return &mp_unknown_site;
  f->site = (struct mp_site) { MP_SITE_ABI, 0, "<not rewritten>", "??",
                               callees[call], 0, 0, MP_KIND_FOREIGN, 0,
                               NULL, 0, 0 };
  f->ra = ra;
  f->next = *head;
  *head = f;
  f->all = all;
  all = f;
  return &f->site;
}

const struct mp_site *
mp_foreign_site_slow (const void *ra, enum mp_foreign_call call)
{
  pthread_mutex_lock (&lock);
  const struct mp_site *site = find (ra, call);
  pthread_mutex_unlock (&lock);
  struct mp_foreign_entry *e
    = (struct mp_foreign_entry *) mp_foreign_set (mp_foreign_cache, ra);
  e[1] = e[0];
  e[0] = (struct mp_foreign_entry) { ra, site };
  mp_foreign_sets = mp_foreign_cache;   /* counting: not quiet */
  return site;
}

/* The list of foreign sites as it is now: new ones go in front.  */
static struct foreign *
snapshot (void)
{
  pthread_mutex_lock (&lock);
  struct foreign *list = all;
  pthread_mutex_unlock (&lock);
  return list;
}

/* The file of the object that holds RA, for a caller with no DWARF:
   it says at least which library called.  */
static const char *
object_of (const void *ra)
{
  const char *file = mp_symtab_object_file ((uintptr_t) ra);
  if (file != NULL && file[0] != '\0')
    return file;
  Dl_info info;                 /* the executable: dladdr says argv[0] */
  if (dladdr (ra, &info) == 0 || info.dli_fname == NULL
      || info.dli_fname[0] == '\0')
    return "<not rewritten>";
  return info.dli_fname;
}

void
mp_foreign_name_all (void)
{
  mp_quiet_begin ();
  for (struct foreign *f = snapshot (); f; f = f->all)
    if (!f->named)
      {
        struct mp_frame frame = mp_symbolise_caller ((uintptr_t) f->ra);
        f->site.function = frame.function;
        f->site.file = frame.file ? frame.file : object_of (f->ra);
        f->site.line = frame.line;
        f->named = 1;
      }
  mp_quiet_end ();
}

void
mp_foreign_totals (uint64_t *blocks, uint64_t *bytes, uint64_t *callers)
{
  *blocks = *bytes = *callers = 0;
  for (struct foreign *f = snapshot (); f; f = f->all)
    {
      unsigned id = __atomic_load_n (&f->site.id, __ATOMIC_ACQUIRE);
      if (id == 0)
        continue;
      int64_t c[SC_COUNT];
      mp_site_sum (id, c);
      uint64_t b = (uint64_t) (c[SC_NUM_ALLOCATE] - c[SC_NUM_ALLOCATE_FAILED]
                               + c[SC_NUM_REALLOCATE_OK]);
      *blocks += b;
      *bytes += (uint64_t) c[SC_BYTES_ALLOCATED];
      *callers += b > 0;
    }
}

/* See fork.c.  */
void
mp_foreign_fork (enum mp_fork_step step)
{
  mp_fork_mutex (&lock, step);
}
