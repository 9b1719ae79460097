/* frames.c -- the frames a debugger shows at an address of a module:
   function, file and line, inlined frames included, read from the
   module's DWARF (or its symbol table) through elfutils' libdwfl, which
   dynlibs.c loads.  symbols.c asks it for the modules of the process;
   fuzz/symbols.c, for hostile files.

   For the address, the scopes that hold it are listed innermost first;
   from the innermost function scope, its concrete outer scopes.  Each
   DW_TAG_inlined_subroutine among them is a frame that GCC inlined into
   the next one out: the innermost frame's position is the line-table row
   for the address, each outer frame's the DW_AT_call_file and
   DW_AT_call_line of the inlined scope inside it; the chain ends at the
   DW_TAG_subprogram.  A module without DWARF, or whose DWARF the caller
   does not want read, gives one frame, named from its symbol table.

   Names and positions cost differently: the scopes of one unit give
   every frame's name, while its positions need the unit's line table
   (its file names too, lines.c), so the caller says whether it wants
   them (MP_FRAMES_LINES).

   The strings are libdw's: they live as long as the module's Dwfl.  */

#include <dwarf.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "alloc.h"
#include "frames.h"
#include "lines.h"
#include "index.h"
#include "symtab.h"

/* The file that mp_module_file_open handed over, until libdwfl takes
   it: written and read under the lock of the Dwfl's owner.  */
static struct
{
  const char *name;
  int fd;                       /* -1: none */
} opened = { NULL, -1 };

void
mp_module_file_open (const char *name, int fd)
{
  if (opened.fd >= 0)
    close (opened.fd);
  opened.name = name;
  opened.fd = fd;
}

/* libdwfl's own callbacks, through mp_dw: the table is filled at run
   time, and a static initialiser needs constant addresses.  The file
   handed over is given to libdwfl as dwfl_linux_proc_find_elf would
   give it, opened: the module's name, and the descriptor, which libdwfl
   takes.  */
static int
find_elf (Dwfl_Module *mod, void **userdata, const char *modname,
          Dwarf_Addr base, char **file_name, Elf **elfp)
{
  if (opened.fd >= 0 && strcmp (modname, opened.name) == 0)
    {
      int fd = opened.fd;
      opened.fd = -1;
      if ((*file_name = strdup (modname)) != NULL)
        return fd;
      close (fd);
    }
  return mp_dw.dwfl_linux_proc_find_elf (mod, userdata, modname, base,
                                         file_name, elfp);
}

static int
find_debuginfo (Dwfl_Module *mod, void **userdata, const char *modname,
                Dwarf_Addr base, const char *file_name,
                const char *debuglink_file, GElf_Word debuglink_crc,
                char **debuginfo_file_name)
{
  return mp_dw.dwfl_standard_find_debuginfo (mod, userdata, modname, base,
                                             file_name, debuglink_file,
                                             debuglink_crc,
                                             debuginfo_file_name);
}

static char *debuginfo_path;
const Dwfl_Callbacks mp_module_callbacks = {
  .find_elf = find_elf,
  .find_debuginfo = find_debuginfo,
  .debuginfo_path = &debuginfo_path,
};

/* The name of function DIE: its linkage name where it has one, the
   mangled name of a C++ function, which symbols.c demangles into the
   signature that tells overloads apart; else its DW_AT_name.  Both are
   looked up through the DIE's abstract origin and specification.  */
static const char *
die_name (Dwarf_Die *die)
{
  static const int names[] = {
    DW_AT_linkage_name, DW_AT_MIPS_linkage_name, DW_AT_name
  };
  Dwarf_Attribute a;
  for (size_t i = 0; i < sizeof names / sizeof *names; i++)
    {
      const char *name
        = mp_dw.dwarf_formstring (mp_dw.dwarf_attr_integrate (die, names[i],
                                                              &a));
      if (name != NULL)
        return name;
    }
  return "??";
}

static int
is_function (Dwarf_Die *die)
{
  int tag = mp_dw.dwarf_tag (die);
  return tag == DW_TAG_subprogram || tag == DW_TAG_inlined_subroutine;
}

/* The call position recorded in inlined scope DIE, whose unit has the
   line table LINES: where the frame out of it is; none without
   LINES.  */
static void
call_position (const struct mp_lines *lines, Dwarf_Die *die,
               const char **file, int *line)
{
  Dwarf_Attribute a;
  Dwarf_Word v;
  *line = 0;
  *file = NULL;
  if (lines == NULL)
    return;
  if (mp_dw.dwarf_formudata (mp_dw.dwarf_attr (die, DW_AT_call_line, &a),
                             &v) == 0)
    *line = (int) v;
  if (mp_dw.dwarf_formudata (mp_dw.dwarf_attr (die, DW_AT_call_file, &a),
                             &v) == 0)
    *file = mp_lines_file (lines, v);
}

/* ---- scopes by address ------------------------------------------------

   Walking a unit's whole tree of DIEs for each address, as
   dwarf_getscopes does, is quadratic for a large unit (100 000 call
   sites in one file take minutes).  So each unit's top-level functions
   are listed once, sorted by address range; an address finds its
   function by binary search.  A function's own child scopes (inlined
   subroutines and lexical blocks) are listed the same way at the first
   lookup in each of its ranges, since a function with many call sites
   has as many DW_TAG_call_site children to step over; deeper scopes are
   few and are walked.  Functions that are not at the top level (C++
   namespaces and classes) are not listed: their addresses take the walk
   of the whole tree (function_scope_at).

   Every walk is bounded, since the data may be hostile: the chain of
   inlined scopes by its array, the descent by MAX_DEPTH.  */

struct range
{
  Dwarf_Addr low, high;         /* low first: mp_count_at_most's key */
  Dwarf_Die die;
  struct range *inner;          /* a function's child scopes, by low
                                   (unused in the child scopes' own) */
  ptrdiff_t n_inner;            /* how many; -1 until listed */
};

struct mp_unit
{
  struct mp_unit *next;         /* bucket chain */
  const void *key;              /* the unit DIE's address in the data */
  struct range *ranges;         /* its functions, by low; NULL if none */
  ptrdiff_t n;
  struct mp_lines *lines;       /* its line table, once read; NULL if
                                   it has none */
  int lines_read;
  struct mp_lines *files;       /* its header's files alone, if read
                                   before LINES (files_of); NULL if
                                   none */
  int files_read;
};

static int
by_low (const void *a, const void *b)
{
  const struct range *x = a, *y = b;
  return (x->low > y->low) - (x->low < y->low);
}

static int
is_subprogram_tag (int tag)
{
  return tag == DW_TAG_subprogram;
}

static int
is_scope_tag (int tag)
{
  return tag == DW_TAG_inlined_subroutine || tag == DW_TAG_lexical_block;
}

/* The children of PARENT whose tag WANTED accepts, one entry per address
   range, sorted, into *OUT (NULL if none); return how many, or -1
   without memory.  */
static ptrdiff_t
list_ranges (Dwarf_Die *parent, int (*wanted) (int tag), struct range **out)
{
  Dwarf_Die die;
  size_t n = 0, cap = 0;
  *out = NULL;
  if (mp_dw.dwarf_child (parent, &die) != 0)
    return 0;
  do
    {
      if (!wanted (mp_dw.dwarf_tag (&die)))
        continue;
      Dwarf_Addr base, low, high;
      for (ptrdiff_t off = 0;
           (off = mp_dw.dwarf_ranges (&die, off, &base, &low, &high)) > 0;)
        {
          /* GCC emits empty ranges; one could tie with a real range
             on low and hide it from range_at.  */
          if (low >= high)
            continue;
          if (mp_reserve (out, &cap, n, sizeof **out) != 0)
            {
              free (*out);
              *out = NULL;
              return -1;
            }
          (*out)[n++] = (struct range) { low, high, die, NULL, -1 };
        }
    }
  while (mp_dw.dwarf_siblingof (&die, &die) == 0);
  /* Not even an empty array may be null for qsort.  */
  if (n > 0)
    qsort (*out, n, sizeof **out, by_low);
  return (ptrdiff_t) n;
}

/* The one of the N sorted RANGES that holds PC, or NULL.  */
static struct range *
range_at (struct range *ranges, ptrdiff_t n, Dwarf_Addr pc)
{
  size_t k = mp_count_at_most (ranges, (size_t) n, sizeof *ranges, pc);
  return k > 0 && pc < ranges[k - 1].high ? &ranges[k - 1] : NULL;
}

/* CU's entry in UNITS, made with its functions listed if new; NULL
   without memory.  */
static struct mp_unit *
unit_of (struct mp_units *units, Dwarf_Die *cu)
{
  struct mp_unit **head
    = &units->buckets[((uintptr_t) cu->addr >> 4) % MP_UNIT_BUCKETS];
  struct mp_unit *u = *head;
  while (u && u->key != cu->addr)
    u = u->next;
  if (u == NULL && (u = calloc (1, sizeof *u)) != NULL)
    {
      u->key = cu->addr;
      u->n = list_ranges (cu, is_subprogram_tag, &u->ranges);
      u->next = *head;
      *head = u;
    }
  return u;
}

/* The top-level function of CU holding PC, or NULL.  */
static struct range *
function_at (struct mp_units *units, Dwarf_Die *cu, Dwarf_Addr pc)
{
  struct mp_unit *u = unit_of (units, cu);
  return u ? range_at (u->ranges, u->n, pc) : NULL;
}

/* CU's line table, read at the first call; NULL if it has none.  */
static const struct mp_lines *
lines_of (struct mp_units *units, Dwarf_Die *cu)
{
  struct mp_unit *u = unit_of (units, cu);
  if (u && !u->lines_read)
    {
      u->lines = mp_lines_read (cu, 1);
      u->lines_read = 1;
    }
  return u ? u->lines : NULL;
}

/* CU's file table: its line table's if that was read first, else its
   header's alone, read at the first call; NULL if it has none.  Always
   the same table for CU, whose names tell functions apart.  */
static const struct mp_lines *
files_of (struct mp_units *units, Dwarf_Die *cu)
{
  struct mp_unit *u = unit_of (units, cu);
  if (u == NULL)
    return NULL;
  if (u->lines_read && !u->files_read)
    return u->lines;
  if (!u->files_read)
    {
      u->files = mp_lines_read (cu, 0);
      u->files_read = 1;
    }
  return u->files;
}

/* The file of module M: what a function is defined in when its own
   DWARF does not say.  */
static const char *
module_file (Dwfl_Module *m)
{
  return mp_dw.dwfl_module_info (m, NULL, NULL, NULL, NULL, NULL, NULL,
                                 NULL);
}

/* Where function DIE of module M is defined: DW_AT_decl_file and
   DW_AT_decl_line, through its abstract origin, else M's file.  The
   file is named from the file table of the unit whose DIE says it
   (lines.c): the header of its line program, unless its rows are read
   already, for positions.  libdw's dwarf_decl_file reads the whole
   table, row by row, as dwarf_getsrclines does, which a frame asked for
   by name alone must not cost.  */
static struct mp_defined
definition (struct mp_units *units, Dwfl_Module *m, Dwarf_Die *die)
{
  Dwarf_Attribute a;
  Dwarf_Word v;
  Dwarf_Die cu;
  const char *file = NULL;
  int line = 0;
  if (mp_dw.dwarf_formudata (mp_dw.dwarf_attr_integrate (die, DW_AT_decl_file,
                                                         &a), &v) == 0
      && mp_dw.dwarf_cu_die (a.cu, &cu, NULL, NULL, NULL, NULL, NULL, NULL))
    {
      const struct mp_lines *files = files_of (units, &cu);
      file = files ? mp_lines_file (files, v) : NULL;
    }
  if (file != NULL
      && mp_dw.dwarf_formudata (mp_dw.dwarf_attr_integrate (die,
                                                            DW_AT_decl_line,
                                                            &a), &v) == 0)
    line = (int) v;
  return (struct mp_defined) { file ? file : module_file (m), line };
}

/* The child scope of PARENT that holds PC into *OUT; 0, or -1.  */
static int
child_scope_at (const Dwarf_Die *parent, Dwarf_Addr pc, Dwarf_Die *out)
{
  Dwarf_Die die, p = *parent;
  if (mp_dw.dwarf_child (&p, &die) != 0)
    return -1;
  do
    if (is_scope_tag (mp_dw.dwarf_tag (&die))
        && mp_dw.dwarf_haspc (&die, pc) == 1)
      {
        *out = die;
        return 0;
      }
  while (mp_dw.dwarf_siblingof (&die, &die) == 0);
  return -1;
}

/* Function F's child scope that holds PC into *OUT; 0, or -1.  */
static int
listed_scope_at (struct range *f, Dwarf_Addr pc, Dwarf_Die *out)
{
  if (f->n_inner < 0)
    f->n_inner = list_ranges (&f->die, is_scope_tag, &f->inner);
  if (f->n_inner < 0)           /* no memory: walk them */
    return child_scope_at (&f->die, pc, out);
  struct range *r = range_at (f->inner, f->n_inner, pc);
  if (r == NULL)
    return -1;
  *out = r->die;
  return 0;
}

/* Function F, then the inlined scopes inside it that hold PC, outermost
   first, into CHAIN (at most MAX); return how many.  */
static int
inlined_at (struct range *f, Dwarf_Addr pc, Dwarf_Die *chain, int max)
{
  int n = 0;
  Dwarf_Die die;
  chain[n++] = f->die;
  for (int found = listed_scope_at (f, pc, &die); found == 0;
       found = child_scope_at (&die, pc, &die))
    if (mp_dw.dwarf_tag (&die) == DW_TAG_inlined_subroutine && n < max)
      chain[n++] = die;
  return n;
}

/* Tags of the DIEs that hold functions but no addresses (C++'s
   namespaces and classes): the search for a function that is not at the
   top level descends into them, as dwarf_getscopes does.  */
static int
is_container_tag (int tag)
{
  return tag == DW_TAG_namespace || tag == DW_TAG_class_type
         || tag == DW_TAG_structure_type || tag == DW_TAG_union_type
         || tag == DW_TAG_module;
}

/* Deeper than any real nesting of scopes: a hostile unit may nest its
   DIEs as deep as its size allows.  */
#define MAX_DEPTH 256

/* Tags of the scopes that may hold a GNU C nested function's DIE: its
   parent function's and that one's blocks, whose address ranges do not
   hold the nested function's code, which GCC emits apart (inner.0 in
   the symbol table; DW_AT_name `inner', what gdb shows).  */
static int
may_nest_tag (int tag)
{
  return tag == DW_TAG_subprogram || tag == DW_TAG_lexical_block;
}

/* The innermost function scope under PARENT, at most DEPTH levels down,
   that holds PC, into *OUT; 0, or -1 if there is none.  The search
   descends into the DIEs that hold PC and the containers; if NESTED,
   also into the functions and blocks that do not, where a nested
   function may be.  This is the part of dwarf_getscopes the symboliser
   needs (it does not follow inlined scopes to their abstract
   definitions); dwarf_getscopes itself leaks the scopes it found when
   it fails, on DWARF it cannot follow (found by fuzz/symbols.c, in
   elfutils 0.188 as upstream).  */
static int
function_scope_at (Dwarf_Die *parent, Dwarf_Addr pc, int depth, int nested,
                   Dwarf_Die *out)
{
  Dwarf_Die die;
  if (depth == 0 || mp_dw.dwarf_child (parent, &die) != 0)
    return -1;
  do
    {
      int tag = mp_dw.dwarf_tag (&die);
      int container = is_container_tag (tag);
      int holds = !container && mp_dw.dwarf_haspc (&die, pc) == 1;
      if (!holds && !container && !(nested && may_nest_tag (tag)))
        continue;
      if (function_scope_at (&die, pc, depth - 1, nested, out) == 0)
        return 0;
      if (holds && is_function (&die))
        {
          *out = die;
          return 0;
        }
    }
  while (mp_dw.dwarf_siblingof (&die, &die) == 0);
  return -1;
}

/* Whether unit CU has address ranges of its own and PC is in none of
   them: then none of its scopes holds PC, since a unit's ranges cover
   all its code (DWARF 5, 3.1.1).  libdwfl gives such a unit for an
   address of code without DWARF placed after the unit's, as GCC places
   a program's functions built without -g after the runtime's cold
   parts (bt-malloc's make and main): the walk of its whole tree then
   cost 500 000 instructions for each such address, half of
   bt-malloc's exit report but for malloc's consolidation.  */
static int
unit_leaves_out (Dwarf_Die *cu, Dwarf_Addr pc)
{
  Dwarf_Addr base, low, high;
  return mp_dw.dwarf_ranges (cu, 0, &base, &low, &high) > 0
         && mp_dw.dwarf_haspc (cu, pc) == 0;
}

/* The function scopes of CU holding PC, innermost first, into a
   malloc'ed *CHAIN; return how many.  */
static int
scopes_at (struct mp_units *units, Dwarf_Die *cu, Dwarf_Addr pc,
           Dwarf_Die **chain)
{
  struct range *fn = function_at (units, cu, pc);
  if (fn != NULL)
    {
      Dwarf_Die path[64];
      int n = inlined_at (fn, pc, path, 64);
      *chain = malloc ((size_t) n * sizeof **chain);
      for (int i = 0; *chain && i < n; i++)
        (*chain)[i] = path[n - 1 - i];
      return *chain ? n : 0;
    }
  /* The innermost function scope, then its concrete outer scopes.  A
     nested function is looked for only where no other scope holds PC:
     that search walks every function's children.  */
  Dwarf_Die inner;
  int n = !unit_leaves_out (cu, pc)
          && (function_scope_at (cu, pc, MAX_DEPTH, 0, &inner) == 0
              || function_scope_at (cu, pc, MAX_DEPTH, 1, &inner) == 0)
          ? mp_dw.dwarf_getscopes_die (&inner, chain) : 0;
  return n > 0 ? n : 0;
}

/* ---- the unit of an address ------------------------------------------

   libdwfl finds the unit of an address through libdw's
   dwarf_getaranges, which copies every entry of .debug_aranges into a
   table of its own and sorts it: for a program that links the
   runtime's fifty units, 150 000 instructions, a tenth of a short
   program's report (issue 18).  Here the entries are scanned where
   they lie, each module's section found once.  libdwfl's answer is the
   unit of the entry with the highest start at most the address; it is
   taken here when a single entry has that start and holds the address.
   Otherwise (no entry holds it; several start there; one starts
   between, empty or ending before the address, as discarded COMDAT
   copies' entries may), and for a section this reader does not take
   (another byte order, segment selectors, a bad header), libdwfl is
   asked.  The data may be hostile: every read is bounded.  */

/* A module's .debug_aranges: DATA is NULL if it has none, or it is not
   to be read here.  */
struct mp_aranges
{
  Dwarf *dw;
  const unsigned char *data;
  size_t size;
};

/* The N bytes at P, which the caller has bounded, in this machine's
   byte order (the only one read here).  */
static uint64_t
native (const unsigned char *p, size_t n)
{
  uint32_t v4;
  uint64_t v8;
  if (n == 4)
    {
      memcpy (&v4, p, 4);
      return v4;
    }
  memcpy (&v8, p, 8);
  return v8;
}

/* DW's .debug_aranges, found at the first call for it.  */
static const struct mp_aranges *
aranges_of (struct mp_units *units, Dwarf *dw)
{
  for (size_t i = 0; i < units->n_aranges; i++)
    if (units->aranges[i].dw == dw)
      return &units->aranges[i];
  if (mp_reserve (&units->aranges, &units->cap_aranges, units->n_aranges,
                  sizeof *units->aranges) != 0)
    return NULL;
  struct mp_aranges a = { dw, NULL, 0 };
  static const unsigned char host = __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
                                    ? ELFDATA2MSB : ELFDATA2LSB;
  Elf *elf = mp_dw.dwarf_getelf (dw);
  const char *ident = elf ? mp_dw.elf_getident (elf, NULL) : NULL;
  size_t strndx;
  if (ident != NULL && ident[EI_DATA] == host
      && mp_dw.elf_getshdrstrndx (elf, &strndx) == 0)
    for (Elf_Scn *scn = NULL; (scn = mp_dw.elf_nextscn (elf, scn)) != NULL;)
      {
        GElf_Shdr mem, *sh = mp_dw.gelf_getshdr (scn, &mem);
        const char *name = sh ? mp_dw.elf_strptr (elf, strndx, sh->sh_name)
                              : NULL;
        if (name == NULL || strcmp (name, ".debug_aranges") != 0)
          continue;
        Elf_Data *d = sh->sh_type != SHT_NOBITS
                      && !(sh->sh_flags & SHF_COMPRESSED)
                      ? mp_dw.elf_getdata (scn, NULL) : NULL;
        if (d != NULL && d->d_buf != NULL)
          a = (struct mp_aranges) { dw, d->d_buf, d->d_size };
        break;
      }
  units->aranges[units->n_aranges] = a;
  return &units->aranges[units->n_aranges++];
}

/* The offset in .debug_info of the unit that A says holds ADDR, as
   libdwfl would find it (see above); 0, or -1 to ask libdwfl.  */
static int
arange_unit (const struct mp_aranges *a, Dwarf_Addr addr, Dwarf_Off *unit)
{
  const unsigned char *p = a->data, *end = a->data + a->size;
  int found = 0, tied = 0, holds = 0;
  Dwarf_Addr best = 0;
  while (end - p >= 4)
    {
      const unsigned char *set = p;
      uint64_t length = native (p, 4);
      size_t off_size = 4;
      p += 4;
      if (length == 0xffffffff && end - p >= 8)
        {
          length = native (p, 8);
          off_size = 8;
          p += 8;
        }
      if (length < 2 + off_size + 2 || length > (uint64_t) (end - p))
        return -1;
      const unsigned char *next = p + length;
      uint64_t info = native (p + 2, off_size);
      unsigned addr_size = p[2 + off_size], seg_size = p[3 + off_size];
      if ((addr_size != 4 && addr_size != 8) || seg_size != 0)
        return -1;
      /* The tuples start at a multiple of their size from the set.  */
      size_t header = (size_t) (p + 4 + off_size - set);
      p = set + (header + 2 * addr_size - 1) / (2 * addr_size)
                * (2 * addr_size);
      for (; next - p >= 2 * (ptrdiff_t) addr_size; p += 2 * addr_size)
        {
          uint64_t start = native (p, addr_size);
          uint64_t size = native (p + addr_size, addr_size);
          if (start == 0 && size == 0)
            break;
          if (start > addr || (found && start < best))
            continue;
          if (found && start == best)
            {
              tied = 1;
              continue;
            }
          found = 1;
          tied = 0;
          best = start;
          holds = addr - start < size;
          *unit = info;
        }
      p = next;
    }
  return found && !tied && holds ? 0 : -1;
}

/* The DIE of the unit of module M that holds PC into *MEM, and the
   module's bias into *BIAS, as dwfl_module_addrdie gives them; NULL if
   none does.  */
static Dwarf_Die *
unit_die_at (struct mp_units *units, Dwfl_Module *m, Dwarf_Addr pc,
             Dwarf_Addr *bias, Dwarf_Die *mem)
{
  Dwarf *dw = mp_dw.dwfl_module_getdwarf (m, bias);
  const struct mp_aranges *a = dw ? aranges_of (units, dw) : NULL;
  Dwarf_Off unit = 0, next;
  size_t header;
  if (a != NULL && a->data != NULL && arange_unit (a, pc - *bias, &unit) == 0
      && mp_dw.dwarf_next_unit (dw, unit, &next, &header, NULL, NULL, NULL,
                                NULL, NULL, NULL) == 0
      && mp_dw.dwarf_offdie (dw, unit + header, mem) != NULL)
    return mem;
  return dw ? mp_dw.dwfl_module_addrdie (m, pc, bias) : NULL;
}

size_t
mp_module_frames (struct mp_units *units, Dwfl_Module *m, Dwarf_Addr pc,
                  unsigned what, struct mp_frame *out,
                  struct mp_defined *defined_in, size_t max)
{
  const char *file = NULL;
  int line = 0;
  Dwarf_Addr bias;
  Dwarf_Die unit_mem;
  Dwarf_Die *cu = (what & MP_FRAMES_DWARF)
                  ? unit_die_at (units, m, pc, &bias, &unit_mem) : NULL;
  const struct mp_lines *lines = cu && (what & MP_FRAMES_LINES)
                                 ? lines_of (units, cu) : NULL;
  if (lines && mp_lines_at (lines, pc - bias, &file, &line) != 0)
    {
      file = NULL;
      line = 0;
    }
  Dwarf_Die *chain = NULL;
  int n_chain = cu ? scopes_at (units, cu, pc - bias, &chain) : 0;
  size_t n = 0;
  Dwarf_Die *inner = NULL;      /* the frame pushed last */
  for (int i = 0; i < n_chain && n < max; i++)
    {
      if (!is_function (&chain[i]))
        continue;
      if (inner != NULL)
        call_position (lines, inner, &file, &line);
      int inlined = mp_dw.dwarf_tag (&chain[i]) == DW_TAG_inlined_subroutine;
      defined_in[n] = definition (units, m, &chain[i]);
      out[n++] = (struct mp_frame) { die_name (&chain[i]), file,
                                     (unsigned) line, inlined };
      if (!inlined)
        break;
      inner = &chain[i];
    }
  if (n > 0 && out[n - 1].inlined)
    call_position (lines, inner, &file, &line);
  free (chain);
  if (n > 0 && out[n - 1].inlined && n == max)
    out[n - 1].inlined = 0;     /* the frames past MAX are cut */
  else if (n < max && (n == 0 || out[n - 1].inlined))
    {
      /* No DWARF for PC, or a chain that ends inside an inlined scope
         (corrupt DWARF, found by fuzz/symbols.c): the function is the
         symbol table's, found as libdwfl finds it but without reading
         every global symbol (symtab.c).  */
      const char *name = mp_symtab_name (m, pc);
      defined_in[n] = (struct mp_defined) { module_file (m), 0 };
      out[n++] = (struct mp_frame) { name ? name : "??", file,
                                     (unsigned) line, 0 };
    }
  return n;
}

void
mp_units_free (struct mp_units *units)
{
  free (units->aranges);
  units->aranges = NULL;
  units->n_aranges = units->cap_aranges = 0;
  for (size_t b = 0; b < MP_UNIT_BUCKETS; b++)
    while (units->buckets[b] != NULL)
      {
        struct mp_unit *u = units->buckets[b];
        units->buckets[b] = u->next;
        for (ptrdiff_t i = 0; i < u->n; i++)
          free (u->ranges[i].inner);
        free (u->ranges);
        mp_lines_free (u->lines);
        mp_lines_free (u->files);
        free (u);
      }
}

/* ---- compressed DWARF -------------------------------------------------- */

/* Whether ELF's .debug_info is compressed (SHF_COMPRESSED, or GNU's
   older .zdebug_info); -1 if it has none, or cannot be read.  */
static int
info_compressed (Elf *elf)
{
  size_t strndx;
  if (elf == NULL || mp_dw.elf_getshdrstrndx (elf, &strndx) != 0)
    return -1;
  for (Elf_Scn *scn = NULL; (scn = mp_dw.elf_nextscn (elf, scn)) != NULL;)
    {
      GElf_Shdr mem, *sh = mp_dw.gelf_getshdr (scn, &mem);
      const char *name = sh ? mp_dw.elf_strptr (elf, strndx, sh->sh_name)
                            : NULL;
      if (name != NULL && strcmp (name, ".zdebug_info") == 0)
        return 1;
      if (name != NULL && strcmp (name, ".debug_info") == 0
          && sh->sh_type != SHT_NOBITS)
        return (sh->sh_flags & SHF_COMPRESSED) != 0;
    }
  return -1;
}

/* The separate debug file of M, found as libdwfl finds it to read the
   symbol table (a stripped module's is there), which reads no DWARF:
   opened apart to look at its section headers, and closed.  Asking
   dwfl_standard_find_debuginfo directly would not do: libdwfl keeps
   the file it finds as the module's, without the bias it computes when
   it finds the file itself, and names every symbol wrong after.  A
   module whose own file has a symbol table, and its DWARF apart, is
   taken as uncompressed.  */
static int
debug_file_compressed (Dwfl_Module *m)
{
  const char *debug = NULL;
  if (mp_dw.dwfl_module_getsymtab (m) < 0)
    return 0;
  mp_dw.dwfl_module_info (m, NULL, NULL, NULL, NULL, NULL, NULL, &debug);
  int fd = debug ? open (debug, O_RDONLY | O_CLOEXEC) : -1;
  if (fd < 0)
    return 0;
  Elf *elf = mp_dw.elf_begin (fd, ELF_C_READ_MMAP, NULL);
  int c = info_compressed (elf);
  mp_dw.elf_end (elf);
  close (fd);
  return c > 0;
}

int
mp_module_dwarf_compressed (Dwfl_Module *m)
{
  GElf_Addr bias;
  Elf *elf = mp_dw.dwfl_module_getelf (m, &bias);
  int c = info_compressed (elf);
  return c >= 0 ? c : debug_file_compressed (m);
}
