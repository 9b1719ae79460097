/* unwinder.c -- the two functions of GCC's unwinder that cxx.c's
   cleanups need, found only when an exception goes through them.

   cxx.c is built with -fexceptions, so that its cleanups count a new
   that an exception ends (std::bad_alloc, a new_handler's own).  Its
   object then refers to _Unwind_Resume, which a landing pad calls once
   its cleanup has run, and to __gcc_personality_v0, which the unwinder
   asks which frames have one.  Both live in libgcc_s, and those two
   references alone would make every program linked with the runtime
   load it at start (ld's --as-needed keeps a library that satisfies a
   reference), C programs too, which never throw: about 0.16 ms per
   process on this machine, a tenth of what a short-lived process pays
   for the runtime.

   So the Makefile renames the two references of cxx.o (objcopy
   --redefine-sym) to the functions below, which find the real ones
   then.  An exception in flight means a C++ runtime is loaded, and the
   unwinder with it: linked in (a static link, libgcc_eh, whose
   definitions the weak references below take; runtime/static/linked.c
   keeps them in), or libgcc_s, which dlopen finds even where it came
   in a library's own scope (a C program that dlopened a C++ library,
   RTLD_LOCAL).  Not finding them cannot happen then; the personality
   says so once, and lets the exception go on without the cleanups, as
   a frame without them would.  */

#include <dlfcn.h>
#include <unwind.h>
#include <stdlib.h>
#include "internal.h"

typedef _Unwind_Reason_Code (*personality_fn) (int, _Unwind_Action,
                                               _Unwind_Exception_Class,
                                               struct _Unwind_Exception *,
                                               struct _Unwind_Context *);
typedef void (*resume_fn) (struct _Unwind_Exception *)
  __attribute__ ((noreturn));

extern _Unwind_Reason_Code
__gcc_personality_v0 (int, _Unwind_Action, _Unwind_Exception_Class,
                      struct _Unwind_Exception *, struct _Unwind_Context *)
  __attribute__ ((weak));
#pragma weak _Unwind_Resume

/* The real functions, once found: written by any thread that unwinds,
   each writer with the same value.  They stay valid: libgcc_s is never
   unloaded once a C++ library brought it, as libstdc++ itself is not
   (its STB_GNU_UNIQUE symbols make it NODELETE).  */
static _Atomic personality_fn personality;
static _Atomic resume_fn resume;

/* NAME in the unwinder: LINKED (a weak reference's value), else
   libgcc_s's if it is loaded.  */
static void *
unwinder_symbol (const char *name, void *linked)
{
  if (linked != NULL)
    return linked;
  void *lib = dlopen ("libgcc_s.so.1", RTLD_LAZY | RTLD_NOLOAD);
  if (lib == NULL)
    return NULL;
  void *f = dlsym (lib, name);
  dlclose (lib);
  return f;
}

/* cxx.o's __gcc_personality_v0.  */
_Unwind_Reason_Code
mp_gcc_personality (int version, _Unwind_Action actions,
                    _Unwind_Exception_Class cls,
                    struct _Unwind_Exception *e, struct _Unwind_Context *c)
{
  personality_fn f = atomic_load_explicit (&personality,
                                           memory_order_relaxed);
  if (MP_UNLIKELY (f == NULL))
    {
      f = (personality_fn) unwinder_symbol ("__gcc_personality_v0",
                                            (void *) __gcc_personality_v0);
      if (f == NULL)
        {
          static atomic_flag said = ATOMIC_FLAG_INIT;
          if (!atomic_flag_test_and_set (&said))
            mp_warn_raw ("no unwinder to run the cleanups of a C++ new "
                         "that threw: its failure is not counted");
          return _URC_CONTINUE_UNWIND;
        }
      atomic_store_explicit (&personality, f, memory_order_relaxed);
    }
  return f (version, actions, cls, e, c);
}

/* cxx.o's _Unwind_Resume: only ever called once mp_gcc_personality
   found the unwinder, which has this too.  */
void __attribute__ ((noreturn))
mp_unwind_resume (struct _Unwind_Exception *e)
{
  resume_fn f = atomic_load_explicit (&resume, memory_order_relaxed);
  if (MP_UNLIKELY (f == NULL))
    {
      f = (resume_fn) unwinder_symbol ("_Unwind_Resume",
                                       (void *) _Unwind_Resume);
      if (f == NULL)
        abort ();
      atomic_store_explicit (&resume, f, memory_order_relaxed);
    }
  f (e);
}
