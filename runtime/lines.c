/* lines.c -- the line table of a compilation unit: which file and line
   each address of its code comes from, read from the unit's DWARF line
   program (DWARF 2 to 5), for the frames that show a position.

   Why not libdw's dwarf_getsrclines: it gives the same rows, but costs
   some 500 instructions a row (a node allocated for each, then a sort of
   them all), and a unit's table is read whole to place one address:
   for jq, whose report shows positions in seven units, that was three
   quarters of the report's time.  Here a row is a few dozen
   instructions, kept in a flat array; the rows of a sequence come in
   address order, so only the sequences are sorted.

   The answers are libdwfl's (dwfl_module_getsrc, then dwfl_lineinfo):
   the row of the highest address at most ADDR, the last one that came
   among rows of that address but after an end of sequence there, none
   if it ends a sequence or is the unit's last row; file names as
   libdw composes them (dwarf_filesrc), a relative name joined to its
   directory, in DWARF 5 the table's own entries, before that the
   unit's DW_AT_comp_dir as directory 0 and a file 0 of `???'.  fuzz/
   symbols.c checks them against libdw's on valid DWARF.

   The data may be hostile: every read is bounded by its section, every
   count by the bytes left, and the program's loop ends with them.  */

#include <dwarf.h>
#include <stdlib.h>
#include <string.h>
#include "alloc.h"
#include "index.h"
#include "lines.h"

/* A row of the table; END marks the address past a sequence.  */
struct row
{
  uint64_t addr;                /* first: mp_count_at_most's key */
  uint32_t line;
  uint32_t file : 31, end : 1;
};

/* A sequence: rows FIRST to FIRST + N - 1, from address LO on.  */
struct sequence
{
  uint64_t lo;                  /* first: mp_count_at_most's key */
  size_t first, n;
};

struct mp_lines
{
  char **files;                 /* composed names, malloc'ed (or NULL) */
  size_t n_files, cap_files;
  struct row *rows;
  size_t n_rows, cap_rows;
  struct sequence *seqs;        /* by LO once read, but for those of
                                   no row but their end */
  size_t n_seqs, cap_seqs;
  uint64_t max_addr;            /* the highest address of a row */
};

/* ---- reading bytes ------------------------------------------------------ */

/* Bytes being read, up to END; BAD once a read went past it.  */
struct reader
{
  const unsigned char *p, *end;
  int big_endian, offset_size, bad;
};

static uint64_t
fixed (struct reader *r, size_t n)
{
  uint64_t v = 0;
  if (n > 8 || (size_t) (r->end - r->p) < n)
    {
      r->bad = 1;
      r->p = r->end;
      return 0;
    }
  for (size_t i = 0; i < n; i++)
    v |= (uint64_t) r->p[r->big_endian ? n - 1 - i : i] << (8 * i);
  r->p += n;
  return v;
}

static inline unsigned
byte (struct reader *r)
{
  if (r->p < r->end)
    return *r->p++;
  r->bad = 1;
  return 0;
}

static uint64_t
uleb (struct reader *r)
{
  uint64_t v = 0;
  for (unsigned shift = 0; r->p < r->end; shift += 7)
    {
      unsigned char b = *r->p++;
      if (shift < 64)
        v |= (uint64_t) (b & 0x7f) << shift;
      if (!(b & 0x80))
        return v;
    }
  r->bad = 1;
  return v;
}

static int64_t
sleb (struct reader *r)
{
  uint64_t v = 0;
  unsigned shift = 0;
  unsigned char b = 0x80;
  while (r->p < r->end && (b & 0x80))
    {
      b = *r->p++;
      if (shift < 64)
        v |= (uint64_t) (b & 0x7f) << shift;
      shift += 7;
    }
  if (b & 0x80)
    r->bad = 1;
  else if (shift < 64 && (b & 0x40))
    v |= ~(uint64_t) 0 << shift;
  return (int64_t) v;
}

/* A string ending within the bytes left, or NULL.  */
static const char *
cstring (struct reader *r)
{
  const unsigned char *nul = memchr (r->p, 0, (size_t) (r->end - r->p));
  if (nul == NULL)
    {
      r->bad = 1;
      r->p = r->end;
      return NULL;
    }
  const char *s = (const char *) r->p;
  r->p = nul + 1;
  return s;
}

/* The string at OFFSET of section data D, or NULL.  */
static const char *
string_at (const Elf_Data *d, uint64_t offset)
{
  if (d == NULL || offset >= d->d_size)
    return NULL;
  const char *s = (const char *) d->d_buf + offset;
  return memchr (s, 0, d->d_size - offset) ? s : NULL;
}

/* ---- the unit's sections ------------------------------------------------ */

struct sections
{
  Elf_Data *line, *line_str, *str;
  int big_endian;
};

/* The data of the sections the line program refers to, in the file
   that holds CU's DWARF (libdw has inflated them if they were
   compressed); 0, or -1 without .debug_line.  */
static int
find_sections (Dwarf_Die *cu, struct sections *s)
{
  memset (s, 0, sizeof *s);
  Elf *elf = mp_dw.dwarf_getelf (mp_dw.dwarf_cu_getdwarf (cu->cu));
  size_t strndx;
  if (elf == NULL || mp_dw.elf_getshdrstrndx (elf, &strndx) != 0)
    return -1;
  const char *ident = mp_dw.elf_getident (elf, NULL);
  s->big_endian = ident != NULL && ident[EI_DATA] == ELFDATA2MSB;
  for (Elf_Scn *scn = NULL; (scn = mp_dw.elf_nextscn (elf, scn)) != NULL;)
    {
      GElf_Shdr mem, *sh = mp_dw.gelf_getshdr (scn, &mem);
      const char *name = sh ? mp_dw.elf_strptr (elf, strndx, sh->sh_name)
                            : NULL;
      if (name == NULL || sh->sh_type == SHT_NOBITS)
        continue;
      name += strncmp (name, ".zdebug_", 8) == 0;      /* GNU's inflated */
      Elf_Data **d = strcmp (name, ".debug_line") == 0 ? &s->line
                     : strcmp (name, ".debug_line_str") == 0 ? &s->line_str
                     : strcmp (name, ".debug_str") == 0 ? &s->str : NULL;
      if (d != NULL && *d == NULL)
        *d = mp_dw.elf_getdata (scn, NULL);
    }
  return s->line && s->line->d_buf ? 0 : -1;
}

/* ---- the header: directories and files ---------------------------------- */

/* Add file NAME in directory DIR (either may be NULL) to T, its name
   composed as libdw does; -1 without memory.  */
static int
add_file (struct mp_lines *t, const char *dir, const char *name)
{
  if (mp_reserve (&t->files, &t->cap_files, t->n_files, sizeof *t->files))
    return -1;
  char *s = NULL;
  if (name != NULL && (name[0] == '/' || dir == NULL))
    s = strdup (name);
  else if (name != NULL && (s = malloc (strlen (dir) + strlen (name) + 2)))
    strcat (strcat (strcpy (s, dir), "/"), name);
  t->files[t->n_files++] = s;
  return name != NULL && s == NULL ? -1 : 0;
}

/* One value of FORM: a string into *S, a number into *V; -1 for a form
   a line table has no business with.  */
static int
form_value (struct reader *r, const struct sections *sec, uint64_t form,
            const char **s, uint64_t *v)
{
  switch (form)
    {
    case DW_FORM_string:
      *s = cstring (r);
      return 0;
    case DW_FORM_line_strp:
      *s = string_at (sec->line_str, fixed (r, (size_t) r->offset_size));
      return 0;
    case DW_FORM_strp:
      *s = string_at (sec->str, fixed (r, (size_t) r->offset_size));
      return 0;
    case DW_FORM_udata:
      *v = uleb (r);
      return 0;
    case DW_FORM_sdata:
      *v = (uint64_t) sleb (r);
      return 0;
    case DW_FORM_data1:
    case DW_FORM_data2:
    case DW_FORM_data4:
    case DW_FORM_data8:
      *v = fixed (r, form == DW_FORM_data1 ? 1 : form == DW_FORM_data2 ? 2
                     : form == DW_FORM_data4 ? 4 : 8);
      return 0;
    case DW_FORM_data16:
      r->p += (size_t) (r->end - r->p) < 16 ? (size_t) (r->end - r->p) : 16;
      return 0;
    case DW_FORM_block:
      {
        uint64_t n = uleb (r), left = (uint64_t) (r->end - r->p);
        r->p += n < left ? n : left;
        return 0;
      }
    default:
      return -1;
    }
}

/* DWARF 5's entries (directories or files): their format, their count,
   then each, its path into PATHS (and, for files, its directory index
   into DIRS); the number of entries, or -1.  */
static int64_t
read_entries (struct reader *r, const struct sections *sec,
              const char ***paths, uint64_t **dirs)
{
  uint64_t content[16], form[16];
  unsigned n_formats = (unsigned) fixed (r, 1);
  for (unsigned i = 0; i < n_formats && i < 16; i++)
    {
      content[i] = uleb (r);
      form[i] = uleb (r);
    }
  uint64_t n = uleb (r);
  /* Each entry takes a byte at least, and has a path.  */
  if (r->bad || n_formats > 16 || (n > 0 && n_formats == 0)
      || n > (uint64_t) (r->end - r->p))
    return -1;
  *paths = calloc (n + 1, sizeof **paths);
  *dirs = calloc (n + 1, sizeof **dirs);
  if (*paths == NULL || *dirs == NULL)
    return -1;
  for (uint64_t e = 0; e < n && !r->bad; e++)
    for (unsigned i = 0; i < n_formats; i++)
      {
        const char *s = NULL;
        uint64_t v = 0;
        if (form_value (r, sec, form[i], &s, &v) != 0)
          return -1;
        if (content[i] == DW_LNCT_path)
          (*paths)[e] = s;
        else if (content[i] == DW_LNCT_directory_index)
          (*dirs)[e] = v;
      }
  return r->bad ? -1 : (int64_t) n;
}

/* DWARF 5's directory and file tables into T; 0, or -1.  */
static int
read_tables_5 (struct reader *r, const struct sections *sec,
               struct mp_lines *t)
{
  const char **dir_paths = NULL, **file_paths = NULL;
  uint64_t *unused = NULL, *file_dirs = NULL;
  int64_t n_dirs = read_entries (r, sec, &dir_paths, &unused);
  int64_t n_files = n_dirs < 0 ? -1
                    : read_entries (r, sec, &file_paths, &file_dirs);
  int rc = n_files < 0 ? -1 : 0;
  for (int64_t i = 0; i < n_files && rc == 0; i++)
    rc = add_file (t, file_dirs[i] < (uint64_t) n_dirs
                      ? dir_paths[file_dirs[i]] : NULL, file_paths[i]);
  free (dir_paths);
  free (unused);
  free (file_paths);
  free (file_dirs);
  return rc;
}

/* The file table of DWARF before 5, directory 0 being COMP_DIR; the
   directories are kept in *DIRS (malloc'ed, *N_DIRS of them) for the
   files that DW_LNE_define_file adds.  0, or -1.  */
static int
read_tables_4 (struct reader *r, const char *comp_dir, struct mp_lines *t,
               const char ***dirs, size_t *n_dirs)
{
  size_t cap = 0;
  *dirs = NULL;
  *n_dirs = 0;
  const char *d = comp_dir;
  do
    {
      if (mp_reserve (dirs, &cap, *n_dirs, sizeof **dirs) != 0)
        return -1;
      (*dirs)[(*n_dirs)++] = d;
    }
  while ((d = cstring (r)) != NULL && d[0] != '\0');
  if (add_file (t, NULL, "???") != 0)
    return -1;
  while (!r->bad && r->p < r->end && *r->p != 0)
    {
      const char *name = cstring (r);
      uint64_t dir = uleb (r);
      uleb (r);                 /* modification time */
      uleb (r);                 /* length */
      if (add_file (t, dir < *n_dirs ? (*dirs)[dir] : NULL, name) != 0)
        return -1;
    }
  r->p += r->p < r->end;        /* the 0 that ends the list */
  return r->bad ? -1 : 0;
}

/* ---- the program -------------------------------------------------------- */

/* The header's fields the program needs.  */
struct header
{
  unsigned min_inst, max_ops, line_range, opcode_base, version;
  int line_base, default_is_stmt;
  const unsigned char *std_lengths;
};

/* The registers of the state machine.  */
struct state
{
  uint64_t addr, op_index, file, line;
  int in_sequence;
};

static void
reset (struct state *s)
{
  *s = (struct state) { 0, 0, 1, 1, 0 };
}

/* Append S's row, ending its sequence if END; -1 without memory.  */
static int
emit (struct mp_lines *t, struct state *s, int end)
{
  if (t->n_rows == t->cap_rows
      && mp_reserve (&t->rows, &t->cap_rows, t->n_rows, sizeof *t->rows))
    return -1;
  if (!s->in_sequence)
    {
      if (mp_reserve (&t->seqs, &t->cap_seqs, t->n_seqs, sizeof *t->seqs))
        return -1;
      t->seqs[t->n_seqs++] = (struct sequence) { s->addr, t->n_rows, 0 };
      s->in_sequence = 1;
    }
  t->rows[t->n_rows++] = (struct row) { s->addr, (uint32_t) s->line,
                                        (uint32_t) s->file & 0x7fffffff,
                                        (unsigned) end };
  t->max_addr = s->addr > t->max_addr ? s->addr : t->max_addr;
  /* A sequence of no row but its end holds no address: it is
     forgotten, its end row being sorted before any other there.  */
  if (++t->seqs[t->n_seqs - 1].n == 1 && end)
    t->n_seqs--;
  if (end)
    reset (s);
  return 0;
}

/* Advance S by ADV operations.  */
static void
advance (const struct header *h, struct state *s, uint64_t adv)
{
  uint64_t ops = s->op_index + adv;
  s->addr += h->min_inst * (ops / h->max_ops);
  s->op_index = ops % h->max_ops;
}

/* An extended opcode; -1 without memory.  */
static int
extended (struct reader *r, const struct header *h, struct state *s,
          struct mp_lines *t, const char **dirs, size_t n_dirs)
{
  uint64_t len = uleb (r);
  if (len == 0 || len > (uint64_t) (r->end - r->p))
    {
      r->p = r->end;
      return 0;
    }
  struct reader op = { r->p + 1, r->p + len, r->big_endian, r->offset_size,
                       0 };
  unsigned code = *r->p;   /* LEN is at least 1 */
  r->p += len;
  if (code == DW_LNE_end_sequence)
    return emit (t, s, 1);
  if (code == DW_LNE_set_address)
    {
      s->addr = fixed (&op, (size_t) (len - 1));
      s->op_index = 0;
    }
  else if (code == DW_LNE_define_file && h->version < 5)
    {
      const char *name = cstring (&op);
      uint64_t dir = uleb (&op);
      if (!op.bad && add_file (t, dir < n_dirs ? dirs[dir] : NULL, name))
        return -1;
    }
  return 0;
}

/* One standard or special opcode of the program; -1 without memory.  */
static int
opcode (struct reader *r, const struct header *h, struct state *s,
        struct mp_lines *t, const char **dirs, size_t n_dirs)
{
  unsigned op = byte (r);
  if (op >= h->opcode_base)
    {
      unsigned adj = op - h->opcode_base;
      advance (h, s, adj / h->line_range);
      s->line += (uint64_t) (int64_t) (h->line_base
                                       + (int) (adj % h->line_range));
      return emit (t, s, 0);
    }
  switch (op)
    {
    case 0:
      return extended (r, h, s, t, dirs, n_dirs);
    case DW_LNS_copy:
      return emit (t, s, 0);
    case DW_LNS_advance_pc:
      advance (h, s, uleb (r));
      return 0;
    case DW_LNS_advance_line:
      s->line += (uint64_t) sleb (r);
      return 0;
    case DW_LNS_set_file:
      s->file = uleb (r);
      return 0;
    case DW_LNS_const_add_pc:
      advance (h, s, (255 - h->opcode_base) / h->line_range);
      return 0;
    case DW_LNS_fixed_advance_pc:
      s->addr += fixed (r, 2);
      s->op_index = 0;
      return 0;
    default:
      /* The other standard opcodes change nothing a row here keeps:
         skip their operands, as many as the header says.  */
      for (unsigned i = h->std_lengths[op - 1]; i > 0; i--)
        uleb (r);
      return 0;
    }
}

/* ---- reading a table ---------------------------------------------------- */

/* The header from R (the unit's line program, past its length) into H
   and T's files, R left at the program; 0, or -1.  */
static int
read_header (struct reader *r, const struct sections *sec,
             const char *comp_dir, struct header *h, struct mp_lines *t,
             const char ***dirs, size_t *n_dirs)
{
  h->version = (unsigned) fixed (r, 2);
  if (h->version < 2 || h->version > 5)
    return -1;
  if (h->version >= 5)
    fixed (r, 2);               /* address size, segment selector size */
  uint64_t header_length = fixed (r, (size_t) r->offset_size);
  if (header_length > (uint64_t) (r->end - r->p))
    return -1;
  const unsigned char *program = r->p + header_length;
  h->min_inst = (unsigned) fixed (r, 1);
  h->max_ops = h->version >= 4 ? (unsigned) fixed (r, 1) : 1;
  h->default_is_stmt = (int) fixed (r, 1);
  h->line_base = (signed char) fixed (r, 1);
  h->line_range = (unsigned) fixed (r, 1);
  h->opcode_base = (unsigned) fixed (r, 1);
  h->std_lengths = r->p;
  if (r->bad || h->line_range == 0 || h->opcode_base == 0
      || h->opcode_base - 1u > (size_t) (r->end - r->p))
    return -1;
  h->max_ops += h->max_ops == 0;
  r->p += h->opcode_base - 1;
  struct reader tables = { r->p, program, r->big_endian, r->offset_size, 0 };
  int rc = h->version >= 5 ? read_tables_5 (&tables, sec, t)
           : read_tables_4 (&tables, comp_dir, t, dirs, n_dirs);
  r->p = program;
  return rc;
}

static int
by_lo (const void *a, const void *b)
{
  const struct sequence *x = a, *y = b;
  if (x->lo != y->lo)
    return x->lo < y->lo ? -1 : 1;
  return (x->first > y->first) - (x->first < y->first);
}

/* Room in T for the rows of a program of N bytes, at most one a byte
   (a special opcode, DW_LNS_copy; DW_LNE_end_sequence takes three), made
   at once: a table grown by doubling its array copied it over and over,
   and touched twice the pages it needed (jq's report read 26 000 rows,
   and took 60 page faults there).  The pages past the rows written are
   never touched, and given back once the program is read.  Without the
   memory at once, the array grows as it goes.  */
static void
reserve_rows (struct mp_lines *t, size_t n)
{
  struct row *rows = malloc ((n + 1) * sizeof *rows);
  if (rows != NULL)
    {
      t->rows = rows;
      t->cap_rows = n + 1;
    }
}

/* Run the line program at OFFSET of the sections SEC into T, or only
   read its header's files unless ROWS; 0, or -1.  */
static int
run (const struct sections *sec, uint64_t offset, const char *comp_dir,
     int rows, struct mp_lines *t)
{
  const Elf_Data *d = sec->line;
  if (offset >= d->d_size)
    return -1;
  struct reader r = { (const unsigned char *) d->d_buf + offset,
                      (const unsigned char *) d->d_buf + d->d_size,
                      sec->big_endian, 4, 0 };
  uint64_t length = fixed (&r, 4);
  if (length == 0xffffffff)
    {
      r.offset_size = 8;
      length = fixed (&r, 8);
    }
  if (r.bad || length > (uint64_t) (r.end - r.p))
    return -1;
  r.end = r.p + length;
  struct header h;
  const char **dirs = NULL;
  size_t n_dirs = 0;
  int rc = read_header (&r, sec, comp_dir, &h, t, &dirs, &n_dirs);
  if (rows && rc == 0)
    reserve_rows (t, (size_t) (r.end - r.p));
  struct state s;
  reset (&s);
  while (rows && rc == 0 && r.p < r.end)
    rc = opcode (&r, &h, &s, t, dirs, n_dirs);
  free (dirs);
  if (t->n_rows > 0 && t->n_rows < t->cap_rows)
    {
      struct row *fit = realloc (t->rows, t->n_rows * sizeof *t->rows);
      t->rows = fit ? fit : t->rows;
      t->cap_rows = fit ? t->n_rows : t->cap_rows;
    }
  if (rc == 0 && t->n_seqs > 0)
    qsort (t->seqs, t->n_seqs, sizeof *t->seqs, by_lo);
  return rc;
}

struct mp_lines *
mp_lines_read (Dwarf_Die *cu, int rows)
{
  Dwarf_Attribute a;
  Dwarf_Word offset;
  struct sections sec;
  if (mp_dw.dwarf_formudata (mp_dw.dwarf_attr (cu, DW_AT_stmt_list, &a),
                             &offset) != 0
      || find_sections (cu, &sec) != 0)
    return NULL;
  const char *comp_dir
    = mp_dw.dwarf_formstring (mp_dw.dwarf_attr (cu, DW_AT_comp_dir, &a));
  struct mp_lines *t = calloc (1, sizeof *t);
  if (t != NULL && run (&sec, offset, comp_dir, rows, t) != 0)
    {
      mp_lines_free (t);
      t = NULL;
    }
  return t;
}

/* ---- looking up --------------------------------------------------------- */

int
mp_lines_at (const struct mp_lines *t, Dwarf_Addr addr, const char **file,
             int *line)
{
  /* libdw makes the unit's last row an end of sequence.  */
  if (t->n_rows == 0 || addr >= t->max_addr)
    return -1;
  /* The last sequence from ADDR or before, then its last row there.  */
  size_t k = mp_count_at_most (t->seqs, t->n_seqs, sizeof *t->seqs, addr);
  if (k == 0)
    return -1;
  const struct sequence *q = &t->seqs[k - 1];
  const struct row *rows = t->rows + q->first;
  size_t a = mp_count_at_most (rows, q->n, sizeof *rows, addr);
  if (a == 0)
    return -1;
  const struct row *r = &rows[a - 1];
  /* libdw sorts the end of a sequence before the rows of its address.  */
  if (r->end && a >= 2 && rows[a - 2].addr == r->addr)
    r = &rows[a - 2];
  if (r->end)
    return -1;
  *file = mp_lines_file (t, r->file);
  *line = (int) r->line;
  return 0;
}

const char *
mp_lines_file (const struct mp_lines *t, Dwarf_Word i)
{
  return i < t->n_files ? t->files[i] : NULL;
}

void
mp_lines_free (struct mp_lines *t)
{
  if (t == NULL)
    return;
  for (size_t i = 0; i < t->n_files; i++)
    free (t->files[i]);
  free (t->files);
  free (t->rows);
  free (t->seqs);
  free (t);
}
