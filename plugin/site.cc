/* site.cc -- the static descriptor of each rewritten call site.

   The types are built once, by hand, to the layout of runtime/site.h;
   each site is a file-local, writable VAR_DECL (the runtime stores the
   site's number in `id`) whose DECL_INITIAL is a CONSTRUCTOR, handed to
   the varpool so that it is written out with the unit's other data.
   The inline chain comes from the BLOCK tree: the inliner gives each
   inlined body an outer BLOCK whose origin is the inlined function and
   whose BLOCK_SOURCE_LOCATION is the call it replaced.  */

#include "memprof.h"
#include "stringpool.h"
#include "stor-layout.h"
#include "cgraph.h"
#include "varasm.h"
#include "diagnostic-core.h"

/* libiberty's demangler, which cc1, cc1plus and lto1 all export; the
   plugin headers do not ship demangle.h.  */
extern "C" char *cplus_demangle (const char *, int);
#define MP_DMGL_PARAMS (1 << 0)
#define MP_DMGL_ANSI (1 << 1)

/* FIELD_DECLs of TYPE in declaration order, from the NULL-terminated
   NAMES and TYPES.  finish_builtin_struct reverses the chain it is
   given, so hand it the fields last one first.  */
static void
mp_finish_struct (tree type, const char *name, const char *const *names,
                  const tree *types)
{
  tree chain = NULL_TREE;

  for (unsigned i = 0; names[i]; i++)
    {
      tree field = build_decl (BUILTINS_LOCATION, FIELD_DECL,
                               get_identifier (names[i]), types[i]);
      DECL_CHAIN (field) = chain;
      chain = field;
    }
  finish_builtin_struct (type, name, chain, NULL_TREE);
}

static void
mp_build_types (void)
{
  tree cstr = build_pointer_type (build_qualified_type (char_type_node,
                                                        TYPE_QUAL_CONST));
  tree uns = unsigned_type_node;
  tree frame = make_node (RECORD_TYPE);
  tree site = make_node (RECORD_TYPE);
  static const char *const frame_names[] =
    { "function", "file", "line", "column", NULL };
  static const char *const site_names[] =
    { "abi", "id", "file", "function", "callee", "line", "column", "kind",
      "n_inlined", "inlined", "stats_omitted", "per_call_omitted", NULL };
  tree frame_types[] = { cstr, cstr, uns, uns };

  /* A qualified variant (build_qualified_type) is a copy of its main
     variant as it is at that moment: made before finish_builtin_struct
     gives the record its fields and its name, it keeps none, and
     verify_type (-fchecking) rejects the type.  So each record is
     finished before anything refers to `const' of it.  */
  mp_finish_struct (frame, "mp_inline_frame", frame_names, frame_types);
  tree frame_ptr = build_pointer_type (build_qualified_type (frame,
                                                             TYPE_QUAL_CONST));
  tree site_types[] = { uns, uns, cstr, cstr, cstr, uns, uns, uns, uns,
                        frame_ptr, uns, uns };
  mp_finish_struct (site, "mp_site", site_names, site_types);
  mp_roots[MP_ROOT_FRAME_TYPE] = frame;
  mp_roots[MP_ROOT_FRAME_PTR_TYPE] = frame_ptr;
  mp_roots[MP_ROOT_SITE_TYPE] = site;
  mp_roots[MP_ROOT_SITE_PTR_TYPE]
    = build_pointer_type (build_qualified_type (site, TYPE_QUAL_CONST));
}

/* const struct mp_site *, the type of the runtime functions' last
   parameter.  */
tree
mp_site_pointer_type (void)
{
  if (!mp_roots[MP_ROOT_SITE_TYPE])
    mp_build_types ();
  return mp_roots[MP_ROOT_SITE_PTR_TYPE];
}

static tree
mp_string (const char *s)
{
  return build_string_literal (strlen (s) + 1, s);
}

static tree
mp_unsigned (unsigned v)
{
  return build_int_cst (unsigned_type_node, v);
}

/* A CONSTRUCTOR for the RECORD_TYPE TYPE from its field values, in field
   order.  */
static tree
mp_record (tree type, const tree *values)
{
  vec<constructor_elt, va_gc> *elts = NULL;
  unsigned i = 0;

  for (tree f = TYPE_FIELDS (type); f; f = DECL_CHAIN (f), i++)
    CONSTRUCTOR_APPEND_ELT (elts, f, fold_convert (TREE_TYPE (f), values[i]));
  tree ctor = build_constructor (type, elts);
  TREE_CONSTANT (ctor) = 1;
  TREE_STATIC (ctor) = 1;
  return ctor;
}

/* A file-local static of TYPE initialised to INIT, written out with the
   unit's data.  Sites are made while functions are being expanded, when
   -fno-toplevel-reorder (the default at -O0) has already fixed the order
   of output: keep them out of that order, or they would never be
   emitted.  */
static tree
mp_static (const char *prefix, tree type, tree init, bool readonly)
{
  tree var = build_decl (BUILTINS_LOCATION, VAR_DECL,
                         create_tmp_var_name (prefix), type);

  TREE_STATIC (var) = 1;
  TREE_PUBLIC (var) = 0;
  DECL_EXTERNAL (var) = 0;
  DECL_ARTIFICIAL (var) = 1;
  DECL_IGNORED_P (var) = 1;
  TREE_ADDRESSABLE (var) = 1;
  TREE_USED (var) = 1;
  TREE_READONLY (var) = readonly;
  DECL_INITIAL (var) = init;
  varpool_node::add (var);
  varpool_node::get (var)->no_reorder = 0;
  varpool_node::get (var)->force_output = 1;
  return var;
}

/* The name of the function DECL as a string constant, spelled as a
   debugger shows it, from the DWARF GCC writes: C++ names demangled
   from their assembler names, which survive into LTO, where the front
   end that could print them is gone; an IPA clone (foo.constprop.0,
   foo.part.0) under the name of the function it was cloned from, whose
   DW_AT_name its DWARF refers to.  But at link time (LTO), GCC gives a
   clone's DWARF the clone's own linkage name, which gdb shows: the
   clone is named by its assembler name there.  */
static tree
mp_function_string (tree decl)
{
  bool own = in_lto_p && DECL_ABSTRACT_ORIGIN (decl) != NULL_TREE;
  const char *asmname;
  char *demangled;

  if (!own)
    decl = DECL_ORIGIN (decl);
  asmname = mp_decl_name (decl);
  if (strncmp (asmname, "_Z", 2) == 0
      && (demangled = cplus_demangle (asmname, MP_DMGL_PARAMS | MP_DMGL_ANSI)))
    {
      tree str = mp_string (demangled);
      free (demangled);
      return str;
    }
  if (!own && DECL_NAME (decl))
    return mp_string (IDENTIFIER_POINTER (DECL_NAME (decl)));
  return mp_string (asmname);
}

/* Where an expanded location's file is unknown (calls GCC made up),
   the runtime still needs a string.  */
static const char *
mp_file (expanded_location xloc)
{
  return xloc.file ? xloc.file : "<unknown>";
}

/* The inlined functions around BLOCK, innermost first, as a static
   array of struct mp_inline_frame; NULL_TREE and *N = 0 when none.  */
static tree
mp_inline_frames (tree block, unsigned *n)
{
  vec<constructor_elt, va_gc> *elts = NULL;
  tree frame = mp_roots[MP_ROOT_FRAME_TYPE];

  *n = 0;
  for (tree b = block; b && TREE_CODE (b) == BLOCK;
       b = BLOCK_SUPERCONTEXT (b))
    {
      if (!inlined_function_outer_scope_p (b))
        continue;
      tree fn = block_ultimate_origin (b);
      if (!fn || TREE_CODE (fn) != FUNCTION_DECL)
        continue;
      expanded_location xloc = expand_location (BLOCK_SOURCE_LOCATION (b));
      tree values[] = { mp_function_string (fn),
                        mp_string (mp_file (xloc)),
                        mp_unsigned (xloc.line), mp_unsigned (xloc.column) };
      CONSTRUCTOR_APPEND_ELT (elts, size_int (*n), mp_record (frame, values));
      ++*n;
    }
  if (*n == 0)
    return NULL_TREE;

  tree type = build_array_type_nelts (frame, *n);
  tree ctor = build_constructor (type, elts);
  TREE_CONSTANT (ctor) = 1;
  TREE_STATIC (ctor) = 1;
  tree var = mp_static ("__mp_inlined", type, ctor, true);
  return build_fold_addr_expr_with_type
           (build4 (ARRAY_REF, frame, var, size_zero_node,
                    NULL_TREE, NULL_TREE),
            mp_roots[MP_ROOT_FRAME_PTR_TYPE]);
}

/* A descriptor named PREFIX.N of a call at LOC, inside the scopes of
   BLOCK, of CALLEE and KIND (trees: a string and an unsigned constant);
   its address, ready to be passed to the runtime.  */
static tree
mp_build_site (const char *prefix, location_t loc, tree block, tree callee,
               tree kind)
{
  expanded_location xloc = expand_location (loc);
  unsigned n_inlined;
  tree inlined = mp_inline_frames (block, &n_inlined);

  if (!xloc.file)
    {
      xloc.file = DECL_SOURCE_FILE (current_function_decl);
      xloc.line = xloc.column = 0;
    }
  tree values[] =
    {
      mp_unsigned (MP_SITE_ABI), mp_unsigned (0), mp_string (mp_file (xloc)),
      mp_function_string (current_function_decl), callee,
      mp_unsigned (xloc.line), mp_unsigned (xloc.column), kind,
      mp_unsigned (n_inlined),
      inlined ? inlined : build_int_cst (mp_roots[MP_ROOT_FRAME_PTR_TYPE], 0),
      mp_unsigned (mp_stats_omitted), mp_unsigned (mp_per_call_omitted)
    };
  tree type = mp_roots[MP_ROOT_SITE_TYPE];
  tree var = mp_static (prefix, type, mp_record (type, values), false);
  return build_fold_addr_expr_with_type (var, mp_site_pointer_type ());
}

/* Emit the descriptor of the call STMT to CALLEE (the name as the user
   wrote it) of KIND, and return its address, ready to be passed as the
   runtime function's last argument.  */
tree
mp_emit_site (const gimple *stmt, const char *callee, unsigned kind)
{
  return mp_emit_site_at (gimple_location (stmt), gimple_block (stmt), callee,
                          kind);
}

/* The same for a call at LOC, inside the scopes of BLOCK.  */
tree
mp_emit_site_at (location_t loc, tree block, const char *callee,
                 unsigned kind)
{
  mp_site_pointer_type ();
  return mp_build_site ("__mp_site", loc, block, mp_string (callee),
                        mp_unsigned (kind));
}

/* The early pass's descriptors (inline.cc) are named apart, so that the
   late pass can tell them from its own.  The name is the VAR_DECL's, so
   it holds in an LTRANS unit too: LTO streams a declaration into every
   partition that refers to it.  */
#define MP_EARLY_PREFIX "__mp_esite"

tree
mp_emit_early_site (const gimple *stmt, const char *callee, unsigned kind)
{
  mp_site_pointer_type ();
  return mp_build_site (MP_EARLY_PREFIX, gimple_location (stmt),
                        gimple_block (stmt), mp_string (callee),
                        mp_unsigned (kind));
}

/* Whether ARG is the address of an early descriptor.  */
bool
mp_is_early_site (tree arg)
{
  if (TREE_CODE (arg) != ADDR_EXPR)
    return false;
  tree var = TREE_OPERAND (arg, 0);
  return TREE_CODE (var) == VAR_DECL && DECL_NAME (var)
         && strncmp (IDENTIFIER_POINTER (DECL_NAME (var)), MP_EARLY_PREFIX,
                     strlen (MP_EARLY_PREFIX)) == 0;
}

/* The CONSTRUCTOR of the static VAR, or NULL_TREE when this unit does
   not have it.  An LTRANS unit (LTO's code generation at link time)
   reads initializers lazily: DECL_INITIAL is error_mark_node until
   varpool_node::get_constructor loads it from the object file.  And
   WPA streams a writable variable's initializer only into the
   partition that defines it (read-only ones also go where they may be
   folded): in the others the varpool node is no definition, and there
   is nothing to load.  */
static tree
mp_initializer (tree var)
{
  tree init = DECL_INITIAL (var);
  varpool_node *node;

  if (init == error_mark_node && (node = varpool_node::get (var))
      && node->definition)
    init = node->get_constructor ();
  return init && TREE_CODE (init) == CONSTRUCTOR ? init : NULL_TREE;
}

/* The callee that the early descriptor at ARG names (field 4 of struct
   mp_site), or NULL when its initializer is in another LTO partition.  */
const char *
mp_early_callee (tree arg)
{
  tree init = mp_initializer (TREE_OPERAND (arg, 0));

  return init ? c_getstr (CONSTRUCTOR_ELT (init, 4)->value) : NULL;
}

/* Make the unit need libgc, once.  The runtime refers to Boehm weakly
   (runtime/gcweak.h), so that a program that never uses the GC heap
   does not even load libgc; a unit that does (a call of the GC family
   or of Boehm's callback setters, a pop of gc_inline.h's, a call of
   memprof.h's that starts Boehm) gets a strong reference of its own:
   a read-only static holding GC_init's address, which nothing reads.
   It is handed to the varpool as the sites are, forced out, so that
   -O2 keeps it, and LTO too (WPA keeps a forced-out variable, in some
   partition); and the linker decides which shared objects are needed
   (--as-needed) as it reads the objects, before --gc-sections drops
   an unread section.  GC_init's declaration is the unit's own if it
   has one in the symbol table, or else one made here.  */
void
mp_need_libgc (void)
{
  static bool done;             /* one process compiles one unit */

  if (done)
    return;
  done = true;
  tree name = get_identifier ("GC_init");
  symtab_node *node = symtab_node::get_for_asmname (name);
  tree fn = node && TREE_CODE (node->decl) == FUNCTION_DECL
            ? node->decl
            : build_fn_decl ("GC_init", build_function_type_list
                                          (void_type_node, NULL_TREE));
  mp_static ("__mp_libgc", ptr_type_node,
             fold_convert (ptr_type_node, build_fold_addr_expr (fn)), true);
}
