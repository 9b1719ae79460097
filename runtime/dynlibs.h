/* dynlibs.h -- the libraries only the report needs, opened with dlopen
   when it first needs them (dynlibs.c): elfutils' libdw and libelf, to
   name the frames of call stacks, and zlib, to gzip the pprof profile.

   Linked, they would be mapped and relocated at the start of every
   process, a third of a millisecond for libdw and what it needs, which
   a short process that writes no call stack pays for nothing.  Their
   functions are called through the tables below, filled once by the
   loaders: mp_dw.dwfl_begin (...), mp_z.deflate (...).  */

#ifndef MEMPROF_DYNLIBS_H
#define MEMPROF_DYNLIBS_H

#include <elfutils/libdwfl.h>
#include <elfutils/libdwelf.h>
#include <gelf.h>
#include <zlib.h>

/* The functions of libdw and libelf the symboliser calls.  */
#define MP_DW_FUNCTIONS(F)                                              \
  F (dwarf_attr) F (dwarf_attr_integrate) F (dwarf_child)               \
  F (dwarf_cu_die) F (dwarf_cu_getdwarf)                                \
  F (dwarf_formstring) F (dwarf_formudata)                              \
  F (dwarf_getelf) F (dwarf_getscopes_die) F (dwarf_haspc)              \
  F (dwarf_next_unit) F (dwarf_offdie) F (dwfl_module_getdwarf)         \
  F (dwarf_ranges) F (dwarf_siblingof) F (dwarf_tag)                    \
  F (dwelf_elf_gnu_debuglink)                                           \
  F (dwfl_addrmodule) F (dwfl_begin) F (dwfl_linux_proc_find_elf)       \
  F (dwfl_report_module) F (dwfl_module_addrdie)                    \
  F (dwfl_module_addrname) F (dwfl_module_getelf) F (dwfl_module_info)  \
  F (dwfl_module_getsymtab) F (dwfl_module_getsymtab_first_global)     \
  F (dwfl_module_getsym_info)                                           \
  F (dwfl_report_begin_add) F (dwfl_report_end) F (dwfl_getmodules)    \
  F (dwfl_standard_find_debuginfo)                                      \
  F (elf_begin) F (elf_end) F (elf_getdata) F (elf_getident)            \
  F (elf_getshdrstrndx) F (elf_nextscn) F (elf_strptr) F (gelf_getshdr)

#define MP_Z_FUNCTIONS(F) F (deflateInit2_) F (deflate) F (deflateEnd)

#define MP_DYNLIBS_POINTER(name) __typeof__ (name) *name;

/* Filled once by mp_dw_load and mp_z_load, read-only after.  */
extern struct mp_dw
{
  MP_DW_FUNCTIONS (MP_DYNLIBS_POINTER)
} mp_dw;

extern struct mp_z
{
  MP_Z_FUNCTIONS (MP_DYNLIBS_POINTER)
} mp_z;

/* Load libdw (and with it libelf) into mp_dw, or zlib into mp_z, the
   first time; any thread may call them, any number of times.  Return 0,
   or -1 with *WHY saying why the library cannot be used (its text lives
   as long as the process).  */
int mp_dw_load (const char **why);
int mp_z_load (const char **why);

/* The shared libc's handle, kept for the process's life (libc stays,
   and no caller, a capture among them, need run dlclose), or NULL in a
   static executable, which has no dynamic loader that can open
   libraries: a shared library opened there brings a second, shared
   libc, which crashes at its first call.  */
void *mp_libc_handle (void);

#endif
