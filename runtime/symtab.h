/* symtab.h -- the name a module's symbol table gives an address
   (symtab.c).  */

#ifndef MEMPROF_SYMTAB_H
#define MEMPROF_SYMTAB_H

#include "dynlibs.h"

/* The name of the symbol of module M's symbol table that holds ADDR, as
   mp_dw.dwfl_module_addrname (M, ADDR) gives it, or NULL if there is
   none; the string is libdw's and lives as long as M.  */
const char *mp_symtab_name (Dwfl_Module *m, Dwarf_Addr addr);

#endif
