/* linked.c -- the libraries of dynlibs.h linked in, for a -static link
   (libmemprof-static.a, which the wrappers add to one): a static
   executable cannot dlopen them, so it carries them, and dynlibs.c
   takes these tables instead of loading anything.  Not part of
   libmemprof.a: its mere presence would link libdw into every program.  */

#include "dynlibs.h"

#define MP_LINKED(name) .name = name,

const struct mp_dw mp_dw_linked = { MP_DW_FUNCTIONS (MP_LINKED) };
const struct mp_z mp_z_linked = { MP_Z_FUNCTIONS (MP_LINKED) };
