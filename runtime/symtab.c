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

#include <string.h>
#include "symtab.h"

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
      if (b->name == NULL || b->value < value
          || binding_value (&b->sym) < binding_value (&sym)
          || (b->value == value
              && ((b->sym.st_size > sym.st_size
                   && binding_value (&b->sym) <= binding_value (&sym))
                  || (b->sym.st_size >= sym.st_size
                      && binding_value (&b->sym) < binding_value (&sym)))))
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

#else

static const char *
search (Dwfl_Module *m, Dwarf_Addr addr)
{
  (void) m;
  (void) addr;
  return NULL;
}

#endif

const char *
mp_symtab_name (Dwfl_Module *m, Dwarf_Addr addr)
{
  const char *name = search (m, addr);
  return name ? name : mp_dw.dwfl_module_addrname (m, addr);
}
