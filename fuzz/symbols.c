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
   bytes from its start as the file has.  Besides what the sanitizers catch, it checks what
   mp_module_frames promises: at least one frame and at most the room
   given, each with a function name, and the last one not inlined.

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

/* Symbolise PC as the report would, and check the frames.  */
static void
check_frames (struct mp_units *units, Dwfl_Module *m, Dwarf_Addr pc)
{
  struct mp_frame frames[MAX_FRAMES];
  struct mp_defined defined_in[MAX_FRAMES];
  size_t n = mp_module_frames (units, m, pc, frames, defined_in, MAX_FRAMES);
  if (n == 0 || n > MAX_FRAMES)
    fail ("frame count out of range", "");
  for (size_t i = 0; i < n; i++)
    {
      if (frames[i].function == NULL)
        fail ("a frame without a function", "");
      /* The strings are read to their end, for ASan to check.  */
      volatile size_t len = strlen (frames[i].function);
      if (frames[i].file != NULL)
        len += strlen (frames[i].file);
      if (defined_in[i].file != NULL)
        len += strlen (defined_in[i].file);
      (void) len;
      if (frames[i].inlined != (i + 1 < n))
        fail ("inlined frames, then one not inlined", frames[i].function);
    }
}

/* The function symbols of M, and their middles, then GRID addresses
   over the SIZE bytes from its start.  */
static void
check_module (struct mp_units *units, Dwfl_Module *m, size_t size)
{
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
  const char *path = module_path ();
  write_module (path, data, size);
  Dwfl *dwfl = dwfl_begin (&mp_module_callbacks);
  if (dwfl == NULL)
    fail ("dwfl_begin", dwfl_errmsg (-1));
  dwfl_report_begin (dwfl);
  Dwfl_Module *m = dwfl_report_module (dwfl, path, BASE, BASE + SPAN);
  dwfl_report_end (dwfl, NULL, NULL);
  struct mp_units units = { { NULL } };
  if (m != NULL)
    check_module (&units, m, size);
  mp_units_free (&units);
  dwfl_end (dwfl);
  return 0;
}
