/* frames.h -- the frames at an address of a module, from its DWARF
   (frames.c).  */

#ifndef MEMPROF_FRAMES_H
#define MEMPROF_FRAMES_H

#include <stddef.h>
#include <elfutils/libdwfl.h>
#include "memprof.h"

/* The callbacks of a Dwfl of the process's modules: a module named by an
   absolute path is read from that file.  */
extern const Dwfl_Callbacks mp_module_callbacks;

#define MP_UNIT_BUCKETS 1024
struct mp_unit;

/* The compilation units whose functions have been listed (by address
   range, for the lookups), of the modules of one Dwfl: all zero when
   empty.  Its owner serialises the lookups, and frees it with
   mp_units_free before it ends the Dwfl, or never.  */
struct mp_units
{
  struct mp_unit *buckets[MP_UNIT_BUCKETS];
};

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
   the last one not inlined; at least one if MAX is not 0 (named `??'
   when nothing is known).  Return how many.  A frame's function is
   named by its DWARF linkage name (C++'s mangled name), else its name,
   else the symbol table's name; DEFINED_IN[i] gets where the function
   of OUT[i] is defined.  */
size_t mp_module_frames (struct mp_units *units, Dwfl_Module *m,
                         Dwarf_Addr pc, struct mp_frame *out,
                         struct mp_defined *defined_in, size_t max);
void mp_units_free (struct mp_units *units);

#endif
