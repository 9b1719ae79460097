/* unload.c -- dlclose, in front of the C library's: before an object
   goes, the descriptors of its sites, which the plugin compiled into it
   and the site table points to, are copied (sites.c), so that its
   sites stay exact and named after it is unmapped.  Weak, like the
   malloc family's: a program's own dlclose wins, and its objects' sites
   then must not outlive them.  */

#include <dlfcn.h>
#include <link.h>
#include <string.h>
#include "internal.h"
#include "sites.h"

/* The object sought by its base and name, and the addresses its loaded
   segments span once found.  */
struct span
{
  const struct link_map *map;
  uintptr_t lo, hi;
};

static int
find_span (struct dl_phdr_info *info, size_t size, void *data)
{
  struct span *s = data;
  (void) size;
  if (info->dlpi_addr != s->map->l_addr
      || strcmp (info->dlpi_name, s->map->l_name) != 0)
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

__attribute__ ((visibility ("default"), weak)) int
dlclose (void *handle)
{
  static int (*real) (void *);
  struct link_map *map;
  if (dlinfo (handle, RTLD_DI_LINKMAP, &map) == 0)
    {
      struct span s = { map, UINTPTR_MAX, 0 };
      if (dl_iterate_phdr (find_span, &s) && s.lo < s.hi)
        mp_sites_unloading (s.lo, s.hi);
    }
  if (real == NULL)
    real = (int (*) (void *)) dlsym (RTLD_NEXT, "dlclose");
  return real (handle);
}
