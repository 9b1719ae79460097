/* inline.cc -- the early pass: allocations that leave no call to
   rewrite once the optimisers have run.

   The late pass (memprof.cc) sees calls.  Two ways of allocating that a
   language VM uses all the time leave none behind:

   1. gc_inline.h's macros (GC_MALLOC_WORDS, GC_MALLOC_ATOMIC_WORDS,
      GC_CONS, all built on GC_FAST_MALLOC_GRANS) pop an object from a
      free list in the caller's own code, and call GC_generic_malloc_many
      only to refill the list.
   2. An allocator named by -fplugin-arg-memprof-allocator that is inlined
      (a VM's `static inline' free-list pop) has no call left to bracket.

   So this pass runs just after "cfg", the first pass with a control
   flow graph, when the function is still as the front end wrote it: not
   in SSA form, no copy propagated away, no function inlined, and each
   local still its own VAR_DECL with its own name.  It adds calls of the
   runtime there, each with a descriptor (site.cc) of where it is now;
   they are ordinary calls, which the inliner carries into every caller.
   The late pass then gives each one that was inlined a descriptor of
   where it ended up, with its inline chain.

   For 1, the pop is recognised by the shape GC_FAST_MALLOC_GRANS gives
   it, with the names of the macro's own locals (bdwgc 7.2 to 8.2):

       next = *my_entry;   result = my_entry;   *my_fl = next;

   __mp_gc_carved (my_entry, offset, &site) goes after the store that
   takes the object off the list, so that a tracker callback that
   allocates from the same list finds it consistent; OFFSET, from
   `my_fl = tiny_fl + offset', says which free list, hence the size the
   macro asked for.  The refill in the same expansion,
   GC_generic_malloc_many (..., my_fl), becomes a call that counts
   nothing.  A refill with no pop found gets a note: its objects would
   go uncounted.

   For 2, the allocator's body is bracketed as the late pass brackets its
   calls (entry.h): took = __mp_user_begin (&site) on the edge out of the
   entry block, and `if (took) __mp_user_end (result, took)' before each
   return.  The runtime lets a bracket inside a bracketed call take
   nothing, so an out-of-line copy called through a bracketed call costs
   a call and a test, and counts once.  */

#include "memprof.h"
#include "tree-pass.h"
#include "context.h"
#include "basic-block.h"
#include "gimple-iterator.h"
#include "diagnostic-core.h"
#include "gimplify.h"

/* Whether T is a VAR_DECL named NAME.  */
static bool
mp_var_named (tree t, const char *name)
{
  return t && TREE_CODE (t) == VAR_DECL && DECL_NAME (t)
         && strcmp (IDENTIFIER_POINTER (DECL_NAME (t)), name) == 0;
}

/* The name of the outermost macro whose expansion LOC is in (what the
   user wrote: GC_CONS), or FALLBACK.  */
static const char *
mp_macro_at (location_t loc, const char *fallback)
{
  const char *name = fallback;

  loc = LOCATION_LOCUS (loc);
  while (linemap_location_from_macro_expansion_p (line_table, loc))
    {
      const line_map_macro *map
        = linemap_check_macro (linemap_lookup (line_table, loc));
      name = (const char *) linemap_map_get_macro_name (map);
      loc = MACRO_MAP_EXPANSION_POINT_LOCATION (map);
    }
  return name;
}

/* If the statement at GSI is GC_FAST_MALLOC_GRANS's `result = my_entry'
   right after `next = *my_entry', return my_entry.  */
static tree
mp_popped_object (gimple_stmt_iterator gsi)
{
  gimple *stmt = gsi_stmt (gsi);

  if (!gimple_assign_single_p (stmt)
      || !mp_var_named (gimple_assign_rhs1 (stmt), "my_entry"))
    return NULL_TREE;
  tree entry = gimple_assign_rhs1 (stmt);
  gsi_prev_nondebug (&gsi);
  if (gsi_end_p (gsi) || !gimple_assign_single_p (gsi_stmt (gsi)))
    return NULL_TREE;
  tree load = gimple_assign_rhs1 (gsi_stmt (gsi));
  if (!mp_var_named (gimple_assign_lhs (gsi_stmt (gsi)), "next")
      || TREE_CODE (load) != MEM_REF || TREE_OPERAND (load, 0) != entry)
    return NULL_TREE;
  return entry;
}

static bool mp_refill_p (const gcall *);

/* The free lists of a function's expansions: each expansion's own
   `my_fl' (a VAR_DECL of its block), its offset from the array of free
   lists, granules * sizeof (void *), from `my_fl = tiny_fl + offset',
   and the object kind its refill asks for, when that is a constant.  */
struct mp_list
{
  tree var, offset, kind;
};

/* Free list VAR among LISTS, or NULL.  */
static const mp_list *
mp_list_of (const vec<mp_list> &lists, tree var)
{
  for (unsigned i = 0; i < lists.length (); i++)
    if (lists[i].var == var)
      return &lists[i];
  return NULL;
}

/* Move GSI past the store that takes the object off the list (the
   statement that stores `next'), if it comes next in the block (debug
   statements, which -g adds, do not count); return its free list among
   LISTS, or NULL.  */
static const mp_list *
mp_skip_unlink (gimple_stmt_iterator *gsi, const vec<mp_list> &lists)
{
  gimple_stmt_iterator next = *gsi;

  gsi_next_nondebug (&next);
  if (gsi_end_p (next) || !gimple_assign_single_p (gsi_stmt (next))
      || !mp_var_named (gimple_assign_rhs1 (gsi_stmt (next)), "next"))
    return NULL;
  *gsi = next;
  tree lhs = gimple_assign_lhs (gsi_stmt (next));
  return TREE_CODE (lhs) == MEM_REF
         ? mp_list_of (lists, TREE_OPERAND (lhs, 0)) : NULL;
}

/* The size of the objects of free list LIST plus their kind, as
   __mp_gc_carved_young takes them, computed after *GSI if need be
   (*GSI then at the last statement added); NULL_TREE unless the kind is
   PTRFREE or NORMAL (0 or 1) and the offset is known.  The offset is
   granules * sizeof (void *), the size granules * GC_GRANULE_BYTES, and
   a granule two words (bdwgc's default, which gcapi.c checks): the
   size is the offset twice, one granule's for granules 0.  */
static tree
mp_size_kind (gimple_stmt_iterator *gsi, const mp_list *list)
{
  if (!list || !list->offset || !list->kind
      || !useless_type_conversion_p (size_type_node,
                                     TREE_TYPE (list->offset))
      || !(integer_zerop (list->kind) || integer_onep (list->kind)))
    return NULL_TREE;
  tree word = TYPE_SIZE_UNIT (ptr_type_node);
  tree kind = fold_convert (size_type_node, list->kind);
  if (TREE_CODE (list->offset) == INTEGER_CST)
    {
      tree offset = fold_build2 (MAX_EXPR, size_type_node, list->offset,
                                 fold_convert (size_type_node, word));
      return fold_build2 (BIT_IOR_EXPR, size_type_node,
                          fold_build2 (PLUS_EXPR, size_type_node, offset,
                                       offset), kind);
    }
  tree steps[3] = { create_tmp_var (size_type_node, "mp_offset"),
                    create_tmp_var (size_type_node, "mp_size"),
                    create_tmp_var (size_type_node, "mp_size_kind") };
  gsi_insert_after (gsi, gimple_build_assign (steps[0], MAX_EXPR,
                                              list->offset,
                                              fold_convert (size_type_node,
                                                            word)),
                    GSI_NEW_STMT);
  gsi_insert_after (gsi, gimple_build_assign (steps[1], PLUS_EXPR,
                                              steps[0], steps[0]),
                    GSI_NEW_STMT);
  gsi_insert_after (gsi, gimple_build_assign (steps[2], BIT_IOR_EXPR,
                                              steps[1], kind),
                    GSI_NEW_STMT);
  return steps[2];
}

/* Add __mp_gc_carved (OBJECT, offset, kind, &site) after the pop at
   *GSI: the offset of its free list gives the size the macro asked for,
   its refill the kind (all ones for what is not found: the runtime asks
   Boehm then).  The common case, a young object of a known kind and
   size, calls __mp_gc_carved_young (OBJECT, size | kind, &site),
   whose fast path tests less.  */
static void
mp_mark_pop (gimple_stmt_iterator *gsi, tree object, const vec<mp_list> &lists)
{
  gimple *pop = gsi_stmt (*gsi);
  const char *macro = mp_macro_at (gimple_location (pop), MP_GC_POP_MACRO);
  const mp_list *list = mp_skip_unlink (gsi, lists);
  tree offset = list ? list->offset : NULL_TREE;
  tree kind = list && list->kind ? list->kind : integer_minus_one_node;
  gcall *call;

  tree young = mp_size_kind (gsi, list);
  if (young)
    call = gimple_build_call (mp_helper_decl (MP_HELPER_GC_CARVED_YOUNG), 3,
                              object, young, null_pointer_node);
  else
    {
      if (!offset || !useless_type_conversion_p (size_type_node,
                                                 TREE_TYPE (offset)))
        offset = build_all_ones_cst (size_type_node);
      call = gimple_build_call (mp_helper_decl (MP_HELPER_GC_CARVED), 4,
                                object, offset,
                                fold_convert (integer_type_node, kind),
                                null_pointer_node);
    }
  unsigned site = gimple_call_num_args (call) - 1;
  gimple_set_location (call, gimple_location (pop));
  gimple_set_block (call, gimple_block (pop));
  gimple_call_set_arg (call, site,
                       mp_emit_early_site (call, macro, MP_KIND_GC_CARVE));
  gsi_insert_after (gsi, call, GSI_NEW_STMT);
  mp_note (gimple_location (pop), macro, gimple_call_num_args (call) == 3
           ? "__mp_gc_carved_young" : "__mp_gc_carved");
}

/* Each expansion's free list in FUN, with its offset and its refill's
   constant kind, into LISTS.  */
static void
mp_find_lists (function *fun, vec<mp_list> *lists)
{
  basic_block bb;
  auto_vec<gcall *> refills;

  FOR_EACH_BB_FN (bb, fun)
    for (gimple_stmt_iterator gsi = gsi_start_bb (bb); !gsi_end_p (gsi);
         gsi_next (&gsi))
      {
        gimple *stmt = gsi_stmt (gsi);
        gcall *call = dyn_cast <gcall *> (stmt);
        if (is_gimple_assign (stmt)
            && gimple_assign_rhs_code (stmt) == POINTER_PLUS_EXPR
            && mp_var_named (gimple_assign_lhs (stmt), "my_fl"))
          lists->safe_push ({ gimple_assign_lhs (stmt),
                              gimple_assign_rhs2 (stmt), NULL_TREE });
        else if (call && mp_refill_p (call)
                 && TREE_CODE (gimple_call_arg (call, 1)) == INTEGER_CST)
          refills.safe_push (call);
      }
  for (gcall *call : refills)
    for (mp_list &list : *lists)
      if (list.var == gimple_call_arg (call, 2))
        list.kind = gimple_call_arg (call, 1);
}

/* Whether CALL is gc_inline.h's refill: GC_generic_malloc_many (...,
   my_fl).  */
static bool
mp_refill_p (const gcall *call)
{
  tree fndecl = gimple_call_fndecl (call);

  return fndecl && gimple_call_num_args (call) == 3
         && strcmp (mp_decl_name (fndecl), "GC_generic_malloc_many") == 0
         && mp_var_named (gimple_call_arg (call, 2), "my_fl");
}

/* Mark the pops of gc_inline.h's macros in FUN, and make their refills
   count nothing.  */
static void
mp_mark_pops (function *fun)
{
  basic_block bb;
  location_t refill = UNKNOWN_LOCATION;
  unsigned pops = 0;
  auto_vec<mp_list> lists;

  mp_find_lists (fun, &lists);
  FOR_EACH_BB_FN (bb, fun)
    for (gimple_stmt_iterator gsi = gsi_start_bb (bb); !gsi_end_p (gsi);
         gsi_next (&gsi))
      {
        gimple *stmt = gsi_stmt (gsi);
        tree object;
        gcall *call = dyn_cast <gcall *> (stmt);
        if (call && mp_refill_p (call))
          {
            gimple_call_set_fndecl (call, mp_helper_decl (MP_HELPER_GC_REFILL));
            refill = gimple_location (call);
          }
        else if ((object = mp_popped_object (gsi)) != NULL_TREE)
          {
            mp_mark_pop (&gsi, object, lists);
            pops++;
          }
      }
  if (refill != UNKNOWN_LOCATION && pops == 0)
    inform (refill, "memprof: no free-list pop found in this use of"
            " %<gc_inline.h%>; the objects it hands out are not counted");
}

/* Whether a note about the allocator DECL was given already.  */
static bool
mp_noted_p (tree decl)
{
  static vec<const char *> noted;
  const char *name = mp_decl_name (decl);

  for (unsigned i = 0; i < noted.length (); i++)
    if (strcmp (noted[i], name) == 0)
      return true;
  noted.safe_push (xstrdup (name));
  return false;
}

/* A note that the allocator DECL cannot be profiled, once per name.  */
void
mp_note_unusable (tree decl, location_t loc, const char *name)
{
  tree type = TREE_TYPE (TREE_TYPE (decl));

  if (mp_noted_p (decl))
    return;
  if (mp_find_callee_name (mp_decl_name (decl)))
    inform (loc, "memprof: %qs is an allocation function memprof knows;"
            " %<allocator=%> is not needed, and ignored", name);
  else
    inform (loc, "memprof: allocator %qs returns %qT, not a pointer: it is"
            " not profiled", name, type);
}

/* The value a GIMPLE_RETURN returns, as an operand a call can take.  */
static tree
mp_returned (greturn *ret, gimple_stmt_iterator *gsi)
{
  tree value = gimple_return_retval (ret);

  if (!value)
    return null_pointer_node;
  if (is_gimple_val (value))
    return value;
  tree tmp = create_tmp_var (TREE_TYPE (value), "mp_result");
  gsi_insert_before (gsi, gimple_build_assign (tmp, value), GSI_SAME_STMT);
  return tmp;
}

/* Bracket the body of FUN, the user allocator USER.  */
static void
mp_bracket_body (function *fun, const struct mp_user_allocator *user)
{
  edge entry = single_succ_edge (ENTRY_BLOCK_PTR_FOR_FN (fun));
  tree took = create_tmp_var (integer_type_node, "mp_took");
  gcall *begin = gimple_build_call (mp_helper_decl (MP_HELPER_USER_BEGIN), 1,
                                    null_pointer_node);
  basic_block bb;

  gimple_set_location (begin, DECL_SOURCE_LOCATION (fun->decl));
  gimple_set_block (begin, DECL_INITIAL (fun->decl));
  gimple_call_set_arg (begin, 0,
                       mp_emit_early_site (begin, user->name, user->kind));
  gimple_call_set_lhs (begin, took);
  gsi_insert_on_edge_immediate (entry, begin);
  /* Put under their tests (mp_guard_user_end) once the walk is over:
     the new blocks would be walked too.  */
  auto_vec<gcall *> ends;
  FOR_EACH_BB_FN (bb, fun)
    {
      gimple_stmt_iterator gsi = gsi_last_bb (bb);
      greturn *ret;
      if (gsi_end_p (gsi) || !(ret = dyn_cast <greturn *> (gsi_stmt (gsi))))
        continue;
      tree result = mp_returned (ret, &gsi);
      gcall *end = gimple_build_call (mp_helper_decl (MP_HELPER_USER_END), 2,
                                      result, took);
      gimple_set_location (end, gimple_location (ret));
      gimple_set_block (end, gimple_block (ret));
      gsi_insert_before (&gsi, end, GSI_SAME_STMT);
      ends.safe_push (end);
    }
  for (gcall *end : ends)
    mp_guard_user_end (end);
}

/* Whether FNDECL, a function this unit defines, is the program's own
   version of a function whose calls the plugin rewrites: its malloc,
   its operator new (a public function of one of their names; a class's
   operator new is mangled otherwise).  */
static bool
mp_replaced_callee_p (tree fndecl)
{
  return TREE_PUBLIC (fndecl)
         && mp_find_callee_name (mp_decl_name (fndecl)) != NULL;
}

static unsigned int
mp_early_execute (function *fun)
{
  const struct mp_user_allocator *user;

  if (mp_runtime_function_p (fun->decl))
    return 0;
  /* A call of the program's own malloc or operator new becomes the
     runtime's entry, which calls it (operator new bracketed as a user
     allocator, counted as failed if it throws): so it is kept a call,
     out of line, as it is in another unit.  DECL_UNINLINABLE, set
     before the inliners run (einline follows this pass), is what they
     check first.  */
  if (mp_replaced_callee_p (fun->decl))
    DECL_UNINLINABLE (fun->decl) = 1;
  mp_mark_pops (fun);
  if ((user = mp_find_user_allocator (fun->decl)) != NULL)
    {
      if (!POINTER_TYPE_P (TREE_TYPE (TREE_TYPE (fun->decl)))
          || mp_find_callee_name (mp_decl_name (fun->decl)))
        mp_note_unusable (fun->decl, DECL_SOURCE_LOCATION (fun->decl),
                          user->name);
      else
        mp_bracket_body (fun, user);
    }
  return 0;
}

static const pass_data mp_early_pass_data =
{
  GIMPLE_PASS,
  "memprof-early",              /* name, for -fdump-tree-all */
  OPTGROUP_NONE,
  TV_NONE,
  PROP_cfg,                     /* properties_required */
  0, 0, 0, 0
};

class mp_early_pass : public gimple_opt_pass
{
public:
  mp_early_pass (gcc::context *ctxt)
    : gimple_opt_pass (mp_early_pass_data, ctxt) {}
  unsigned int execute (function *fun) final override
  {
    return mp_early_execute (fun);
  }
};

opt_pass *
mp_make_early_pass (void)
{
  return new mp_early_pass (g);
}
