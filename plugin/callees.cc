/* callees.cc -- the allocation functions memprof knows, and their twins
   in the runtime (runtime/entry.h).

   A call is recognised in one of two ways.  GCC's own builtins (malloc,
   calloc, realloc, free, strdup, strndup, aligned_alloc, posix_memalign)
   are matched by DECL_FUNCTION_CODE: that covers every spelling the user
   can write (`malloc`, `__builtin_malloc`, `std::malloc`) and the calls
   GCC creates itself when folding, which have no spelling at all.  The
   rest, and the builtins under -fno-builtin, are matched by assembler
   name on a public declaration.  Either way the call's arguments must
   already have the types of the runtime's parameters: a declaration we
   do not recognise (an unprototyped call, Boehm's GC_ADD_CALLER variants
   with their extra argument, a static function of the same name) is left
   alone rather than converted.  */

#include "memprof.h"
#include "../runtime/stats-choice.h"
#include "stringpool.h"
#include "attribs.h"

/* The runtime prototypes, spelled with S = size_t, P = void *,
   C = const char *, I = int, U = unsigned int (an enum), Q = void **,
   X = char *, F = a pointer to a function of the type the original's
   declaration says (Boehm's callbacks), G = a pointer to such a pointer,
   R = any pointer or reference (C++'s const std::nothrow_t &); the first
   letter is the return type.  C++'s std::align_val_t is an enum of
   size_t's precision: S.  Every runtime function also takes the site
   pointer last, which is not spelled here.  */
enum mp_sig
{
  SIG_P_S, SIG_P_SS, SIG_P_PS, SIG_P_PSS, SIG_V_P, SIG_X_C, SIG_X_CS,
  SIG_I_QSS, SIG_P_SCI, SIG_P_PSCI, SIG_X_CCI, SIG_X_CSCI, SIG_S_P,
  SIG_P_SI, SIG_P_SSS, SIG_V_SIQ, SIG_V_PSU, SIG_V_F, SIG_F_,
  SIG_P_SR, SIG_P_SSR, SIG_V_PS, SIG_V_PSS, SIG_V_PR, SIG_V_PSR,
  SIG_V_PFPGQ, SIG_V_,
  SIG_COUNT
};

static const char *const mp_sig_spelling[SIG_COUNT] =
{
  "PS", "PSS", "PPS", "PPSS", "VP", "XC", "XCS",
  "IQSS", "PSCI", "PPSCI", "XCCI", "XCSCI", "SP",
  "PSI", "PSSS", "VSIQ", "VPSU", "VF", "F",
  "PSR", "PSSR", "VPS", "VPSS", "VPR", "VPSR",
  "VPFPGQ", "V"
};

/* glibc declares its functions nothrow (__THROW); gc.h does not, and
   rightly so: a C++ program's GC_oom_fn may throw out of GC_malloc.
   The runtime twins say the same, so that replacing a call never
   changes the EH edges of the CFG.  */
#define LIBC(NAME, CODE, SIG, KIND, FRESH) \
  { NAME, CODE, SIG, KIND, FRESH, true, true }
#define GC(NAME, SIG, KIND, FRESH) \
  { NAME, END_BUILTINS, SIG, KIND, FRESH, false, true }
#define CXX(NAME, SIG, KIND, FRESH, NOTHROW) \
  { NAME, END_BUILTINS, SIG, KIND, FRESH, NOTHROW, true }
#define HOOK(NAME, SIG) \
  { NAME, END_BUILTINS, SIG, MP_KIND_COUNT, false, false, false }

/* realloc-like and free-like functions do not get the malloc attribute:
   their result may be their argument, or they have none.  */
static const struct mp_callee mp_callees[] =
{
  LIBC ("malloc", BUILT_IN_MALLOC, SIG_P_S, MP_KIND_MALLOC, true),
  LIBC ("calloc", BUILT_IN_CALLOC, SIG_P_SS, MP_KIND_CALLOC, true),
  LIBC ("realloc", BUILT_IN_REALLOC, SIG_P_PS, MP_KIND_REALLOC, false),
  LIBC ("reallocarray", END_BUILTINS, SIG_P_PSS, MP_KIND_REALLOCARRAY, false),
  LIBC ("free", BUILT_IN_FREE, SIG_V_P, MP_KIND_FREE, false),
  LIBC ("strdup", BUILT_IN_STRDUP, SIG_X_C, MP_KIND_STRDUP, true),
  LIBC ("strndup", BUILT_IN_STRNDUP, SIG_X_CS, MP_KIND_STRNDUP, true),
  LIBC ("aligned_alloc", BUILT_IN_ALIGNED_ALLOC, SIG_P_SS,
        MP_KIND_ALIGNED_ALLOC, true),
  LIBC ("memalign", END_BUILTINS, SIG_P_SS, MP_KIND_MEMALIGN, true),
  LIBC ("posix_memalign", BUILT_IN_POSIX_MEMALIGN, SIG_I_QSS,
        MP_KIND_POSIX_MEMALIGN, false),
  LIBC ("valloc", END_BUILTINS, SIG_P_S, MP_KIND_VALLOC, true),
  /* Not an allocation, so no site; but the usable size glibc reports
     includes the runtime's tag, which a program that believes it (SQLite
     does) overwrites, turning its later free or realloc foreign.  */
  { "malloc_usable_size", END_BUILTINS, SIG_S_P, MP_KIND_COUNT, false, true,
    false },

  GC ("GC_malloc", SIG_P_S, MP_KIND_GC_MALLOC, true),
  GC ("GC_malloc_atomic", SIG_P_S, MP_KIND_GC_MALLOC_ATOMIC, true),
  GC ("GC_malloc_uncollectable", SIG_P_S,
      MP_KIND_GC_MALLOC_UNCOLLECTABLE, true),
  GC ("GC_malloc_atomic_uncollectable", SIG_P_S,
      MP_KIND_GC_MALLOC_ATOMIC_UNCOLLECTABLE, true),
  GC ("GC_malloc_ignore_off_page", SIG_P_S,
      MP_KIND_GC_MALLOC_IGNORE_OFF_PAGE, true),
  GC ("GC_malloc_atomic_ignore_off_page", SIG_P_S,
      MP_KIND_GC_MALLOC_ATOMIC_IGNORE_OFF_PAGE, true),
  GC ("GC_realloc", SIG_P_PS, MP_KIND_GC_REALLOC, false),
  GC ("GC_free", SIG_V_P, MP_KIND_GC_FREE, false),
  GC ("GC_strdup", SIG_X_C, MP_KIND_GC_STRDUP, true),
  GC ("GC_strndup", SIG_X_CS, MP_KIND_GC_STRNDUP, true),

  /* What the GC_MALLOC family of macros expands to under GC_DEBUG.  */
  GC ("GC_debug_malloc", SIG_P_SCI, MP_KIND_GC_MALLOC, true),
  GC ("GC_debug_malloc_atomic", SIG_P_SCI, MP_KIND_GC_MALLOC_ATOMIC, true),
  GC ("GC_debug_malloc_uncollectable", SIG_P_SCI,
      MP_KIND_GC_MALLOC_UNCOLLECTABLE, true),
  GC ("GC_debug_malloc_atomic_uncollectable", SIG_P_SCI,
      MP_KIND_GC_MALLOC_ATOMIC_UNCOLLECTABLE, true),
  GC ("GC_debug_malloc_ignore_off_page", SIG_P_SCI,
      MP_KIND_GC_MALLOC_IGNORE_OFF_PAGE, true),
  GC ("GC_debug_malloc_atomic_ignore_off_page", SIG_P_SCI,
      MP_KIND_GC_MALLOC_ATOMIC_IGNORE_OFF_PAGE, true),
  GC ("GC_debug_realloc", SIG_P_PSCI, MP_KIND_GC_REALLOC, false),
  GC ("GC_debug_free", SIG_V_P, MP_KIND_GC_FREE, false),
  GC ("GC_debug_strdup", SIG_X_CCI, MP_KIND_GC_STRDUP, true),
  GC ("GC_debug_strndup", SIG_X_CSCI, MP_KIND_GC_STRNDUP, true),

  /* The rest of Boehm's allocation API (gc_inline.h, gc_mark.h,
     gc_typed.h).  GC_generic_malloc_many is also the refill of
     gc_inline.h's macros, which the early pass takes out of this table's
     reach (carve.cc).  */
  GC ("GC_malloc_kind", SIG_P_SI, MP_KIND_GC_MALLOC_KIND, true),
  GC ("GC_malloc_kind_global", SIG_P_SI, MP_KIND_GC_MALLOC_KIND_GLOBAL, true),
  GC ("GC_generic_malloc", SIG_P_SI, MP_KIND_GC_GENERIC_MALLOC, true),
  GC ("GC_generic_malloc_ignore_off_page", SIG_P_SI,
      MP_KIND_GC_GENERIC_MALLOC_IGNORE_OFF_PAGE, true),
  GC ("GC_generic_malloc_uncollectable", SIG_P_SI,
      MP_KIND_GC_GENERIC_MALLOC_UNCOLLECTABLE, true),
  GC ("GC_malloc_explicitly_typed", SIG_P_SS,
      MP_KIND_GC_MALLOC_EXPLICITLY_TYPED, true),
  GC ("GC_malloc_explicitly_typed_ignore_off_page", SIG_P_SS,
      MP_KIND_GC_MALLOC_EXPLICITLY_TYPED_IGNORE_OFF_PAGE, true),
  GC ("GC_calloc_explicitly_typed", SIG_P_SSS,
      MP_KIND_GC_CALLOC_EXPLICITLY_TYPED, true),
  GC ("GC_malloc_many", SIG_P_S, MP_KIND_GC_MALLOC_MANY, true),
  GC ("GC_generic_malloc_many", SIG_V_SIQ, MP_KIND_GC_GENERIC_MALLOC_MANY,
      false),
  GC ("GC_memalign", SIG_P_SS, MP_KIND_GC_MEMALIGN, true),
  GC ("GC_posix_memalign", SIG_I_QSS, MP_KIND_GC_POSIX_MEMALIGN, false),

  /* Boehm's callbacks: the runtime keeps the program's and calls them
     after its own (generations.c), whenever the program sets them.  */
  HOOK ("GC_set_on_collection_event", SIG_V_F),
  HOOK ("GC_get_on_collection_event", SIG_F_),
  HOOK ("GC_set_start_callback", SIG_V_F),
  HOOK ("GC_get_start_callback", SIG_F_),
  HOOK ("GC_set_on_heap_resize", SIG_V_F),
  HOOK ("GC_get_on_heap_resize", SIG_F_),
  /* Boehm's finalisers: the runtime keeps the kind the program asked
     for when mp_finalise shares the object (finalise.c).  */
  HOOK ("GC_register_finalizer", SIG_V_PFPGQ),
  HOOK ("GC_register_finalizer_ignore_self", SIG_V_PFPGQ),
  HOOK ("GC_register_finalizer_no_order", SIG_V_PFPGQ),
  HOOK ("GC_register_finalizer_unreachable", SIG_V_PFPGQ),
  /* What gc.h's GC_INIT calls, in every configuration, and
     GC_enable_incremental, which starts Boehm too: the runtime sets
     itself up in the thread that starts Boehm (runtime/boehm.c).  */
  HOOK ("GC_init", SIG_V_),
  HOOK ("GC_enable_incremental", SIG_V_),

  /* C++'s replaceable allocation functions, by their mangled names
     (size_t is `m').  The plain and aligned new throw std::bad_alloc;
     the nothrow forms and every delete are noexcept.  */
  CXX ("_Znwm", SIG_P_S, MP_KIND_CXX_NEW, true, false),
  CXX ("_Znam", SIG_P_S, MP_KIND_CXX_NEW_ARRAY, true, false),
  CXX ("_ZnwmRKSt9nothrow_t", SIG_P_SR, MP_KIND_CXX_NEW, true, true),
  CXX ("_ZnamRKSt9nothrow_t", SIG_P_SR, MP_KIND_CXX_NEW_ARRAY, true, true),
  CXX ("_ZnwmSt11align_val_t", SIG_P_SS, MP_KIND_CXX_NEW, true, false),
  CXX ("_ZnamSt11align_val_t", SIG_P_SS, MP_KIND_CXX_NEW_ARRAY, true, false),
  CXX ("_ZnwmSt11align_val_tRKSt9nothrow_t", SIG_P_SSR, MP_KIND_CXX_NEW,
       true, true),
  CXX ("_ZnamSt11align_val_tRKSt9nothrow_t", SIG_P_SSR,
       MP_KIND_CXX_NEW_ARRAY, true, true),
  CXX ("_ZdlPv", SIG_V_P, MP_KIND_CXX_DELETE, false, true),
  CXX ("_ZdaPv", SIG_V_P, MP_KIND_CXX_DELETE_ARRAY, false, true),
  CXX ("_ZdlPvm", SIG_V_PS, MP_KIND_CXX_DELETE, false, true),
  CXX ("_ZdaPvm", SIG_V_PS, MP_KIND_CXX_DELETE_ARRAY, false, true),
  CXX ("_ZdlPvSt11align_val_t", SIG_V_PS, MP_KIND_CXX_DELETE, false, true),
  CXX ("_ZdaPvSt11align_val_t", SIG_V_PS, MP_KIND_CXX_DELETE_ARRAY, false,
       true),
  CXX ("_ZdlPvmSt11align_val_t", SIG_V_PSS, MP_KIND_CXX_DELETE, false, true),
  CXX ("_ZdaPvmSt11align_val_t", SIG_V_PSS, MP_KIND_CXX_DELETE_ARRAY, false,
       true),
  CXX ("_ZdlPvRKSt9nothrow_t", SIG_V_PR, MP_KIND_CXX_DELETE, false, true),
  CXX ("_ZdaPvRKSt9nothrow_t", SIG_V_PR, MP_KIND_CXX_DELETE_ARRAY, false,
       true),
  CXX ("_ZdlPvSt11align_val_tRKSt9nothrow_t", SIG_V_PSR, MP_KIND_CXX_DELETE,
       false, true),
  CXX ("_ZdaPvSt11align_val_tRKSt9nothrow_t", SIG_V_PSR,
       MP_KIND_CXX_DELETE_ARRAY, false, true),

  /* memprof.h's own: a VM reports what it allocated where the plugin
     cannot see it.  */
  { "mp_vm_allocated", END_BUILTINS, SIG_V_PSU, MP_KIND_VM_ALLOCATED, false,
    true, true },
};

#define MP_N_CALLEES (sizeof mp_callees / sizeof mp_callees[0])

static const char *mp_runtime_names[MP_N_CALLEES];

static tree
mp_letter_type (char c)
{
  switch (c)
    {
    case 'S': return size_type_node;
    case 'P': return ptr_type_node;
    case 'C': return build_pointer_type
                       (build_qualified_type (char_type_node,
                                              TYPE_QUAL_CONST));
    case 'I': return integer_type_node;
    case 'U': return unsigned_type_node;
    case 'Q': return build_pointer_type (ptr_type_node);
    case 'X': return build_pointer_type (char_type_node);
    case 'V': return void_type_node;
    case 'R': return const_ptr_type_node;
    default: gcc_unreachable ();
    }
}

/* The C-level name of a declaration: its assembler name without the
   '*' that marks a user-given asm label.  */
const char *
mp_decl_name (tree decl)
{
  const char *name;

  if (!DECL_ASSEMBLER_NAME_SET_P (decl) && !DECL_NAME (decl))
    return "";
  name = IDENTIFIER_POINTER (DECL_ASSEMBLER_NAME (decl));
  return name[0] == '*' ? name + 1 : name;
}

/* Does a value of TYPE need no conversion to be LETTER's type?  */
static bool
mp_fits (char letter, tree type)
{
  if (letter == 'F')
    return POINTER_TYPE_P (type)
           && TREE_CODE (TREE_TYPE (type)) == FUNCTION_TYPE;
  if (letter == 'R')
    return POINTER_TYPE_P (type);
  if (letter == 'G')
    return POINTER_TYPE_P (type) && mp_fits ('F', TREE_TYPE (type));
  return useless_type_conversion_p (mp_letter_type (letter), type);
}

/* Do the call's arguments and result already have the types of the
   original function that SPELLING describes?  */
static bool
mp_call_fits (const gcall *call, const char *spelling)
{
  unsigned nargs = strlen (spelling) - 1;
  tree lhs = gimple_call_lhs (call);

  if (gimple_call_num_args (call) != nargs || gimple_call_va_arg_pack_p (call))
    return false;
  for (unsigned i = 0; i < nargs; i++)
    if (!mp_fits (spelling[i + 1], TREE_TYPE (gimple_call_arg (call, i))))
      return false;
  if (lhs && spelling[0] == 'V')
    return false;
  return !lhs || mp_fits (spelling[0], TREE_TYPE (lhs));
}

const struct mp_callee *
mp_match_callee (const gcall *call)
{
  tree fndecl = gimple_call_fndecl (call);
  const char *name;

  if (!fndecl || gimple_call_internal_p (call))
    return NULL;
  if (fndecl_built_in_p (fndecl, BUILT_IN_NORMAL))
    {
      enum built_in_function code = DECL_FUNCTION_CODE (fndecl);
      for (unsigned i = 0; i < MP_N_CALLEES; i++)
        if (mp_callees[i].code == code)
          return mp_call_fits (call, mp_sig_spelling[mp_callees[i].sig])
                 ? &mp_callees[i] : NULL;
    }
  if (!TREE_PUBLIC (fndecl))
    return NULL;
  name = mp_decl_name (fndecl);
  for (unsigned i = 0; i < MP_N_CALLEES; i++)
    if (strcmp (name, mp_callees[i].name) == 0)
      return mp_call_fits (call, mp_sig_spelling[mp_callees[i].sig])
             ? &mp_callees[i] : NULL;
  return NULL;
}

/* The known function called NAME, whatever the call's types, or NULL.  */
const struct mp_callee *
mp_find_callee_name (const char *name)
{
  for (unsigned i = 0; i < MP_N_CALLEES; i++)
    if (strcmp (name, mp_callees[i].name) == 0)
      return &mp_callees[i];
  return NULL;
}

/* The work of the fast path of CALLEE's twin (stats.h's mp_site_work):
   less than MP_WORK_ALL when this unit's sites leave statistics out
   (stats=, per-call=) that the work of its fast path serves, and the
   runtime has a lean twin, __mp_NAME_wW (entry.h).  The calls programs
   make most have one; the others count everything, and the reports
   leave out what the sites did not keep.  */
static unsigned
mp_work (const struct mp_callee *callee)
{
  static const char *const lean[] =
    { "malloc", "calloc", "free", "GC_malloc", "GC_malloc_atomic" };

  for (unsigned i = 0; i < ARRAY_SIZE (lean); i++)
    if (strcmp (callee->name, lean[i]) == 0)
      return mp_site_work (mp_stats_omitted, mp_per_call_omitted);
  return MP_WORK_ALL;
}

const char *
mp_runtime_name (const struct mp_callee *callee)
{
  unsigned i = callee - mp_callees;
  unsigned work = mp_work (callee);
  char suffix[4] = "_w0";

  /* memprof.h's own mp_NAME has __mp_NAME for its twin.  */
  suffix[2] = (char) ('0' + work);
  if (!mp_runtime_names[i])
    mp_runtime_names[i] = concat (strncmp (callee->name, "mp_", 3) == 0
                                  ? "__" : "__mp_", callee->name,
                                  work == MP_WORK_ALL ? "" : suffix, NULL);
  return mp_runtime_names[i];
}

/* An external declaration (build_fn_decl) of the runtime function.
   Allocating ones also get the malloc attribute, so that what follows
   the pass (RTL alias analysis) keeps treating the result as a fresh
   block; DECL_IS_MALLOC is what the middle end reads, the attribute is
   what a reader of the tree dump expects.  Every one gets noplt: the
   call goes through the GOT, without the PLT's jump, an instruction a
   call of the shared runtime (the wrapper's default); on x86-64 the
   linker makes it a direct call where the runtime is linked statically
   (GCC honours noplt on AArch64 only with -fpic or -fPIE, and ld.bfd
   keeps the GOT load there).  */
static tree
mp_build_runtime_decl (const char *name, tree type, bool fresh, bool nothrow)
{
  tree decl = build_fn_decl (name, type);

  TREE_NOTHROW (decl) = nothrow;
  DECL_ATTRIBUTES (decl) = tree_cons (get_identifier ("noplt"), NULL_TREE,
                                      DECL_ATTRIBUTES (decl));
  if (fresh)
    {
      DECL_IS_MALLOC (decl) = 1;
      DECL_ATTRIBUTES (decl) = tree_cons (get_identifier ("malloc"),
                                          NULL_TREE, DECL_ATTRIBUTES (decl));
    }
  return decl;
}

/* The type of CALLEE's twin in the runtime; ORIGINAL, the declaration
   called, gives the types of Boehm's callbacks (F).  */
static tree
mp_runtime_type (const struct mp_callee *callee, tree original)
{
  const char *spelling = mp_sig_spelling[callee->sig];
  tree args[8];
  unsigned n = 0;

  if (strchr (spelling, 'F'))
    return TREE_TYPE (original);
  for (const char *p = spelling + 1; *p; p++)
    args[n++] = mp_letter_type (*p);
  if (callee->sited)
    args[n++] = mp_site_pointer_type ();
  return build_function_type_array (mp_letter_type (spelling[0]), n, args);
}

tree
mp_runtime_decl (const struct mp_callee *callee, tree original)
{
  unsigned i = callee - mp_callees;
  tree *slot = &mp_roots[MP_ROOT_CALLEE0 + i];

  gcc_assert (MP_ROOT_CALLEE0 + MP_N_CALLEES <= MP_ROOT_COUNT);
  if (!*slot)
    *slot = mp_build_runtime_decl (mp_runtime_name (callee),
                                   mp_runtime_type (callee, original),
                                   callee->fresh, callee->nothrow);
  return *slot;
}

/* The runtime functions the plugin calls for what is not a call of the
   program's: spelled like the callees, with T = const struct mp_site *
   (which they take where the spelling says, not always last).  */
static const struct
{
  const char *name;
  const char *spelling;
} mp_helpers[MP_HELPER_COUNT] =
{
  { "__mp_user_begin", "IT" },                  /* entry.h */
  { "__mp_user_end", "VPI" },
  { "__mp_gc_carved", "VPSIT" },                /* gcapi.c */
  { "__mp_gc_carved_young", "VPST" },
  { "__mp_GC_generic_malloc_many_refill", "VSIQ" },
};

tree
mp_helper_decl (enum mp_helper h)
{
  tree *slot = &mp_roots[MP_ROOT_HELPER0 + h];
  const char *spelling = mp_helpers[h].spelling;
  tree args[8];
  unsigned n = 0;

  if (*slot)
    return *slot;
  for (const char *p = spelling + 1; *p; p++)
    args[n++] = *p == 'T' ? mp_site_pointer_type () : mp_letter_type (*p);
  *slot = mp_build_runtime_decl (mp_helpers[h].name,
                                 build_function_type_array
                                   (mp_letter_type (spelling[0]), n, args),
                                 false, true);
  return *slot;
}

/* Whether CALL calls helper H (by name: under LTO the declaration the
   early pass made has been streamed, and is another tree).  */
bool
mp_calls_helper (const gcall *call, enum mp_helper h)
{
  tree fndecl = gimple_call_fndecl (call);

  return fndecl && strcmp (mp_decl_name (fndecl), mp_helpers[h].name) == 0;
}
