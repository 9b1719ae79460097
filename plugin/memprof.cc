/* memprof.cc -- the GCC plugin of memprof, a heap profiler for C.

   The plugin turns every allocation call of a translation unit into a
   call of the memprof runtime that also receives a description of the
   call site:

       p = malloc (n);    becomes    p = __mp_malloc (n, &__mp_site.3);

   How it does it, and which GCC concept each step relies on:

   1. One GIMPLE pass, inserted after "optimized" (pass_register_info),
      the last GIMPLE pass of every function at every -O level, -O0
      included.  Being that late is the point: the inliner has run, so
      the BLOCK tree of each statement records the chain of functions
      inlined at the call, and the folders have run, so the calls GCC
      created itself (malloc + memset becoming calloc) are visible.  With
      -flto the same pass runs in the LTRANS processes, which is why the
      plugin must also be given on the link line.  The price is that
      some allocations have no call left by then (gc_inline.h's pops, a
      user allocator inlined away): an early pass (inline.cc) marks them
      with calls of the runtime, and this pass gives each marker the
      place the inliner moved it to (mp_resite_marker).

   2. Each GIMPLE_CALL is matched against the known families
      (callees.cc): GCC's builtins by DECL_FUNCTION_CODE, the others by
      assembler name, and always only when the call's argument types are
      exactly the expected ones.

   3. A known call is replaced (gsi_replace) by a new GIMPLE_CALL of the
      runtime function, with the original arguments and the address of a
      new static descriptor (site.cc).  The lhs, the virtual operands
      (gimple_move_vops: the new call stands for the old one in the
      memory SSA web), the location and thus the BLOCK move over, and so
      does the call's place in the EH table (gsi_replace's
      maybe_clean_or_replace_eh_stmt): a runtime function throws exactly
      when the function it stands for is declared to, nothrow for libc
      as glibc's __THROW says, so the CFG keeps its shape.  The runtime
      declarations carry the malloc attribute (DECL_IS_MALLOC) so that
      the result is still known to be a fresh block.  The new call is
      never a tail call, so the caller's frame stays on the stacks the
      runtime records.

   4. A call of a user allocator (-fplugin-arg-memprof-allocator) is kept
      and bracketed by __mp_user_begin and __mp_user_end, the latter in
      a block of its own that a GIMPLE_COND on the former's result
      skips (mp_guard_user_end).  These new calls touch memory, so their
      virtual operands, and the PHI where the skipped block's memory
      state meets the other's, are left to the SSA updater
      (TODO_update_ssa_only_virtuals).

   5. Trees kept from one function to the next (types, the runtime
      declarations) live in mp_roots, a GGC root registered with
      PLUGIN_REGISTER_GGC_ROOTS, so the garbage collector neither frees
      nor misses them.

   Anything the plugin does not understand it leaves as it was: it must
   never break a build.  */

#include "memprof.h"
#include "plugin-version.h"
#include "tree-pass.h"
#include "context.h"
#include "basic-block.h"
#include "gimple-iterator.h"
#include "tree-cfg.h"
#include "tree-eh.h"
#include "tree-into-ssa.h"
#include "diagnostic-core.h"
#include "gtype-desc.h"

int plugin_is_GPL_compatible;

tree mp_roots[MP_ROOT_COUNT];

static const struct ggc_root_tab mp_root_tab[] =
{
  { mp_roots, MP_ROOT_COUNT, sizeof (tree), &gt_ggc_mx_tree_node,
    &gt_pch_nx_tree_node },
  LAST_GGC_ROOT_TAB
};

static struct plugin_info mp_plugin_info =
{
  "1.0",
  "memprof: heap profiler instrumentation;"
  " -fplugin-arg-memprof-help lists the options"
};

/* What the walk over one function has to do once it is over.  */
struct mp_walk
{
  unsigned todo;
  /* The __mp_user_end calls added, to be put under their test once the
     walk, whose iterator a split block would leave behind, is over.  */
  auto_vec<gcall *> ends;
};

/* One line per site, at the place in the user's file that the site
   descriptor names too: not inside a macro of gc.h (GC_MALLOC), and
   without the "inlined from" context, which the descriptor carries.
   GCC's own check of diagnostic style wants "->" quoted; the note's
   format is memprof's interface, which tests and users grep.  */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-diag"
void
mp_note (location_t loc, const char *callee, const char *runtime)
{
  loc = LOCATION_LOCUS (loc);
  if (mp_verbose)
    inform (linemap_resolve_location (line_table, loc,
                                      LRK_MACRO_EXPANSION_POINT, NULL),
            "memprof: %s -> %s", callee, runtime);
}
#pragma GCC diagnostic pop

/* The note of a call of the user allocator USER at LOC; HOW says if it
   was inlined.  */
static void
mp_note_user (location_t loc, const struct mp_user_allocator *user,
              const char *how)
{
  char *name = concat (user->name, how, NULL);
  char *runtime = concat ("__mp_user_begin/__mp_user_end (", user->family,
                          ")", NULL);
  mp_note (loc, name, runtime);
  free (runtime);
  free (name);
}

/* The name of the called function as the source spelled it: DECL_NAME
   tells `__builtin_malloc` from `malloc`, and is the name GCC gave a
   call it created by folding.  */
static const char *
mp_callee_name (const gcall *call)
{
  tree fndecl = gimple_call_fndecl (call);

  return DECL_NAME (fndecl) ? IDENTIFIER_POINTER (DECL_NAME (fndecl))
                            : mp_decl_name (fndecl);
}

/* Replace the known call at GSI by the runtime's.  The replacement
   throws when the original may (callees.cc), so the EH edges stay as
   they are; a call that may throw into a handler here although its
   runtime twin never throws (a header that forgot __THROW) is left
   alone: dropping the handler safely is the job of passes that have
   run already.  */
static void
mp_rewrite_known (gimple_stmt_iterator *gsi, gcall *call,
                  const struct mp_callee *callee, struct mp_walk *walk)
{
  unsigned nargs = gimple_call_num_args (call);
  tree decl = mp_runtime_decl (callee, gimple_call_fndecl (call));
  auto_vec<tree, 8> args (nargs + 1);
  gcall *repl;

  if (TREE_NOTHROW (decl) && stmt_can_throw_internal (cfun, call))
    return;
  const char *name = mp_callee_name (call);
  for (unsigned i = 0; i < nargs; i++)
    args.quick_push (gimple_call_arg (call, i));
  if (callee->sited)
    args.quick_push (mp_emit_site (call, name, callee->kind));
  repl = gimple_build_call_vec (decl, args);
  gimple_call_set_lhs (repl, gimple_call_lhs (call));
  gimple_set_location (repl, gimple_location (call));
  gimple_set_block (repl, gimple_block (call));
  gimple_move_vops (repl, call);
  if (!gimple_vdef (repl))
    walk->todo |= TODO_update_ssa_only_virtuals;
  /* Whatever made the old call end its block (an EH edge, an abnormal
     edge to a setjmp receiver) holds for the new one too.  */
  gimple_call_set_ctrl_altering (repl, gimple_call_ctrl_altering_p (call));
  mp_note (gimple_location (call), name, mp_runtime_name (callee));
  gsi_replace (gsi, repl, true);
}

/* Where the statements that follow CALL go: after it in its block, or,
   when it ends the block (it may throw), on the edge taken when it
   returns.  NULL when there is no single such edge.  */
static edge
mp_return_edge (gcall *call)
{
  edge e, found = NULL;
  edge_iterator ei;

  FOR_EACH_EDGE (e, ei, gimple_bb (call)->succs)
    if (!(e->flags & (EDGE_EH | EDGE_ABNORMAL)))
      {
        if (found)
          return NULL;
        found = e;
      }
  return found;
}

/* The pointer the user allocator returned, as an SSA name that
   __mp_user_end can take.  A result kept in memory or dropped gets a
   temporary; *STORE is then the assignment that puts it back where the
   call wrote it, or NULL.  NULL_TREE when the result is no pointer.  */
static tree
mp_user_result (gcall *call, gimple **store)
{
  tree lhs = gimple_call_lhs (call);
  tree type = lhs ? TREE_TYPE (lhs) : gimple_call_return_type (call);
  tree tmp;

  *store = NULL;
  if (!POINTER_TYPE_P (type))
    return NULL_TREE;
  if (lhs && TREE_CODE (lhs) == SSA_NAME)
    return lhs;
  tmp = make_ssa_name (type);
  if (lhs)
    *store = gimple_build_assign (lhs, tmp);
  gimple_call_set_lhs (call, tmp);
  return tmp;
}

/* took = __mp_user_begin (&site); p = NAME (args);
   if (took) __mp_user_end (p, took);  (the test added after the walk)  */
static void
mp_rewrite_user (gimple_stmt_iterator *gsi, gcall *call,
                 const struct mp_user_allocator *user, struct mp_walk *walk)
{
  location_t loc = gimple_location (call);
  gimple_seq after = NULL;
  gimple *store;
  edge e = NULL;

  if (gimple_call_noreturn_p (call) || gimple_call_must_tail_p (call)
      || gimple_call_va_arg_pack_p (call))
    return;
  if (stmt_ends_bb_p (call) && !(e = mp_return_edge (call)))
    return;
  tree type = gimple_call_lhs (call) ? TREE_TYPE (gimple_call_lhs (call))
                                     : gimple_call_return_type (call);
  if (!POINTER_TYPE_P (type))
    {
      mp_note_unusable (gimple_call_fndecl (call), gimple_location (call),
                        user->name);
      return;
    }

  tree site = mp_emit_site (call, user->name, user->kind);
  tree took = make_ssa_name (integer_type_node);
  gcall *begin = gimple_build_call (mp_helper_decl (MP_HELPER_USER_BEGIN), 1,
                                    site);
  gimple_call_set_lhs (begin, took);
  gimple_set_location (begin, loc);
  gsi_insert_before (gsi, begin, GSI_SAME_STMT);

  tree result = mp_user_result (call, &store);
  gimple_call_set_tail (call, false);
  update_stmt (call);
  if (store)
    gimple_seq_add_stmt (&after, store);
  gcall *end = gimple_build_call (mp_helper_decl (MP_HELPER_USER_END), 2,
                                  result, took);
  gimple_set_location (end, loc);
  gimple_seq_add_stmt (&after, end);
  if (e)
    gsi_insert_seq_on_edge_immediate (e, after);
  else
    gsi_insert_seq_after (gsi, after, GSI_CONTINUE_LINKING);
  walk->ends.safe_push (end);

  if (mp_verbose)
    mp_note_user (gimple_location (call), user, "");
  walk->todo |= TODO_update_ssa_only_virtuals;
}

/* Make END, a call __mp_user_end (p, took) in place, run only when took
   is not 0: a bracket inside another one took nothing and has nothing
   to end, and a test costs less than a call.  The block is split before
   and after END, and a GIMPLE_COND on took ends the first part: its
   true edge goes to END's block, its false one around it.  In SSA form
   the memory state that meets again after END gets its PHI from the
   virtual operands' update the caller asks for; the dominators, which
   the new edge changes, are dropped, to be computed again when
   wanted.  */
void
mp_guard_user_end (gcall *end)
{
  basic_block bb = gimple_bb (end);
  gimple_stmt_iterator gsi = gsi_for_stmt (end);
  gcond *test = gimple_build_cond (NE_EXPR, gimple_call_arg (end, 1),
                                   integer_zero_node, NULL_TREE, NULL_TREE);

  gimple_set_location (test, gimple_location (end));
  gsi_insert_before (&gsi, test, GSI_SAME_STMT);
  edge taken = split_block (bb, test);
  edge after = split_block (taken->dest, end);
  taken->flags = (taken->flags & ~EDGE_FALLTHRU) | EDGE_TRUE_VALUE;
  taken->probability = profile_probability::even ();
  taken->dest->count = bb->count.apply_probability (taken->probability);
  edge skip = make_edge (bb, after->dest, EDGE_FALSE_VALUE);
  skip->probability = taken->probability.invert ();
  free_dominance_info (CDI_DOMINATORS);
  free_dominance_info (CDI_POST_DOMINATORS);
}

/* The runtime's own functions allocate for it: rewriting their calls
   would recurse.  */
bool
mp_runtime_function_p (tree fndecl)
{
  return strncmp (mp_decl_name (fndecl), "__mp_", 5) == 0
         || (DECL_NAME (fndecl)
             && strncmp (IDENTIFIER_POINTER (DECL_NAME (fndecl)), "__mp_",
                         5) == 0);
}

/* Is STMT, textually, in the body of a runtime function that was
   inlined here (a static inline helper of a runtime header)?  */
static bool
mp_inlined_from_runtime_p (const gimple *stmt)
{
  for (tree b = gimple_block (stmt); b && TREE_CODE (b) == BLOCK;
       b = BLOCK_SUPERCONTEXT (b))
    if (inlined_function_outer_scope_p (b))
      {
        tree fn = block_ultimate_origin (b);
        if (fn && TREE_CODE (fn) == FUNCTION_DECL
            && mp_runtime_function_p (fn))
          return true;
      }
  return false;
}

/* The outermost scope of a user allocator inlined around BLOCK, or
   NULL_TREE: the first function scope up from BLOCK, if it is one.  */
static tree
mp_inlined_allocator (tree block)
{
  for (tree b = block; b && TREE_CODE (b) == BLOCK; b = BLOCK_SUPERCONTEXT (b))
    if (inlined_function_outer_scope_p (b))
      {
        tree fn = block_ultimate_origin (b);
        return fn && TREE_CODE (fn) == FUNCTION_DECL
               && mp_find_user_allocator (fn) ? b : NULL_TREE;
      }
  return NULL_TREE;
}

/* Whether BLOCK is inside the body of an inlined function.  */
static bool
mp_in_inlined_p (tree block)
{
  for (tree b = block; b && TREE_CODE (b) == BLOCK; b = BLOCK_SUPERCONTEXT (b))
    if (inlined_function_outer_scope_p (b))
      return true;
  return false;
}

/* A call the early pass added (inline.cc) carries a descriptor of where
   it was then.  If the inliner has moved it since, it gets one of where
   it is now.  Under LTO this unit may not hold the early descriptor's
   initializer (site.cc), so the new one is made from the call and its
   BLOCKs, which LTO streams with the function's body, and takes no more
   than a pop's macro name from the early one.  */

/* A pop of gc_inline.h's, at its place with the chain of functions
   inlined around it; its macro is the early descriptor's callee, or,
   when that descriptor is in another LTO partition, the macro they all
   expand to.  */
static tree
mp_resite_pop (gcall *call)
{
  unsigned last = gimple_call_num_args (call) - 1;  /* the site */
  const char *macro = mp_early_callee (gimple_call_arg (call, last));

  return mp_emit_site_at (gimple_location (call), gimple_block (call),
                          macro ? macro : MP_GC_POP_MACRO, MP_KIND_GC_CARVE);
}

/* The bracket of an inlined allocator, at the place where the allocator
   was called, as the late pass gives a call of it (mp_rewrite_user):
   the BLOCK of the allocator's inlined body is the call's, its origin
   the allocator.  NULL_TREE when the bracket is in no such BLOCK.  */
static tree
mp_resite_bracket (gcall *call)
{
  tree alloc = mp_inlined_allocator (gimple_block (call));

  if (!alloc)
    return NULL_TREE;
  const struct mp_user_allocator *user
    = mp_find_user_allocator (block_ultimate_origin (alloc));
  if (mp_verbose)
    mp_note_user (BLOCK_SOURCE_LOCATION (alloc), user, " (inlined)");
  return mp_emit_site_at (BLOCK_SOURCE_LOCATION (alloc),
                          BLOCK_SUPERCONTEXT (alloc), user->name, user->kind);
}

static void
mp_resite_marker (gcall *call)
{
  unsigned i;
  tree site;

  if (mp_calls_helper (call, MP_HELPER_GC_CARVED))
    i = 3;
  else if (mp_calls_helper (call, MP_HELPER_GC_CARVED_YOUNG))
    i = 2;
  else if (mp_calls_helper (call, MP_HELPER_USER_BEGIN))
    i = 0;
  else
    return;
  if (!mp_is_early_site (gimple_call_arg (call, i))
      || !mp_in_inlined_p (gimple_block (call)))
    return;
  site = i != 0 ? mp_resite_pop (call) : mp_resite_bracket (call);
  if (site)
    {
      gimple_call_set_arg (call, i, site);
      update_stmt (call);
    }
}

/* Whether CALL makes the program need libgc (site.cc's mp_need_libgc):
   a call of Boehm's that the plugin rewrites, a gc_inline.h pop or
   refill that the early pass marked, or a call of memprof.h's that
   starts Boehm (runtime/boehm.c's mp_gc_self).  */
static bool
mp_needs_libgc_p (const gcall *call, const struct mp_callee *callee)
{
  /* memprof.h's functions that start Boehm (runtime/boehm.h,
     mp_gc_self): a new one belongs here.  */
  static const char *const starters[] =
    { "mp_minor", "mp_major", "mp_major_slice", "mp_full_major",
      "mp_compact", "mp_finalise", "mp_finalise_last", "mp_create_alarm",
      "mp_vm_allocated", "mp_vm_slow", "mp_vm_thread" };
  tree fndecl = gimple_call_fndecl (call);

  if (callee)
    return strncmp (callee->name, "GC_", 3) == 0
           || strcmp (callee->name, "mp_vm_allocated") == 0;
  if (!fndecl)
    return false;
  if (mp_calls_helper (call, MP_HELPER_GC_CARVED)
      || mp_calls_helper (call, MP_HELPER_GC_CARVED_YOUNG)
      || mp_calls_helper (call, MP_HELPER_GC_REFILL))
    return true;
  for (unsigned i = 0; i < ARRAY_SIZE (starters); i++)
    if (strcmp (mp_decl_name (fndecl), starters[i]) == 0)
      return true;
  return false;
}

static void
mp_rewrite_call (gimple_stmt_iterator *gsi, gcall *call,
                 struct mp_walk *walk)
{
  const struct mp_callee *callee = mp_match_callee (call);
  tree fndecl = gimple_call_fndecl (call);
  const struct mp_user_allocator *user = NULL;

  if (mp_needs_libgc_p (call, callee))
    mp_need_libgc ();
  if (fndecl != NULL_TREE)
    user = mp_find_user_allocator (fndecl);
  if ((!callee && !user) || mp_inlined_from_runtime_p (call))
    {
      mp_resite_marker (call);
      return;
    }
  if (callee && user)
    mp_note_unusable (fndecl, gimple_location (call), user->name);
  if (callee)
    mp_rewrite_known (gsi, call, callee, walk);
  else
    mp_rewrite_user (gsi, call, user, walk);
}

static unsigned int
mp_execute (function *fun)
{
  struct mp_walk walk;
  basic_block bb;

  if (mp_runtime_function_p (fun->decl))
    return 0;
  walk.todo = 0;
  FOR_EACH_BB_FN (bb, fun)
    for (gimple_stmt_iterator gsi = gsi_start_bb (bb); !gsi_end_p (gsi);
         gsi_next (&gsi))
      if (gcall *call = dyn_cast <gcall *> (gsi_stmt (gsi)))
        mp_rewrite_call (&gsi, call, &walk);
  for (gcall *end : walk.ends)
    mp_guard_user_end (end);
  if (walk.todo & TODO_update_ssa_only_virtuals)
    mark_virtual_operands_for_renaming (fun);
  return walk.todo;
}

static const pass_data mp_pass_data =
{
  GIMPLE_PASS,
  "memprof",                    /* name, for -fdump-tree-all */
  OPTGROUP_NONE,
  TV_NONE,
  PROP_cfg | PROP_ssa,          /* properties_required */
  0, 0, 0, 0
};

class mp_pass : public gimple_opt_pass
{
public:
  mp_pass (gcc::context *ctxt) : gimple_opt_pass (mp_pass_data, ctxt) {}
  unsigned int execute (function *fun) final override
  {
    return mp_execute (fun);
  }
};

int
plugin_init (struct plugin_name_args *info, struct plugin_gcc_version *version)
{
  struct register_pass_info pass;

  if (!plugin_default_version_check (&gcc_version, version))
    {
      fprintf (stderr, "memprof: this plugin was built for GCC %s, not GCC %s\n",
               gcc_version.basever, version->basever);
      return 1;
    }
  register_callback (info->base_name, PLUGIN_INFO, NULL, &mp_plugin_info);
  if (!mp_parse_options (info))
    return 0;                   /* the errors make GCC fail */

  register_callback (info->base_name, PLUGIN_REGISTER_GGC_ROOTS, NULL,
                     (void *) mp_root_tab);
  pass.pass = mp_make_early_pass ();
  pass.reference_pass_name = "cfg";
  pass.ref_pass_instance_number = 1;
  pass.pos_op = PASS_POS_INSERT_AFTER;
  register_callback (info->base_name, PLUGIN_PASS_MANAGER_SETUP, NULL, &pass);
  pass.pass = new mp_pass (g);
  pass.reference_pass_name = "optimized";
  pass.ref_pass_instance_number = 1;
  pass.pos_op = PASS_POS_INSERT_AFTER;
  register_callback (info->base_name, PLUGIN_PASS_MANAGER_SETUP, NULL, &pass);
  return 0;
}
