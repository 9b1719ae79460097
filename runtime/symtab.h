/* symtab.h -- the name a module's symbol table gives an address
   (symtab.c).  */

#ifndef MEMPROF_SYMTAB_H
#define MEMPROF_SYMTAB_H

#include "dynlibs.h"

/* The name of the symbol of module M's symbol table that holds ADDR, as
   mp_dw.dwfl_module_addrname (M, ADDR) gives it, or NULL if there is
   none; the string is libdw's and lives as long as M.  */
const char *mp_symtab_name (Dwfl_Module *m, Dwarf_Addr addr);

/* The name of the exported function that holds ADDR in a library that
   keeps its DWARF apart, from the dynamic symbol table the loader
   mapped, without libdw, with the library's file, as /proc/self/maps
   names it, in *FILE; NULL if the address is not one of those, which
   libdwfl's search then names.  Callers hold symbols.c's lock; the
   strings live as long as the process.  */
const char *mp_symtab_loaded_name (uintptr_t addr, const char **file);

/* The file of the loaded object that holds ADDR, as the loader names it
   (its link map's l_name: "" for the executable, except under `ld.so
   PROGRAM'), or NULL if no object
   does; found without a look at the object's symbols.  Needs no lock;
   the string lives as long as the object.  */
const char *mp_symtab_object_file (uintptr_t addr);

#endif
