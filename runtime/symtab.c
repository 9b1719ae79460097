/* symtab.c -- the name a module's symbol table gives an address, as
   libdwfl's dwfl_module_addrname gives it, at a fraction of its cost.

   dwfl_module_addrname reads every global symbol of the table through
   libdwfl's __libdwfl_getsym (a copy of the symbol, a look at its
   section's header), some 275 instructions apiece: naming one function
   of libc, whose separate debugging information has 3000 global
   symbols, cost a million instructions, a third of the report of a
   short program that writes to stdout (the caller of stdio's buffer is
   named in the allocator statistics).  Here the table's own entries are
   scanned for the few whose range may hold the address, and only those
   are read through libdwfl, with dwfl_module_getsym_info, which is what
   its search reads them with, and weighed as its search weighs them
   (elfutils 0.188, dwfl_module_addrsym.c, try_sym_value): among the
   symbols with a size that hold the address, the one that starts
   closest to it, unless one further has a stronger binding (global,
   then weak); at the same start the smaller one, unless its binding is
   weaker; else the first.

   As libdwfl does, the globals are searched first, then the locals if
   no global holds the address.  libdwfl's own search is asked whenever
   this one could answer otherwise: when no symbol with a size holds the
   address, or one without a size is at the address itself (its choice
   among those depends on sections), when the table libdwfl reads is not
   the single section it seems to be (an auxiliary table, as
   minidebuginfo adds, or extended section indexes), and on machines
   whose symbol values libdwfl resolves (function descriptors, Thumb
   bits): only x86 and AArch64 are searched here.  A candidate's value, binding and size are libdwfl's;
   the scan of the raw entries only leaves out the symbols that cannot
   hold the address, with or without the table's bias.  */

#include <dlfcn.h>
#include <fcntl.h>
#include <limits.h>
#include <link.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "alloc.h"
#include "index.h"
#include "symtab.h"

/* The link map of the object that holds ADDR, or NULL.  glibc's
   _dl_find_object (2.35) finds it without a look at the symbols:
   dladdr1 also looks for the nearest one, through every dynamic symbol
   of the object, 83 000 instructions in libc, asked twice for the
   caller of stdio's buffer in a short program's report; dynamic_name
   makes its own search.  */
static const struct link_map *
map_of (uintptr_t addr)
{
#ifdef DLFO_STRUCT_HAS_EH_DBASE
  struct dl_find_object o;
  return _dl_find_object ((void *) addr, &o) == 0 ? o.dlfo_link_map : NULL;
#else
  Dl_info info;
  struct link_map *map = NULL;
  return dladdr1 ((void *) addr, &info, (void **) &map, RTLD_DL_LINKMAP)
         ? map : NULL;
#endif
}

#if defined __x86_64__ || defined __aarch64__ || defined __i386__

#if UINTPTR_MAX > 0xffffffffu
typedef Elf64_Sym raw_sym;
#define RAW_CLASS ELFCLASS64
#else
typedef Elf32_Sym raw_sym;
#define RAW_CLASS ELFCLASS32
#endif

/* GELF_ST_BIND as libdwfl weighs it, higher is better.  */
static int
binding_value (const GElf_Sym *s)
{
  switch (GELF_ST_BIND (s->st_info))
    {
    case STB_GLOBAL:
      return 3;
    case STB_WEAK:
      return 2;
    case STB_LOCAL:
      return 1;
    default:
      return 0;
    }
}

/* The entries of the table that libdwfl reads in ELF (its load_symtab
   takes the SHT_SYMTAB, else the SHT_DYNSYM), if it is the only one of
   its kind and holds N entries whose globals start at FIRST; else
   NULL.  */
static const raw_sym *
table_of (Elf *elf, size_t n, size_t first)
{
  const char *ident = mp_dw.elf_getident (elf, NULL);
  if (ident == NULL || ident[EI_CLASS] != RAW_CLASS)
    return NULL;
  Elf_Scn *found[2] = { NULL, NULL };   /* SHT_SYMTAB, SHT_DYNSYM */
  int seen[2] = { 0, 0 };
  for (Elf_Scn *scn = NULL; (scn = mp_dw.elf_nextscn (elf, scn)) != NULL;)
    {
      GElf_Shdr mem, *sh = mp_dw.gelf_getshdr (scn, &mem);
      if (sh == NULL)
        continue;
      if (sh->sh_type == SHT_SYMTAB_SHNDX)
        return NULL;
      int k = sh->sh_type == SHT_SYMTAB ? 0 : sh->sh_type == SHT_DYNSYM ? 1
                                                                        : -1;
      if (k < 0 || sh->sh_entsize == 0)
        continue;
      seen[k]++;
      if (sh->sh_size / sh->sh_entsize == n && sh->sh_info == first)
        found[k] = scn;
    }
  int k = seen[0] ? 0 : 1;
  if (seen[k] != 1 || found[k] == NULL)
    return NULL;
  Elf_Data *d = mp_dw.elf_getdata (found[k], NULL);
  return d != NULL && d->d_type == ELF_T_SYM
         && d->d_size == n * sizeof (raw_sym) ? d->d_buf : NULL;
}

/* Whether raw entry R is symbol S as libdwfl read it.  */
static int
same_entry (const raw_sym *r, const GElf_Sym *s)
{
  return r->st_name == s->st_name && r->st_info == s->st_info
         && r->st_shndx == s->st_shndx && r->st_size == s->st_size;
}

/* The search's state: the best symbol so far.  */
struct best
{
  const char *name;             /* NULL until one is found */
  GElf_Sym sym;
  GElf_Addr value;
};

/* Whether SYM, at VALUE, which holds the address, is a better holder
   than B's: libdwfl's weighing (see above).  */
static int
replaces (const struct best *b, const GElf_Sym *sym, GElf_Addr value)
{
  int was = binding_value (&b->sym), is = binding_value (sym);
  return b->name == NULL || b->value < value || was < is
         || (b->value == value
             && ((b->sym.st_size > sym->st_size && was <= is)
                 || (b->sym.st_size >= sym->st_size && was < is)));
}

/* Weigh entries FROM to TO - 1 of module M's table, whose raw entries
   are RAW, of ELF, biased by BIAS, as holders of ADDR into *B; 0, or -1
   if libdwfl must be asked: an entry it reads differs, or one without a
   size is at ADDR itself (libdwfl's choice among those depends on
   sections).  */
static int
weigh (Dwfl_Module *m, const raw_sym *raw, Elf *elf, Dwarf_Addr bias,
       int from, int to, Dwarf_Addr addr, struct best *b)
{
  for (int i = from; i < to; i++)
    {
      /* libdwfl's value is the entry's, biased unless it is absolute
         or outside the image.  */
      uint64_t v = raw[i].st_value, size = raw[i].st_size;
      if (size == 0 ? v + bias != addr && v != addr
                    : addr - (v + bias) >= size && addr - v >= size)
        continue;
      GElf_Sym sym;
      GElf_Addr value;
      GElf_Word shndx;
      Elf *e;
      Dwarf_Addr eb;
      const char *s = mp_dw.dwfl_module_getsym_info (m, i, &sym, &value,
                                                     &shndx, &e, &eb);
      if (s == NULL || e != elf || !same_entry (&raw[i], &sym))
        return -1;
      int type = GELF_ST_TYPE (sym.st_info);
      if (s[0] == '\0' || sym.st_shndx == SHN_UNDEF || value > addr
          || type == STT_SECTION || type == STT_FILE || type == STT_TLS)
        continue;
      if (sym.st_size == 0)
        {
          if (value == addr)
            return -1;
          continue;
        }
      if (addr - value >= sym.st_size)
        continue;
      if (replaces (b, &sym, value))
        *b = (struct best) { s, sym, value };
    }
  return 0;
}

/* See above: the globals, then, if none holds ADDR, the locals; NULL
   to ask libdwfl.  */
static const char *
search (Dwfl_Module *m, Dwarf_Addr addr)
{
  int n = mp_dw.dwfl_module_getsymtab (m);
  int first = mp_dw.dwfl_module_getsymtab_first_global (m);
  int start = first == 0 ? 1 : first;
  GElf_Sym sym;
  GElf_Addr value;
  GElf_Word shndx;
  Elf *elf;
  Dwarf_Addr bias;
  if (first < 0 || start >= n
      || mp_dw.dwfl_module_getsym_info (m, n - 1, &sym, &value, &shndx,
                                        &elf, &bias) == NULL)
    return NULL;
  const raw_sym *raw = table_of (elf, (size_t) n, (size_t) first);
  struct best b = { NULL, { 0 }, 0 };
  if (raw == NULL || !same_entry (&raw[n - 1], &sym)
      || weigh (m, raw, elf, bias, start, n, addr, &b) != 0
      || (b.name == NULL && first > 1
          && weigh (m, raw, elf, bias, 1, first, addr, &b) != 0))
    return NULL;
  return b.name;
}

/* ---- a library's dynamic symbols, as the loader mapped them ------------

   To name the caller of an allocation in a system library (stdio's
   buffer, which libc's _IO_file_doallocate allocates), libdwfl opens
   the library, finds its separate debugging information (libc6-dbg's,
   under /usr/lib/debug) and reads that file's symbol table, 10 000
   entries: with libdw's loading, most of a millisecond, a fifth of a
   short process (issue 18).  Yet when an exported function of the
   library holds the address, its name is in the dynamic symbol table,
   which the loader has mapped: it is read there, without libdw, and
   the search above weighs its entries.  Its globals are the full
   table's (a library's hidden symbols are local in both), but for the
   versions that the full table writes into some names
   (realpath@@GLIBC_2.3): the name is shown as on a machine without the
   debugging information.  An address that no global or weak symbol
   with a size holds (a static function of the library), one where a
   symbol without a size starts, and every module that keeps its DWARF
   inside, whose frames show positions, are left to libdwfl.

   The libraries looked at are cached with what was found of them; all
   of it is under symbols.c's lock, which every caller holds, and is
   never freed: the paths are handed out.  */

struct library
{
  const struct link_map *map;
  const char *name;             /* the loader's, to tell a reused map */
  const char *path;             /* as /proc/self/maps names the file,
                                   which libdwfl names the module by */
  int apart;                    /* 1 if it keeps its DWARF apart */
};
static struct library *libraries;
static size_t n_libraries, cap_libraries;

/* Whether the file open on FD has a .gnu_debuglink section, which
   dwelf_elf_gnu_debuglink would find: 1 or 0; -1 if its section headers
   cannot be read as this machine's.  */
static int
has_debuglink (int fd)
{
  ElfW (Ehdr) eh;
  if (pread (fd, &eh, sizeof eh, 0) != (ssize_t) sizeof eh
      || memcmp (eh.e_ident, ELFMAG, SELFMAG) != 0
      || eh.e_ident[EI_CLASS] != RAW_CLASS
      || eh.e_shentsize != sizeof (ElfW (Shdr)) || eh.e_shnum == 0
      || eh.e_shstrndx >= eh.e_shnum)
    return -1;
  size_t size = eh.e_shnum * sizeof (ElfW (Shdr));
  ElfW (Shdr) *sh = malloc (size);
  char *names = NULL;
  int found = -1;
  if (sh != NULL && pread (fd, sh, size, (off_t) eh.e_shoff) == (ssize_t) size)
    {
      const ElfW (Shdr) *n = &sh[eh.e_shstrndx];
      names = n->sh_size < (1 << 20) ? malloc (n->sh_size + 1) : NULL;
      if (names != NULL && pread (fd, names, n->sh_size, (off_t) n->sh_offset)
                           == (ssize_t) n->sh_size)
        {
          names[n->sh_size] = '\0';
          found = 0;
          for (size_t i = 0; i < eh.e_shnum; i++)
            found |= sh[i].sh_name < n->sh_size && sh[i].sh_type != SHT_NOBITS
                     && sh[i].sh_size >= 8
                     && strcmp (names + sh[i].sh_name, ".gnu_debuglink") == 0;
        }
    }
  free (names);
  free (sh);
  return found;
}

/* What is known of the library MAP, looked at once; NULL without
   memory.  */
static const struct library *
library_of (const struct link_map *map)
{
  for (size_t i = 0; i < n_libraries; i++)
    if (libraries[i].map == map && strcmp (libraries[i].name, map->l_name) == 0)
      return &libraries[i];
  char *name = mp_strdup (map->l_name), real[PATH_MAX];
  if (name == NULL
      || mp_reserve (&libraries, &cap_libraries, n_libraries,
                     sizeof *libraries) != 0)
    {
      free (name);
      return NULL;
    }
  char *path = realpath (name, real) ? mp_strdup (real) : NULL;
  int fd = path ? open (path, O_RDONLY | O_CLOEXEC) : -1;
  int apart = fd >= 0 && has_debuglink (fd) == 1;
  if (fd >= 0)
    close (fd);
  libraries[n_libraries] = (struct library) { map, name, path, apart };
  return &libraries[n_libraries++];
}

/* The number of entries of a dynamic symbol table, from its hash table:
   DT_HASH's count, or past the last entry that DT_GNU_HASH's chains
   reach (those before its first hashed one are undefined).  */
static size_t
symbol_count (const ElfW (Word) *hash, const uint32_t *gnu)
{
  if (hash != NULL)
    return hash[1];
  if (gnu == NULL)
    return 0;
  uint32_t n_buckets = gnu[0], first = gnu[1];
  const uint32_t *buckets = gnu + 4 + gnu[2] * (sizeof (ElfW (Addr)) / 4);
  const uint32_t *chains = buckets + n_buckets;
  uint32_t last = 0;
  for (uint32_t i = 0; i < n_buckets; i++)
    if (buckets[i] > last)
      last = buckets[i];
  if (last < first)
    return first;
  while (!(chains[last - first] & 1))
    last++;
  return (size_t) last + 1;
}

/* A pointer of MAP's dynamic section: glibc relocates them in place,
   other loaders may not.  */
static const void *
dynamic_pointer (const struct link_map *map, ElfW (Addr) p)
{
  return (const void *) (p < map->l_addr ? p + map->l_addr : p);
}

/* The name MAP's dynamic symbols give ADDR (see above), or NULL.  */
static const char *
dynamic_name (const struct link_map *map, uintptr_t addr)
{
  const ElfW (Sym) *syms = NULL;
  const char *strs = NULL;
  size_t strs_size = 0;
  const ElfW (Word) *hash = NULL;
  const uint32_t *gnu = NULL;
  for (const ElfW (Dyn) *d = map->l_ld; d->d_tag != DT_NULL; d++)
    if (d->d_tag == DT_SYMTAB)
      syms = dynamic_pointer (map, d->d_un.d_ptr);
    else if (d->d_tag == DT_STRTAB)
      strs = dynamic_pointer (map, d->d_un.d_ptr);
    else if (d->d_tag == DT_STRSZ)
      strs_size = d->d_un.d_val;
    else if (d->d_tag == DT_HASH)
      hash = dynamic_pointer (map, d->d_un.d_ptr);
    else if (d->d_tag == DT_GNU_HASH)
      gnu = dynamic_pointer (map, d->d_un.d_ptr);
    else if (d->d_tag == DT_SYMENT && d->d_un.d_val != sizeof *syms)
      return NULL;
  size_t n = syms && strs ? symbol_count (hash, gnu) : 0;
  struct best b = { NULL, { 0 }, 0 };
  for (size_t i = 1; i < n; i++)
    {
      const ElfW (Sym) *r = &syms[i];
      GElf_Sym sym = { r->st_name, r->st_info, r->st_other, r->st_shndx,
                       r->st_value, r->st_size };
      GElf_Addr value = r->st_value + map->l_addr;
      int type = GELF_ST_TYPE (sym.st_info);
      /* The entry's own fields first: its name is read only for the
         few that hold ADDR, and most of the string table's pages are
         never touched (libc's is 32 kB).  */
      if (value > addr || (sym.st_size != 0 && addr - value >= sym.st_size)
          || (sym.st_size == 0 && value != addr)
          || sym.st_shndx == SHN_UNDEF || sym.st_shndx == SHN_ABS
          || GELF_ST_BIND (sym.st_info) == STB_LOCAL || type == STT_SECTION
          || type == STT_FILE || type == STT_TLS
          || sym.st_name >= strs_size || strs[sym.st_name] == '\0')
        continue;
      if (sym.st_size == 0)
        return NULL;            /* one without a size at ADDR itself */
      if (replaces (&b, &sym, value))
        b = (struct best) { strs + sym.st_name, sym, value };
    }
  return b.name;
}

const char *
mp_symtab_loaded_name (uintptr_t addr, const char **file)
{
  const struct link_map *map = map_of (addr);
  if (map == NULL || map->l_name == NULL || map->l_name[0] != '/')
    return NULL;
  const struct library *l = library_of (map);
  if (l == NULL || !l->apart || l->path == NULL)
    return NULL;
  *file = l->path;
  return dynamic_name (map, addr);
}

#else

static const char *
search (Dwfl_Module *m, Dwarf_Addr addr)
{
  (void) m;
  (void) addr;
  return NULL;
}

const char *
mp_symtab_loaded_name (uintptr_t addr, const char **file)
{
  (void) addr;
  (void) file;
  return NULL;
}

#endif

const char *
mp_symtab_object_file (uintptr_t addr)
{
  const struct link_map *map = map_of (addr);
  return map ? map->l_name : NULL;
}

const char *
mp_symtab_name (Dwfl_Module *m, Dwarf_Addr addr)
{
  const char *name = search (m, addr);
  return name ? name : mp_dw.dwfl_module_addrname (m, addr);
}
