/* cxx.c -- C++'s operator new and delete, in all twenty replaceable
   forms: the calls the plugin rewrote (__mp__Znwm and its kin, a site
   each), and, defined in front of libstdc++'s, the calls it did not (a
   library's built without the plugin, libstdc++'s own), at foreign
   sites like interpose.c's.

   Which operator a call would have reached decides how it is served,
   form by form, once (mode_of):

   - DIRECT: the runtime's own definition is the one in effect, with
     libstdc++'s behind it.  libstdc++'s new is malloc (aligned_alloc for
     the aligned forms), retried through the new_handler until it works,
     std::bad_alloc when there is no handler (NULL for the nothrow
     forms); its delete is free.  The runtime does the same on the system
     allocator, the block tagged and counted as libc.c does a rewritten
     malloc's; only a nothrow new with a handler set calls libstdc++'s
     operator (found with dlsym's RTLD_NEXT), which can turn the
     handler's exception into NULL.  A delete is libc.c's free.

   - THROUGH: the operator in effect is libstdc++'s or ASan's (ahead of
     libmemprof.so in the search order, or under ASan, where the runtime
     defines none of these).  It is called for N + MP_TRAILER bytes, its
     block then tagged and counted; a delete is counted, then passed on
     with the size its new was given.

   - REPLACED: the program defines the operator itself.  Its new runs as
     a user allocator does (boehm.c's __mp_user_begin): the first
     allocation inside it (its malloc, which the runtime counts) is
     charged to the call's site; if there was none (an arena), the call
     is counted with its size but without the bytes in use, which are
     not known.  Its delete is called as is; the free inside, if any, is
     what counts.

   In THROUGH mode, and for that nothrow new, the C++ library's
   operator runs while the thread is quiet, so that its malloc is not
   counted a second time: a new_handler that runs then allocates
   uncounted.

   std::bad_alloc or a handler's exception goes through these C frames:
   this file is built with -fexceptions, so that the cleanups that count
   a failed new run as the exception passes.  */

#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>
#include "internal.h"
#include "entry.h"
#include "foreign.h"
#include "interpose.h"
#include "libc.h"

/* A form of the operators: what its arguments are.  */
enum
{
  F_ARRAY = 1,                  /* new[] or delete[] */
  F_NOTHROW = 2,                /* takes a const std::nothrow_t & */
  F_ALIGNED = 4,                /* takes a std::align_val_t */
  F_SIZED = 8,                  /* a delete that takes the size */
  F_DELETE = 16
};

#define FORMS(X)                                                          \
  X (NEW, _Znwm, 0, void *)                                               \
  X (NEW_ARRAY, _Znam, F_ARRAY, void *)                                   \
  X (NEW_NOTHROW, _ZnwmRKSt9nothrow_t, F_NOTHROW, void *)                 \
  X (NEW_ARRAY_NOTHROW, _ZnamRKSt9nothrow_t, F_ARRAY | F_NOTHROW, void *) \
  X (NEW_ALIGNED, _ZnwmSt11align_val_t, F_ALIGNED, void *)                \
  X (NEW_ARRAY_ALIGNED, _ZnamSt11align_val_t, F_ARRAY | F_ALIGNED, void *) \
  X (NEW_ALIGNED_NOTHROW, _ZnwmSt11align_val_tRKSt9nothrow_t,             \
     F_ALIGNED | F_NOTHROW, void *)                                       \
  X (NEW_ARRAY_ALIGNED_NOTHROW, _ZnamSt11align_val_tRKSt9nothrow_t,       \
     F_ARRAY | F_ALIGNED | F_NOTHROW, void *)                              \
  X (DELETE, _ZdlPv, F_DELETE, void)                                      \
  X (DELETE_ARRAY, _ZdaPv, F_DELETE | F_ARRAY, void)                      \
  X (DELETE_SIZED, _ZdlPvm, F_DELETE | F_SIZED, void)                     \
  X (DELETE_ARRAY_SIZED, _ZdaPvm, F_DELETE | F_ARRAY | F_SIZED, void)     \
  X (DELETE_ALIGNED, _ZdlPvSt11align_val_t, F_DELETE | F_ALIGNED, void)   \
  X (DELETE_ARRAY_ALIGNED, _ZdaPvSt11align_val_t,                         \
     F_DELETE | F_ARRAY | F_ALIGNED, void)                                \
  X (DELETE_SIZED_ALIGNED, _ZdlPvmSt11align_val_t,                        \
     F_DELETE | F_SIZED | F_ALIGNED, void)                                \
  X (DELETE_ARRAY_SIZED_ALIGNED, _ZdaPvmSt11align_val_t,                  \
     F_DELETE | F_ARRAY | F_SIZED | F_ALIGNED, void)                      \
  X (DELETE_NOTHROW, _ZdlPvRKSt9nothrow_t, F_DELETE | F_NOTHROW, void)    \
  X (DELETE_ARRAY_NOTHROW, _ZdaPvRKSt9nothrow_t,                          \
     F_DELETE | F_ARRAY | F_NOTHROW, void)                                \
  X (DELETE_ALIGNED_NOTHROW, _ZdlPvSt11align_val_tRKSt9nothrow_t,         \
     F_DELETE | F_ALIGNED | F_NOTHROW, void)                              \
  X (DELETE_ARRAY_ALIGNED_NOTHROW, _ZdaPvSt11align_val_tRKSt9nothrow_t,   \
     F_DELETE | F_ARRAY | F_ALIGNED | F_NOTHROW, void)

/* Each form's parameters, as the C++ library declares them: a
   const std::nothrow_t & is a pointer, a std::align_val_t a size_t.  */
#define T const void *nt
#define PARAMS_NEW (size_t n)
#define PARAMS_NEW_ARRAY (size_t n)
#define PARAMS_NEW_NOTHROW (size_t n, T)
#define PARAMS_NEW_ARRAY_NOTHROW (size_t n, T)
#define PARAMS_NEW_ALIGNED (size_t n, size_t a)
#define PARAMS_NEW_ARRAY_ALIGNED (size_t n, size_t a)
#define PARAMS_NEW_ALIGNED_NOTHROW (size_t n, size_t a, T)
#define PARAMS_NEW_ARRAY_ALIGNED_NOTHROW (size_t n, size_t a, T)
#define PARAMS_DELETE (void *p)
#define PARAMS_DELETE_ARRAY (void *p)
#define PARAMS_DELETE_SIZED (void *p, size_t n)
#define PARAMS_DELETE_ARRAY_SIZED (void *p, size_t n)
#define PARAMS_DELETE_ALIGNED (void *p, size_t a)
#define PARAMS_DELETE_ARRAY_ALIGNED (void *p, size_t a)
#define PARAMS_DELETE_SIZED_ALIGNED (void *p, size_t n, size_t a)
#define PARAMS_DELETE_ARRAY_SIZED_ALIGNED (void *p, size_t n, size_t a)
#define PARAMS_DELETE_NOTHROW (void *p, T)
#define PARAMS_DELETE_ARRAY_NOTHROW (void *p, T)
#define PARAMS_DELETE_ALIGNED_NOTHROW (void *p, size_t a, T)
#define PARAMS_DELETE_ARRAY_ALIGNED_NOTHROW (void *p, size_t a, T)

#define ENUM(op, name, flags, ret) op,
enum form { FORMS (ENUM) N_FORMS };

/* Every form, weak: under ASan the runtime defines none, and a C
   program has no C++ library.  */
#define DECLARE(op, name, flags, ret) \
  extern ret name PARAMS_##op __attribute__ ((weak));
FORMS (DECLARE)

typedef void (*any_fn) (void);
#ifndef MP_ASAN
/* Each form's name, for the library's operator behind the runtime's.  */
# define NAME(op, name, flags, ret) #name,
static const char *const form_name[N_FORMS] = { FORMS (NAME) };
#endif
#define FLAGS(op, name, flags, ret) flags,
static const unsigned char form_flags[N_FORMS] = { FORMS (FLAGS) };
/* Where each form's name resolves in the process.  */
#define EFFECTIVE(op, name, flags, ret) (any_fn) name,
static any_fn const effective[N_FORMS] = { FORMS (EFFECTIVE) };

#ifndef MP_ASAN
/* The runtime's own definitions (at the end), whoever wins the name.  */
static any_fn const mine[N_FORMS];
#endif

enum mode { UNKNOWN, DIRECT, THROUGH, REPLACED };

/* Each form's mode, and the operator a call of it reaches (libstdc++'s
   behind the runtime's in DIRECT mode).  Written by mode_of, on any
   thread: every writer writes the same values, the operator first.  */
static _Atomic unsigned char modes[N_FORMS];
static any_fn _Atomic reals[N_FORMS];

/* Whether F lives in one of the libraries whose operators are the
   system allocator's blocks: libstdc++ and ASan's runtime.  */
static int
system_operator (any_fn f)
{
  Dl_info info;
  if (f == NULL || dladdr ((void *) f, &info) == 0 || info.dli_fname == NULL)
    return 0;
  return strstr (info.dli_fname, "libstdc++") != NULL
         || strstr (info.dli_fname, "libasan") != NULL;
}

/* NAME in the C++ library behind the runtime: the next definition in
   the global scope, else libstdc++'s where a library that dlopen loaded
   brought it in its own scope (a C program linked with libmemprof.so,
   whose operators are the program's then, loading a C++ library); NULL
   if there is none.  What the dynamic loader allocates meanwhile (a
   failed dlsym's message) is the runtime's, not the program's.  */
static void *
cxx_library_symbol (const char *name)
{
  mp_quiet_begin ();
  void *f = dlsym (RTLD_NEXT, name);
  if (f == NULL)
    {
      void *lib = dlopen ("libstdc++.so.6", RTLD_LAZY | RTLD_NOLOAD);
      if (lib != NULL)
        {
          f = dlsym (lib, name);
          dlclose (lib);
        }
    }
  mp_quiet_end ();
  return f;
}

static enum mode
resolve (enum form op)
{
  any_fn real = effective[op];
  enum mode m = system_operator (real) ? THROUGH : REPLACED;
#ifndef MP_ASAN
  if (real == mine[op])
    {
      real = (any_fn) cxx_library_symbol (form_name[op]);
      m = DIRECT;
    }
#endif
  /* REAL is NULL where the runtime's operators are the only ones (a
     static executable: libstdc++.a's stay out of the link) or where no
     C++ library is loaded: DIRECT mode does without (library_new).  */
  atomic_store_explicit (&reals[op], real, memory_order_relaxed);
  atomic_store_explicit (&modes[op], m, memory_order_release);
  return m;
}

static inline enum mode
mode_of (enum form op)
{
  enum mode m = atomic_load_explicit (&modes[op], memory_order_acquire);
  return MP_LIKELY (m != UNKNOWN) ? m : resolve (op);
}

/* Call form OP's operator F as a new of SIZE bytes.  */
static void *
call_new (enum form op, any_fn f, size_t size, size_t align, const void *nt)
{
  switch (form_flags[op] & (F_ALIGNED | F_NOTHROW))
    {
    case 0:
      return ((void *(*) (size_t)) f) (size);
    case F_NOTHROW:
      return ((void *(*) (size_t, const void *)) f) (size, nt);
    case F_ALIGNED:
      return ((void *(*) (size_t, size_t)) f) (size, align);
    default:
      return ((void *(*) (size_t, size_t, const void *)) f) (size, align, nt);
    }
}

static void
call_delete (enum form op, any_fn f, void *p, size_t size, size_t align,
             const void *nt)
{
  switch (form_flags[op] & (F_SIZED | F_ALIGNED | F_NOTHROW))
    {
    case 0:
      ((void (*) (void *)) f) (p);
      break;
    case F_SIZED:
    case F_ALIGNED:
      ((void (*) (void *, size_t)) f) (p, form_flags[op] & F_SIZED ? size
                                                                 : align);
      break;
    case F_SIZED | F_ALIGNED:
      ((void (*) (void *, size_t, size_t)) f) (p, size, align);
      break;
    case F_NOTHROW:
      ((void (*) (void *, const void *)) f) (p, nt);
      break;
    default:
      ((void (*) (void *, size_t, const void *)) f) (p, align, nt);
      break;
    }
}

static inline any_fn
real_of (enum form op)
{
  return atomic_load_explicit (&reals[op], memory_order_relaxed);
}

/* A new under way, for the cleanup that counts it as failed if an
   exception ends it.  */
struct pending
{
  const struct mp_site *site;
  size_t n;
  const void *ra;
  int active;                   /* an exception now ends the new */
};

/* An alignment libstdc++'s aligned_alloc takes: 0 (none) or a power of
   2.  */
static inline int
power_of_2 (size_t align)
{
  return (align & (align - 1)) == 0;
}

static void
unwound (struct pending *w)
{
  if (w->active)
    {
      mp_quiet_end ();
      mp_count_block (w->site, NULL, w->n, w->ra);
    }
}

/* A new of N bytes by the operator a call of OP reaches, asked for N +
   MP_TRAILER bytes, while quiet; its block tagged and counted.  Not
   padded where blocks are not tagged (a malloc of the program's own,
   ASan's among them): its delete, which cannot tell it ours, passes the
   size as the program gives it, which a sized delete checks.  */
static void *
through_new (enum form op, size_t n, size_t align, const void *nt,
             const struct mp_site *site, const void *ra)
{
  size_t pad = mp_libc_program_malloc () ? 0 : MP_TRAILER;
  size_t size = n > SIZE_MAX - pad ? SIZE_MAX : n + pad;
  struct pending w __attribute__ ((cleanup (unwound))) = { site, n, ra, 1 };
  mp_quiet_begin ();
  void *p = call_new (op, real_of (op), size, align, nt);
  mp_quiet_end ();
  w.active = 0;
  return mp_count_block (site, p, n, ra);
}

/* A call of the program's own operator new under way.  */
struct bracket
{
  struct mp_thread *t;
  const struct mp_site *site;   /* set while nothing inside was charged */
  size_t n;
};

/* Count the call if nothing inside it was charged to its site: P, or a
   failure (an exception ends it with P NULL).  */
static void
bracket_end (struct bracket *b, void *p)
{
  if (b->site != NULL && b->t->user_site == b->site)
    {
      mp_set_user_site (b->t, NULL);
      mp_count_malloc_note (b->t, b->site, p, b->n);
    }
  b->site = NULL;
}

static void
unbracket (struct bracket *b)
{
  bracket_end (b, NULL);
}

static void *
replaced_new (enum form op, size_t n, size_t align, const void *nt,
              const struct mp_site *site)
{
  struct mp_thread *t = mp_self ();
  struct bracket b __attribute__ ((cleanup (unbracket))) = { t, NULL, n };
  if (t->user_site == NULL)
    mp_set_user_site (t, b.site = site);
  void *p = call_new (op, real_of (op), n, align, nt);
  bracket_end (&b, p);
  return p;
}

/* libstdc++'s own functions, for DIRECT mode: weak, as a C program has
   no C++ library at its start; looked for again (cxx_library_symbol)
   when that is still so at the first new that fails, as the library may
   have come with dlopen since.  */
typedef void (*new_handler) (void);
typedef new_handler (*handler_getter) (void);
typedef void (*thrower) (void) __attribute__ ((noreturn));
extern new_handler _ZSt15get_new_handlerv (void) __attribute__ ((weak));
extern void _ZSt17__throw_bad_allocv (void)
  __attribute__ ((weak, noreturn));

/* std::get_new_handler and std::__throw_bad_alloc, or NULL: written by
   any thread that fails a new, each writer with the same values.  Like
   `reals', valid for good once found: libstdc++ is never unloaded
   (NODELETE, for its STB_GNU_UNIQUE symbols).  */
static _Atomic handler_getter get_new_handler;
static _Atomic thrower throw_bad_alloc;

/* Both, found if they were not yet.  */
struct handler_functions
{
  handler_getter get;
  thrower throw_it;
};

static struct handler_functions
handler_functions (void)
{
  thrower t = atomic_load_explicit (&throw_bad_alloc, memory_order_acquire);
  if (t == NULL)
    {
      handler_getter g = _ZSt15get_new_handlerv;
      t = _ZSt17__throw_bad_allocv;
      if (g == NULL)
        g = (handler_getter) cxx_library_symbol ("_ZSt15get_new_handlerv");
      if (t == NULL)
        t = (thrower) cxx_library_symbol ("_ZSt17__throw_bad_allocv");
      atomic_store_explicit (&get_new_handler, g, memory_order_relaxed);
      atomic_store_explicit (&throw_bad_alloc, t, memory_order_release);
    }
  return (struct handler_functions) {
    atomic_load_explicit (&get_new_handler, memory_order_relaxed), t
  };
}

/* The failure of a new of form OP with no new_handler: NULL for a
   nothrow form (or without a C++ library to throw), else
   std::bad_alloc.  */
static void *
new_failed (enum form op, struct handler_functions f)
{
  if ((form_flags[op] & F_NOTHROW) || f.throw_it == NULL)
    return NULL;
  f.throw_it ();
}

/* A cleanup that counts a new as failed if an exception ends it.  */
static void
handler_threw (struct pending *w)
{
  if (w->active)
    mp_count_block (w->site, NULL, w->n, w->ra);
}

/* DIRECT mode: what libstdc++'s operator does, on the system
   allocator, with the block tagged: malloc, or aligned_alloc, until it
   works; while it does not, the new_handler, else std::bad_alloc.  A
   nothrow form returns NULL instead, and turns the handler's exception
   into NULL too, which C cannot: with a handler set, it calls
   libstdc++'s operator, which can.  Where there is none (a static
   executable), the handler's exception goes through a nothrow new.  */
static void *
direct_new (enum form op, size_t n, size_t align, const void *nt,
            const struct mp_site *site, const void *ra)
{
  struct pending w __attribute__ ((cleanup (handler_threw))) = { site, n, ra,
                                                                 1 };
  struct handler_functions f = handler_functions ();
  for (;;)
    {
      new_handler h = f.get ? f.get () : NULL;
      if (h != NULL && (form_flags[op] & F_NOTHROW) && real_of (op) != NULL)
        {
          w.active = 0;
          return through_new (op, n, align, nt, site, ra);
        }
      if (h == NULL)
        {
          w.active = 0;
          mp_count_block (site, NULL, n, ra);
          return new_failed (op, f);
        }
      h ();
      void *p = power_of_2 (align) ? mp_try_alloc_at (n, align, site, ra)
                                   : NULL;
      if (p != NULL)
        {
          w.active = 0;
          return p;
        }
    }
}

/* A new of form OP, of N bytes aligned to ALIGN (0 for the unaligned
   forms), at SITE, called from RA.  */
static void *
cxx_new (enum form op, size_t n, size_t align, const void *nt,
         const struct mp_site *site, const void *ra)
{
  enum mode m = mode_of (op);
  if (MP_LIKELY (m == DIRECT))
    {
      void *p = power_of_2 (align) ? mp_try_alloc_at (n, align, site, ra)
                                   : NULL;
      if (MP_LIKELY (p != NULL))
        return p;
      return direct_new (op, n, align, nt, site, ra);
    }
  if (m == REPLACED)
    return replaced_new (op, n, align, nt, site);
  return through_new (op, n, align, nt, site, ra);
}

static void
cxx_delete (enum form op, void *p, size_t size, size_t align, const void *nt,
            const struct mp_site *site)
{
  enum mode m = mode_of (op);
  if (MP_LIKELY (m == DIRECT))
    mp_free_at (p, site);
  else if (m == REPLACED)
    call_delete (op, real_of (op), p, size, align, nt);
  else
    {
      size_t n;
      if (mp_uncount_block (p, site, &n))
        size = n + MP_TRAILER;
      mp_quiet_begin ();
      call_delete (op, real_of (op), p, size, align, nt);
      mp_quiet_end ();
    }
}

/* ---- the entries: rewritten calls, and, but under ASan, the operators
   themselves in front of libstdc++'s ------------------------------------

   Each shape of arguments makes an entry __mp_NAME, which takes the
   call's site last (entry.h), and NAME, whose site is its caller's.  */

#ifdef MP_ASAN
# define INTERPOSED(...)
#else
# define INTERPOSED(...) __VA_ARGS__
#endif

/* The foreign site of form OP's call returning to RA.  */
static inline const struct mp_site *
foreign (enum form op, const void *ra)
{
  static const unsigned char calls[4] = {
    MP_FOREIGN_NEW, MP_FOREIGN_NEW_ARRAY, MP_FOREIGN_DELETE,
    MP_FOREIGN_DELETE_ARRAY
  };
  unsigned f = form_flags[op];
  return mp_foreign_site (ra, calls[(f & F_ARRAY) + (f & F_DELETE ? 2 : 0)]);
}

#ifndef MP_ASAN
/* What libstdc++'s operator new of form OP does, uncounted, where no C++
   library defines it: as direct_new, without the tag and the counts.  */
static void *
library_new (enum form op, size_t n, size_t align)
{
  struct handler_functions f = handler_functions ();
  for (;;)
    {
      void *p = !power_of_2 (align) ? NULL
                : align ? memalign (align, n ? n : 1) : malloc (n ? n : 1);
      if (p != NULL)
        return p;
      new_handler handler = f.get ? f.get () : NULL;
      if (handler == NULL)
        return new_failed (op, f);
      handler ();
    }
}

/* An uncounted call, from the runtime's quiet work or with interpose=0:
   libstdc++'s operator, and for a delete, libc.c's free of a block of
   the program's.  Only the interposed operators, which ASan's build
   leaves out, make one.  */
static void *
quiet_new (enum form op, size_t n, size_t align, const void *nt)
{
  mode_of (op);
  any_fn real = real_of (op);
  return real != NULL ? call_new (op, real, n, align, nt)
                      : library_new (op, n, align);
}
#endif

#define RA __builtin_return_address (0)
#define MP_INTERPOSE __attribute__ ((visibility ("default"), weak))

/* A new: its entry, and its interposed definition.  */
#define DEFINE_NEW(op, name, params, align, nt)                                 \
  MP_API void *__mp_##name params                                        \
  {                                                                      \
    return cxx_new (op, n, align, nt, site, RA);                         \
  }                                                                      \
  INTERPOSED (MP_INTERPOSE void *name PARAMS_##op                        \
  {                                                                      \
    if (MP_UNLIKELY (!mp_interpose_counting ()))                         \
      return quiet_new (op, n, align, nt);                               \
    return cxx_new (op, n, align, nt, foreign (op, RA), RA);             \
  })

#define DEFINE_DELETE(op, name, params, size, align, nt)                        \
  MP_API void __mp_##name params                                         \
  {                                                                      \
    cxx_delete (op, p, size, align, nt, site);                           \
  }                                                                      \
  INTERPOSED (MP_INTERPOSE void name PARAMS_##op                         \
  {                                                                      \
    (void) (size), (void) (align), (void) (nt);                          \
    if (MP_UNLIKELY (!mp_interpose_counting ()))                         \
      mp_free_quiet (p);                                                 \
    else                                                                 \
      mp_free_at (p, foreign (op, RA));                                  \
  })

#define S const struct mp_site *site

DEFINE_NEW (NEW, _Znwm, (size_t n, S), 0, NULL)
DEFINE_NEW (NEW_ARRAY, _Znam, (size_t n, S), 0, NULL)
DEFINE_NEW (NEW_NOTHROW, _ZnwmRKSt9nothrow_t, (size_t n, T, S), 0, nt)
DEFINE_NEW (NEW_ARRAY_NOTHROW, _ZnamRKSt9nothrow_t, (size_t n, T, S), 0, nt)
DEFINE_NEW (NEW_ALIGNED, _ZnwmSt11align_val_t, (size_t n, size_t a, S), a, NULL)
DEFINE_NEW (NEW_ARRAY_ALIGNED, _ZnamSt11align_val_t, (size_t n, size_t a, S), a,
     NULL)
DEFINE_NEW (NEW_ALIGNED_NOTHROW, _ZnwmSt11align_val_tRKSt9nothrow_t,
     (size_t n, size_t a, T, S), a, nt)
DEFINE_NEW (NEW_ARRAY_ALIGNED_NOTHROW, _ZnamSt11align_val_tRKSt9nothrow_t,
     (size_t n, size_t a, T, S), a, nt)

DEFINE_DELETE (DELETE, _ZdlPv, (void *p, S), 0, 0, NULL)
DEFINE_DELETE (DELETE_ARRAY, _ZdaPv, (void *p, S), 0, 0, NULL)
DEFINE_DELETE (DELETE_SIZED, _ZdlPvm, (void *p, size_t n, S), n, 0, NULL)
DEFINE_DELETE (DELETE_ARRAY_SIZED, _ZdaPvm, (void *p, size_t n, S), n, 0, NULL)
DEFINE_DELETE (DELETE_ALIGNED, _ZdlPvSt11align_val_t, (void *p, size_t a, S), 0, a,
        NULL)
DEFINE_DELETE (DELETE_ARRAY_ALIGNED, _ZdaPvSt11align_val_t, (void *p, size_t a, S),
        0, a, NULL)
DEFINE_DELETE (DELETE_SIZED_ALIGNED, _ZdlPvmSt11align_val_t,
        (void *p, size_t n, size_t a, S), n, a, NULL)
DEFINE_DELETE (DELETE_ARRAY_SIZED_ALIGNED, _ZdaPvmSt11align_val_t,
        (void *p, size_t n, size_t a, S), n, a, NULL)
DEFINE_DELETE (DELETE_NOTHROW, _ZdlPvRKSt9nothrow_t, (void *p, T, S), 0, 0, nt)
DEFINE_DELETE (DELETE_ARRAY_NOTHROW, _ZdaPvRKSt9nothrow_t, (void *p, T, S), 0, 0,
        nt)
DEFINE_DELETE (DELETE_ALIGNED_NOTHROW, _ZdlPvSt11align_val_tRKSt9nothrow_t,
        (void *p, size_t a, T, S), 0, a, nt)
DEFINE_DELETE (DELETE_ARRAY_ALIGNED_NOTHROW, _ZdaPvSt11align_val_tRKSt9nothrow_t,
        (void *p, size_t a, T, S), 0, a, nt)

#ifndef MP_ASAN
# define MINE(op, name, flags, ret) \
  extern ret mp_cxx_##op PARAMS_##op \
    __attribute__ ((alias (#name), visibility ("hidden")));
FORMS (MINE)
# undef MINE
# define MINE(op, name, flags, ret) (any_fn) mp_cxx_##op,
static any_fn const mine[N_FORMS] = { FORMS (MINE) };
#endif
