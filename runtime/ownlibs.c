/* ownlibs.c -- the libraries the runtime loads for itself, and what
   each dlopen of them brought into the process.

   The runtime loads libunwind at its first sample (callstack.c), and
   libdw, libelf and zlib at the report (dynlibs.c), each with its own
   libraries (liblzma, libbz2).  mp_own_dlopen notes the writable
   segments of the objects its dlopen brought in: those it mapped
   (after the last object mapped before it, in dl_iterate_phdr's order,
   to which the dynamic linker appends: an object unloaded meanwhile
   only moves the old ones down) and that the library opened needs,
   itself or through another of them (DT_NEEDED against DT_SONAME), so
   that a library that another thread of the program opens at the same
   moment is never taken for the runtime's.  Each one found is checked
   against the object of that soname the runtime's namespace has
   (RTLD_NOLOAD): one that another namespace (dlmopen) has and that
   happens to come after the count is not it.  A library the program
   had loaded already is not new, and is not noted.

   What such a library loads later by itself is not noted: libdw opens
   libdebuginfod, and with it some thirty libraries and 900 kB of data,
   from the symboliser's calls when a module's debug information is not
   on the disk, not from mp_own_dlopen's.

   The dynamic sections are read during the dl_iterate_phdr that lists
   the new objects, whose lock keeps them mapped; the needs are worked
   out again each time an object is added, so that the last call leaves
   them final.  */

#include <dlfcn.h>
#include <link.h>
#include <stdatomic.h>
#include <string.h>
#include "ownlibs.h"

/* Writable segments noted; libunwind, liblzma, libdw, libelf, libz and
   libbz2 have one each.  Beyond that many, the rest are not noted.  */
#define MAX_NOTED 32

/* The start of each writable segment noted, as dl_iterate_phdr gives
   it (Boehm too), or 0 while a slot is claimed but not yet filled.
   mp_own_dlopen claims its slots by counting `n_noted' up (which may
   pass MAX_NOTED), then fills them; a reader looks at every slot up to
   the count.  No lock: a fork or a signal may come at any point.  */
static _Atomic uintptr_t noted[MAX_NOTED];
static atomic_int n_noted;

/* The slots a reader looks at.  */
static int
slots_noted (void)
{
  int n = atomic_load_explicit (&n_noted, memory_order_acquire);
  return n < MAX_NOTED ? n : MAX_NOTED;
}

/* The words watched (mp_own_watch): each slot is claimed by counting
   `n_watched' up, then filled; NULL until it is.  Never removed: the
   libraries the runtime loads stay loaded.  */
#define MAX_WATCHED 4
static void *const *_Atomic watched[MAX_WATCHED];
static atomic_int n_watched;

void
mp_own_watch (void *const *word)
{
  int i = atomic_fetch_add (&n_watched, 1);
  if (i < MAX_WATCHED)
    atomic_store_explicit (&watched[i], word, memory_order_release);
}

/* Whether a watched word in the SIZE bytes at START is set.  */
static int
watched_set (uintptr_t start, size_t size)
{
  int n = atomic_load_explicit (&n_watched, memory_order_acquire);
  for (int i = 0; i < n && i < MAX_WATCHED; i++)
    {
      void *const *w = atomic_load_explicit (&watched[i],
                                             memory_order_acquire);
      if (w != NULL && (uintptr_t) w - start < size
          && __atomic_load_n (w, __ATOMIC_RELAXED) != NULL)
        return 1;
    }
  return 0;
}

int
mp_own_segment (uintptr_t start, size_t size)
{
  int n = slots_noted ();
  for (int i = 0; i < n; i++)
    if (atomic_load_explicit (&noted[i], memory_order_relaxed) == start)
      return !watched_set (start, size);
  return 0;
}

/* The objects mapped since the count taken before the dlopen, at most
   MAX_NEW of them, and which of them the library opened needs.  Filled
   by one dl_iterate_phdr, under the dynamic linker's lock, which keeps
   them all mapped while their dynamic sections are read.  */
#define MAX_NEW 16
#define MAX_SONAME 64

struct new_object
{
  uintptr_t addr;
  const ElfW (Dyn) *dyn;
  char soname[MAX_SONAME];    /* "" if none, or too long to match */
  uintptr_t seg[2];           /* writable segments' starts */
  int n_seg;
  int ours;
};

struct new_objects
{
  size_t before, index;       /* objects before the dlopen; this one's */
  uintptr_t opened;           /* the library opened: its l_addr */
  int n;
  struct new_object o[MAX_NEW];
};

/* The address a dynamic entry's d_ptr gives, in the object at BASE:
   glibc relocates them in place where it can, not everywhere.  */
static uintptr_t
dyn_ptr (const ElfW (Dyn) *d, uintptr_t base)
{
  return d->d_un.d_ptr < base ? base + d->d_un.d_ptr : d->d_un.d_ptr;
}

static const char *
strtab (const ElfW (Dyn) *dyn, uintptr_t base)
{
  for (const ElfW (Dyn) *d = dyn; d != NULL && d->d_tag != DT_NULL; d++)
    if (d->d_tag == DT_STRTAB)
      return (const char *) dyn_ptr (d, base);
  return NULL;
}

static void
note_new (struct new_objects *all, struct dl_phdr_info *info)
{
  struct new_object *o = &all->o[all->n++];
  memset (o, 0, sizeof *o);
  o->addr = info->dlpi_addr;
  for (int i = 0; i < info->dlpi_phnum; i++)
    {
      const ElfW (Phdr) *ph = &info->dlpi_phdr[i];
      if (ph->p_type == PT_DYNAMIC)
        o->dyn = (const ElfW (Dyn) *) (info->dlpi_addr + ph->p_vaddr);
      else if (ph->p_type == PT_LOAD && (ph->p_flags & PF_W) && o->n_seg < 2)
        o->seg[o->n_seg++] = info->dlpi_addr + ph->p_vaddr;
    }
  const char *str = strtab (o->dyn, o->addr);
  for (const ElfW (Dyn) *d = o->dyn; str && d->d_tag != DT_NULL; d++)
    if (d->d_tag == DT_SONAME && strlen (str + d->d_un.d_val) < MAX_SONAME)
      strcpy (o->soname, str + d->d_un.d_val);
}

/* Mark ours the new objects that O, ours, needs.  */
static void
mark_needed (struct new_objects *all, const struct new_object *o)
{
  const char *str = strtab (o->dyn, o->addr);
  for (const ElfW (Dyn) *d = o->dyn; str && d->d_tag != DT_NULL; d++)
    if (d->d_tag == DT_NEEDED)
      for (int j = 0; j < all->n; j++)
        if (!all->o[j].ours && all->o[j].soname[0] != '\0'
            && strcmp (all->o[j].soname, str + d->d_un.d_val) == 0)
          {
            all->o[j].ours = 1;
            mark_needed (all, &all->o[j]);
          }
}

/* Note each object past ALL->before, and mark again, among those noted
   so far, the library opened and what it needs: the last call, with
   them all noted, leaves the marks final.  */
static int
list_new (struct dl_phdr_info *info, size_t size, void *data)
{
  struct new_objects *all = data;
  (void) size;
  if (all->index++ < all->before || all->n == MAX_NEW)
    return 0;
  note_new (all, info);
  for (int i = 0; i < all->n; i++)
    all->o[i].ours = all->o[i].addr == all->opened;
  for (int i = 0; i < all->n; i++)
    if (all->o[i].addr == all->opened)
      mark_needed (all, &all->o[i]);
  return 0;
}

static int
count_object (struct dl_phdr_info *info, size_t size, void *data)
{
  (void) info, (void) size;
  ++*(size_t *) data;
  return 0;
}

/* Whether O is the object of its soname that the library opened
   found: not one of another namespace's (dlmopen) that happens to come
   after the count.  A handle kept, not closed: the library opened,
   never closed, keeps O mapped anyway.  */
static int
found_by_opened (const struct new_object *o, uintptr_t opened)
{
  struct link_map *map;
  if (o->addr == opened)
    return 1;
  void *h = dlopen (o->soname, RTLD_LAZY | RTLD_NOLOAD);
  return h != NULL && dlinfo (h, RTLD_DI_LINKMAP, &map) == 0
         && map->l_addr == o->addr;
}

void *
mp_own_dlopen (const char *file, int mode)
{
  size_t before = 0;
  dl_iterate_phdr (count_object, &before);
  void *h = dlopen (file, mode);
  struct link_map *map;
  if (h == NULL || dlinfo (h, RTLD_DI_LINKMAP, &map) != 0)
    return h;
  struct new_objects found = { before, 0, map->l_addr, 0, { { 0 } } };
  dl_iterate_phdr (list_new, &found);
  uintptr_t segs[MAX_NOTED];
  int n_segs = 0;
  for (int i = 0; i < found.n; i++)
    if (found.o[i].ours && found_by_opened (&found.o[i], found.opened))
      for (int j = 0; j < found.o[i].n_seg && n_segs < MAX_NOTED; j++)
        segs[n_segs++] = found.o[i].seg[j];
  int first = atomic_fetch_add (&n_noted, n_segs);
  for (int i = 0; i < n_segs && first + i < MAX_NOTED; i++)
    atomic_store_explicit (&noted[first + i], segs[i], memory_order_relaxed);
  return h;
}
