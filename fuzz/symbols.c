/* symbols.c -- libFuzzer's harness for the symboliser's reading of a
   module's ELF and DWARF (runtime/frames.c), which a module with corrupt
   or hostile debug information reaches at the report.

   Each input is a module file.  It is written to a file, reported to a
   Dwfl of its own as a module mapped at BASE, as dwfl_linux_proc_report
   reports what /proc/self/maps lists, and read with the process's
   callbacks (mp_module_callbacks), which open it by name and look for
   its separate debug information the standard way; then its addresses
   are symbolised with mp_module_frames, as symbols.c does: those of its
   function symbols and their middles, and addresses spread over as many
   bytes from its start as the file has, with positions, with names
   alone, and from the symbol table alone; and mp_module_dwarf_compressed
   looks at its sections and those of its debug file, as symbols.c asks
   before reading DWARF.  Besides what the sanitizers catch, it checks
   what mp_module_frames promises: at least one frame and at most the
   room given, each with a function name, the last one not inlined, and
   the same frames with their positions as without.  With
   MEMPROF_FUZZ_LINES_EXACT set in the environment, for inputs whose
   DWARF is valid (the seeds scripts/fuzz-seeds.sh builds), the
   positions from the line tables lines.c reads must be libdw's.

   Set DEBUGINFOD_URLS to nothing: libdw would ask those servers for
   every module whose build ID it cannot resolve locally.  */

#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "frames.h"

#define BASE 0x10000000
#define SPAN 0x100000           /* the module's mapping, as maps shows */
#define GRID 64                 /* addresses spread over the range */
#define MAX_SYMBOLS 128
#define MAX_FRAMES 64

static void
fail (const char *what, const char *detail)
{
  fprintf (stderr, "fuzz/symbols: %s: %s\n", what, detail);
  abort ();
}

/* The file the inputs are written to, an absolute path as the modules
   of /proc/self/maps have, in a directory of its own; both are removed
   at exit.  */
static char dir[] = "/tmp/memprof-fuzz-XXXXXX";
static char path[sizeof dir + sizeof "/module.so"];

static void
remove_module (void)
{
  unlink (path);
  rmdir (dir);
}

static const char *
module_path (void)
{
  if (path[0] == '\0')
    {
      if (mkdtemp (dir) == NULL)
        fail ("mkdtemp", dir);
      snprintf (path, sizeof path, "%s/module.so", dir);
      atexit (remove_module);
    }
  return path;
}

static void
write_module (const char *path, const uint8_t *data, size_t size)
{
  int fd = open (path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
  size_t done = 0;
  while (fd >= 0 && done < size)
    {
      ssize_t n = write (fd, data + done, size - done);
      if (n <= 0)
        break;
      done += (size_t) n;
    }
  if (fd < 0 || done < size || close (fd) != 0)
    fail ("cannot write", path);
}

/* Symbolise PC as the report would, reading WHAT, and check the
   frames; return how many, in OUT.  */
static size_t
frames_read (struct mp_units *units, Dwfl_Module *m, Dwarf_Addr pc,
             unsigned what, struct mp_frame out[MAX_FRAMES])
{
  struct mp_defined defined_in[MAX_FRAMES];
  size_t n = mp_module_frames (units, m, pc, what, out, defined_in,
                               MAX_FRAMES);
  if (n == 0 || n > MAX_FRAMES)
    fail ("frame count out of range", "");
  for (size_t i = 0; i < n; i++)
    {
      if (out[i].function == NULL)
        fail ("a frame without a function", "");
      /* The strings are read to their end, for ASan to check.  */
      volatile size_t len = strlen (out[i].function);
      if (out[i].file != NULL)
        len += strlen (out[i].file);
      if (defined_in[i].file != NULL)
        len += strlen (defined_in[i].file);
      (void) len;
      if (out[i].inlined != (i + 1 < n))
        fail ("inlined frames, then one not inlined", out[i].function);
    }
  return n;
}

/* Whether the position of frame F at PC of M is libdw's.  */
static int
libdw_position (Dwfl_Module *m, Dwarf_Addr pc, const struct mp_frame *f)
{
  int line = 0;
  Dwfl_Line *l = dwfl_module_getsrc (m, pc);
  const char *file = l ? dwfl_lineinfo (l, NULL, &line, NULL, NULL, NULL)
                       : NULL;
  return (unsigned) line == f->line
         && (file && f->file ? strcmp (file, f->file) == 0 : file == f->file);
}

/* PC's frames from everything, then from names alone (the same frames,
   without positions), then from the symbol table alone.  */
static void
check_frames (struct mp_units *units, Dwfl_Module *m, Dwarf_Addr pc)
{
  struct mp_frame lines[MAX_FRAMES], names[MAX_FRAMES], symtab[MAX_FRAMES];
  size_t n = frames_read (units, m, pc, MP_FRAMES_DWARF | MP_FRAMES_LINES,
                          lines);
  if (getenv ("MEMPROF_FUZZ_LINES_EXACT") && !libdw_position (m, pc, &lines[0]))
    fail ("a position that is not libdw's", lines[0].function);
  if (frames_read (units, m, pc, MP_FRAMES_DWARF, names) != n)
    fail ("names alone give other frames", lines[0].function);
  for (size_t i = 0; i < n; i++)
    if (strcmp (names[i].function, lines[i].function) != 0
        || names[i].file != NULL || names[i].line != 0)
      fail ("names alone give other frames", lines[i].function);
  if (frames_read (units, m, pc, 0, symtab) != 1)
    fail ("the symbol table gives more than a frame", symtab[0].function);
}

/* The function symbols of M, and their middles, then GRID addresses
   over the SIZE bytes from its start.  */
static void
check_module (struct mp_units *units, Dwfl_Module *m, size_t size)
{
  volatile int compressed = mp_module_dwarf_compressed (m);
  (void) compressed;
  int n_syms = dwfl_module_getsymtab (m);
  for (int i = 1; i < n_syms && i <= MAX_SYMBOLS; i++)
    {
      GElf_Sym sym;
      GElf_Addr addr;
      if (dwfl_module_getsym_info (m, i, &sym, &addr, NULL, NULL, NULL) == NULL
          || GELF_ST_TYPE (sym.st_info) != STT_FUNC)
        continue;
      check_frames (units, m, addr);
      check_frames (units, m, addr + sym.st_size / 2);
    }
  for (size_t k = 0; k < GRID; k++)
    check_frames (units, m, BASE + size / GRID * k);
}

int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  const char *why;
  if (mp_dw_load (&why) != 0)
    fail ("libdw", why);
  const char *path = module_path ();
  write_module (path, data, size);
  Dwfl *dwfl = dwfl_begin (&mp_module_callbacks);
  if (dwfl == NULL)
    fail ("dwfl_begin", dwfl_errmsg (-1));
  dwfl_report_begin (dwfl);
  Dwfl_Module *m = dwfl_report_module (dwfl, path, BASE, BASE + SPAN);
  dwfl_report_end (dwfl, NULL, NULL);
  struct mp_units units = { { NULL }, NULL, 0, 0 };
  if (m != NULL)
    check_module (&units, m, size);
  mp_units_free (&units);
  dwfl_end (dwfl);
  return 0;
}
