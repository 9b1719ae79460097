/* linked.c -- the libraries of dynlibs.h linked in, for a -static link
   (libmemprof-static.a, which the wrappers add to one): a static
   executable cannot dlopen them, so it carries them, and dynlibs.c
   takes these tables instead of loading anything.  Not part of
   libmemprof.a: its mere presence would link libdw into every program.
   The same for the unwinder's functions that cxx.c's cleanups call
   (unwinder.c), which a dynamic program finds in libgcc_s, and for
   libgc's that the runtime calls, which it references weakly
   (gcweak.h): a weak reference takes no member out of libgc.a.  */

#include <unwind.h>
#include "dynlibs.h"
#define MP_GC_STRONG
#include "gcweak.h"

#define MP_LINKED(name) .name = name,

const struct mp_dw mp_dw_linked = { MP_DW_FUNCTIONS (MP_LINKED) };
const struct mp_z mp_z_linked = { MP_Z_FUNCTIONS (MP_LINKED) };

_Unwind_Reason_Code __gcc_personality_v0 (int, _Unwind_Action,
                                          _Unwind_Exception_Class,
                                          struct _Unwind_Exception *,
                                          struct _Unwind_Context *);
/* Referred to, so that libgcc_eh's definitions come in, for unwinder.c's
   weak references to take.  */
const void *const mp_unwinder_linked[] = {
  (const void *) __gcc_personality_v0, (const void *) _Unwind_Resume
};

#define MP_GC_REF(name) (const void *) &name,
const void *const mp_gc_linked_in[] = { MP_GC_SYMBOLS (MP_GC_REF) };
