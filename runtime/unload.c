/* unload.c -- dlclose, in front of the C library's: what an object that
   goes leaves behind must stay named after it, and not be taken for
   what is mapped at its addresses later.  Weak, like the malloc
   family's: a program's own dlclose wins, and its objects' sites and
   frames then are named after whatever is mapped there at report time.

   Before the real dlclose, while the object is still mapped: the
   descriptors of its sites, which the plugin compiled into it and the
   site table points to, are copied (sites.c); its foreign sites are
   named (foreign.c); and the return addresses into it that the
   profile's stacks hold are looked up (symbols.c).  After it, if the
   object is gone (a handle opened twice, or RTLD_NODELETE, leaves it
   mapped), its foreign sites are retired, the stacks' addresses become
   words that keep the names found, and the lookups of its addresses
   are made again where something else is mapped.  A thread that runs
   the object's code while another closes it (a program's race) may
   leave a site or a frame made in between unnamed.  */

#include <dlfcn.h>
#include <link.h>
#include <stdlib.h>
#include <string.h>
#include "internal.h"
#include "foreign.h"
#include "profile.h"
#include "sites.h"
#include "symbols.h"

/* The object sought by its base and name, and the addresses its loaded
   segments span once found.  */
struct span
{
  uintptr_t base;
  const char *name;
  uintptr_t lo, hi;
};

static int
find_span (struct dl_phdr_info *info, size_t size, void *data)
{
  struct span *s = data;
  (void) size;
  if (info->dlpi_addr != s->base || strcmp (info->dlpi_name, s->name) != 0)
    return 0;
  for (int i = 0; i < info->dlpi_phnum; i++)
    {
      const ElfW (Phdr) *ph = &info->dlpi_phdr[i];
      if (ph->p_type != PT_LOAD)
        continue;
      uintptr_t lo = info->dlpi_addr + ph->p_vaddr;
      if (lo < s->lo)
        s->lo = lo;
      if (lo + ph->p_memsz > s->hi)
        s->hi = lo + ph->p_memsz;
    }
  return 1;
}

/* The stacks' words in S, looked up now, into *WORDS (malloc'ed, *N of
   them).  */
static void
unloading (const struct span *s, uintptr_t **words, size_t *n)
{
  mp_sites_unloading (s->lo, s->hi);
  mp_foreign_unloading (s->lo, s->hi);
  *words = mp_profile_words_in (s->lo, s->hi, n);
  for (size_t i = 0; i < *n; i++)
    {
      const struct mp_frame *frames;
      mp_symbolise_one ((*words)[i], MP_SYMBOLS_LINES, &frames);
    }
}

/* S is unmapped: the N WORDS of the stacks in it keep their names.  */
static void
unloaded (const struct span *s, const uintptr_t *words, size_t n)
{
  mp_foreign_unloaded (s->lo, s->hi);
  struct mp_word_change *changes = n ? malloc (n * sizeof *changes) : NULL;
  for (size_t i = 0; changes && i < n; i++)
    changes[i] = (struct mp_word_change) { words[i],
                                           mp_symbols_retire (words[i]) };
  if (changes != NULL)
    mp_profile_replace (changes, n);
  free (changes);
  mp_symbols_unloaded (s->lo, s->hi);
}

__attribute__ ((visibility ("default"), weak)) int
dlclose (void *handle)
{
  static int (*real) (void *);
  struct link_map *map;
  struct span s = { 0, NULL, UINTPTR_MAX, 0 };
  uintptr_t *words = NULL;
  size_t n = 0;
  /* The runtime's own calls, quiet, close handles of objects that stay
     (cxx.c's), maybe under its locks.  */
  if (mp_quiet == 0 && dlinfo (handle, RTLD_DI_LINKMAP, &map) == 0)
    {
      /* The link map goes with the object: a copy of its name.  */
      s.base = map->l_addr;
      s.name = mp_strdup (map->l_name);
      if (s.name && dl_iterate_phdr (find_span, &s) && s.lo < s.hi)
        {
          mp_quiet_begin ();    /* the runtime's work, not the program's */
          unloading (&s, &words, &n);
          mp_quiet_end ();
        }
    }
  if (real == NULL)
    real = (int (*) (void *)) dlsym (RTLD_NEXT, "dlclose");
  int rc = real (handle);
  if (s.lo < s.hi)
    {
      struct span still = { s.base, s.name, UINTPTR_MAX, 0 };
      mp_quiet_begin ();
      if (!dl_iterate_phdr (find_span, &still))
        unloaded (&s, words, n);
      mp_quiet_end ();
    }
  free (words);
  free ((char *) s.name);
  return rc;
}
