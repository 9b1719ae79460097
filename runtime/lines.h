/* lines.h -- the line table of a compilation unit, read from its
   DWARF line program (lines.c).  */

#ifndef MEMPROF_LINES_H
#define MEMPROF_LINES_H

#include "dynlibs.h"

struct mp_lines;

/* The line table of unit CU, from the line program its DW_AT_stmt_list
   gives; NULL if it has none, or if the program cannot be read (the
   section is short, or a form unknown).  Without ROWS, only the file
   table of the program's header is read (the files DW_AT_decl_file
   refers to), a table with no rows, at a small part of the cost.  The
   libdw functions are mp_dw's.  Free it with mp_lines_free.  */
struct mp_lines *mp_lines_read (Dwarf_Die *cu, int rows);

/* The file and line of address ADDR (as in the DWARF, without the
   module's bias), as dwfl_module_getsrc and dwfl_lineinfo give them: 0,
   or -1 if no row holds ADDR.  *FILE lives as long as T.  */
int mp_lines_at (const struct mp_lines *t, Dwarf_Addr addr,
                 const char **file, int *line);

/* File number I of T's file table, as dwarf_filesrc names it (what
   DW_AT_call_file refers to), or NULL.  */
const char *mp_lines_file (const struct mp_lines *t, Dwarf_Word i);

void mp_lines_free (struct mp_lines *t);

#endif
