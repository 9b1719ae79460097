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
   the cache is also that of quiet.

   A library that dlclose unloads (unload.c) takes its sites with it: an
   address of it means another call once something else is mapped there.
   Its sites are named while it is still mapped, and then retired: out
   of the table, and out of every thread's cache, so that a call from
   the same address makes a new site.  The caches are therefore not
   thread-local arrays but blocks of the runtime's, never freed, that
   the unloading thread may clear whoever owns them; a thread's block
   goes back to the list at its exit, for the next thread.  The owner
   fills its block under `lock', which the clearing takes too; its fast
   paths only read it, and the clearing empties an entry's address
   alone, so that a read that races with it finds either the old site
   or a miss.  */

#include <dlfcn.h>
#include <malloc.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
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

/* A thread's cache (see above): in `caches', under `lock'.  */
struct cache
{
  struct mp_foreign_entry sets[MP_FOREIGN_CACHE];
  struct cache *next;
  int in_use;
};

/* Read-only, in no section that Boehm scans.  */
const struct mp_foreign_entry mp_foreign_none[MP_FOREIGN_CACHE];
__thread const struct mp_foreign_entry *mp_foreign_sets
  __attribute__ ((tls_model ("initial-exec"))) = mp_foreign_none;
/* The calling thread's cache; NULL before its first slow path.  */
static __thread struct cache *mine
  __attribute__ ((tls_model ("initial-exec")));

void
mp_foreign_quiet (int on)
{
  mp_foreign_sets = on || mine == NULL ? mp_foreign_none : mine->sets;
}

#define BUCKETS 4096
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
/* BUCKETS chains, calloc'ed by the first `find', not static: Boehm
   scans the program's bss, and its size sets how often Boehm collects
   (see output.c's BUFFER_SIZE).  */
static struct foreign **buckets;
static struct foreign *all;     /* every foreign site, newest first */
static struct cache *caches;    /* every thread's, in use or free */
static size_t n_caches;         /* in `caches': they are never freed */

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

/* A free cache, emptied, or a new one; NULL without memory.  Under
   `lock'.  */
static struct cache *
claim_cache (void)
{
  struct cache *c = caches;
  while (c != NULL && c->in_use)
    c = c->next;
  if (c == NULL)
    {
      /* Aligned, so that a set never straddles two cache lines.  */
      if ((c = memalign (64, sizeof *c)) == NULL)
        return NULL;
      c->next = caches;
      caches = c;
      n_caches++;
    }
  memset (c->sets, 0, sizeof c->sets);
  c->in_use = 1;
  return c;
}

void
mp_foreign_memory (size_t *n, size_t *bytes)
{
  pthread_mutex_lock (&lock);
  *n = n_caches;
  pthread_mutex_unlock (&lock);
  *bytes = *n * sizeof (struct cache);
}

const struct mp_site *
mp_foreign_site_slow (const void *ra, enum mp_foreign_call call)
{
  pthread_mutex_lock (&lock);
  const struct mp_site *site = find (ra, call);
  if (mine == NULL)
    mine = claim_cache ();
  if (mine != NULL)
    {
      struct mp_foreign_entry *e
        = (struct mp_foreign_entry *) mp_foreign_set (mine->sets, ra);
      e[1] = e[0];
      e[0] = (struct mp_foreign_entry) { ra, site };
      mp_foreign_sets = mine->sets;     /* counting: not quiet */
    }
  pthread_mutex_unlock (&lock);
  return site;
}

void
mp_foreign_thread_exit (void)
{
  pthread_mutex_lock (&lock);
  mp_foreign_sets = mp_foreign_none;
  if (mine != NULL)
    mine->in_use = 0;
  mine = NULL;
  pthread_mutex_unlock (&lock);
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

/* Name F from its calling address, now; a file of the loader's is
   copied if F's object may go (KEEP), as its link map does.  */
static void
name (struct foreign *f, int keep)
{
  struct mp_frame frame = mp_symbolise_caller ((uintptr_t) f->ra);
  const char *file = frame.file ? frame.file : object_of (f->ra);
  const char *copy = keep && !frame.file ? mp_strdup (file) : NULL;
  f->site.function = frame.function;
  f->site.file = copy ? copy : file;
  f->site.line = frame.line;
  f->named = 1;
}

void
mp_foreign_name_all (void)
{
  mp_quiet_begin ();
  for (struct foreign *f = snapshot (); f; f = f->all)
    if (!f->named)
      name (f, 0);
  mp_quiet_end ();
}

static int
within (const struct foreign *f, uintptr_t lo, uintptr_t hi)
{
  return (uintptr_t) f->ra - 1 - lo < hi - lo;
}

void
mp_foreign_unloading (uintptr_t lo, uintptr_t hi)
{
  mp_quiet_begin ();
  for (struct foreign *f = snapshot (); f; f = f->all)
    if (!f->named && within (f, lo, hi))
      name (f, 1);
  mp_quiet_end ();
}

/* Empty the entries of every cache whose address is in [LO, HI).  Under
   `lock'; a relaxed store, as the owner's fast paths read them.  */
static void
clear_caches (uintptr_t lo, uintptr_t hi)
{
  for (struct cache *c = caches; c; c = c->next)
    for (size_t i = 0; c->in_use && i < MP_FOREIGN_CACHE; i++)
      if ((uintptr_t) c->sets[i].ra - 1 - lo < hi - lo)
        __atomic_store_n (&c->sets[i].ra, NULL, __ATOMIC_RELAXED);
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

/* Take F out of its hash chain, if it is there; 1 if it was.  Under
   `lock'.  */
static int
unlink_site (struct foreign *f)
{
  for (struct foreign **p = &buckets[((uintptr_t) f->ra >> 2) % BUCKETS]; *p;
       p = &(*p)->next)
    if (*p == f)
      {
        *p = f->next;
        return 1;
      }
  return 0;
}

void
mp_foreign_unloaded (uintptr_t lo, uintptr_t hi)
{
  pthread_mutex_lock (&lock);
  int retired = 0;
  for (struct foreign *f = all; f; f = f->all)
    if (within (f, lo, hi))
      retired |= unlink_site (f);
  if (retired)
    clear_caches (lo, hi);
  pthread_mutex_unlock (&lock);
}

/* See fork.c.  The child's other threads are gone: their caches go
   back to the list.  */
void
mp_foreign_fork (enum mp_fork_step step)
{
  if (step == MP_FORK_CHILD)
    for (struct cache *c = caches; c; c = c->next)
      c->in_use = c == mine;
  mp_fork_mutex (&lock, step);
}
