/* frames.h -- the frames at an address of a module, from its DWARF or
   its symbol table (frames.c).  The libdw functions are mp_dw's
   (dynlibs.h): mp_dw_load first.  */

#ifndef MEMPROF_FRAMES_H
#define MEMPROF_FRAMES_H

#include <stddef.h>
#include "dynlibs.h"
#include "memprof.h"

/* The callbacks of a Dwfl of the process's modules: a module named by an
   absolute path is read from that file.  */
extern const Dwfl_Callbacks mp_module_callbacks;

/* The file of the module named NAME (a string that outlives it) is open
   on FD, a regular file: the callbacks give FD to libdwfl, which takes
   it, instead of opening NAME again at the module's first lookup.  The
   caller serialises this with its lookups.  */
void mp_module_file_open (const char *name, int fd);

#define MP_UNIT_BUCKETS 1024
struct mp_unit;

/* The compilation units whose functions have been listed (by address
   range, for the lookups), of the modules of one Dwfl: all zero when
   empty.  Its owner serialises the lookups, and frees it with
   mp_units_free before it ends the Dwfl, or never.  */
struct mp_aranges;
struct mp_units
{
  struct mp_unit *buckets[MP_UNIT_BUCKETS];
  struct mp_aranges *aranges;   /* each module's, as first looked up */
  size_t n_aranges, cap_aranges;
};

/* What mp_module_frames reads: the module's DWARF (else the symbol
   table alone names the function, one frame per address), and with it
   the line tables, for each frame's file and line (else FILE is NULL
   and LINE 0).  The frames and their names are the same either way.  */
enum { MP_FRAMES_DWARF = 1, MP_FRAMES_LINES = 2 };

/* Where a function is defined: the file, its DWARF's DW_AT_decl_file
   or else the module's, and the line (DW_AT_decl_line; 0 if unknown).
   C++'s overloads that have no linkage name (GCC gives none to a
   function with internal linkage) are told apart by their lines.  */
struct mp_defined
{
  const char *file;
  int line;
};

/* Up to MAX frames at address PC of module M into OUT, innermost first,
   the last one not inlined, reading what WHAT says; at least one if MAX
   is not 0 (named `??' when nothing is known).  Return how many.  A
   frame's function is named by its DWARF linkage name (C++'s mangled
   name), else its name, else the symbol table's name; DEFINED_IN[i]
   gets where the function of OUT[i] is defined (with MP_FRAMES_DWARF,
   this reads the line table's file names of the unit that defines it,
   even without MP_FRAMES_LINES).  */
size_t mp_module_frames (struct mp_units *units, Dwfl_Module *m,
                         Dwarf_Addr pc, unsigned what, struct mp_frame *out,
                         struct mp_defined *defined_in, size_t max);
void mp_units_free (struct mp_units *units);

/* Whether M's DWARF is compressed, in the module's file or in the
   separate debug file the standard search finds for it: reading any of
   it would inflate all of it (libdw does at dwarf_begin).  Reads no
   DWARF.  */
int mp_module_dwarf_compressed (Dwfl_Module *m);

#endif
