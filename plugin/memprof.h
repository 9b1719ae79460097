/* memprof.h -- declarations shared by the files of the memprof GCC plugin.

   memprof.cc  plugin entry, version check, the pass and the call rewrite
   inline.cc   the early pass: gc_inline.h's pops, inlined allocators
   options.cc  -fplugin-arg-memprof-KEY[=VALUE] and the user allocators
   callees.cc  the known allocation functions and their runtime twins
   site.cc     the static `struct mp_site` descriptors (runtime/site.h)  */

#ifndef MEMPROF_PLUGIN_H
#define MEMPROF_PLUGIN_H

#include "gcc-plugin.h"
#include "tree.h"
#include "stringpool.h"
#include "gimple.h"
#include "ssa.h"
#include "ggc.h"

/* The descriptor ABI and the site kinds come from the runtime's own
   header, so that the two cannot drift apart.  */
#include "../runtime/site.h"

/* options.cc  */
struct mp_user_allocator
{
  const char *name;             /* as given on the command line */
  const char *family;           /* "malloc", "gc", ... */
  unsigned kind;                /* enum mp_site_kind, MP_KIND_USER_* */
};

extern bool mp_verbose;
/* The statistics this unit's sites leave out (site.h's stats_omitted and
   per_call_omitted): none unless stats= or per-call= say.  */
extern unsigned mp_stats_omitted, mp_per_call_omitted;
bool mp_parse_options (const struct plugin_name_args *);
const struct mp_user_allocator *mp_find_user_allocator (tree fndecl);

/* memprof.cc: the runtime's own functions, which are left alone; the
   verbose note of a rewritten call (at LOC) of CALLEE.  */
bool mp_runtime_function_p (tree fndecl);
void mp_guard_user_end (gcall *end);
void mp_note (location_t, const char *callee, const char *runtime);

/* inline.cc: the early pass, and a note for an allocator= that cannot be
   used (the call of DECL, spelled NAME, at LOC).  */
opt_pass *mp_make_early_pass (void);
void mp_note_unusable (tree decl, location_t loc, const char *name);
/* The macro that all of gc_inline.h's allocation macros expand to: the
   callee of a pop when the macro the user wrote is not known.  */
#define MP_GC_POP_MACRO "GC_FAST_MALLOC_GRANS"

/* callees.cc  */
struct mp_callee
{
  const char *name;             /* as the C library or gc.h spells it */
  enum built_in_function code;  /* END_BUILTINS when GCC has none */
  unsigned sig;                 /* index into callees.cc's signatures */
  unsigned kind;                /* enum mp_site_kind */
  bool fresh;                   /* returns a new block: malloc attribute */
  bool nothrow;                 /* declared so by its own header */
  bool sited;                   /* the runtime takes a site descriptor */
};

const struct mp_callee *mp_match_callee (const gcall *);
const struct mp_callee *mp_find_callee_name (const char *);
tree mp_runtime_decl (const struct mp_callee *, tree original);
const char *mp_runtime_name (const struct mp_callee *);
/* The runtime's functions for what the plugin adds itself.  */
enum mp_helper
{
  MP_HELPER_USER_BEGIN, MP_HELPER_USER_END, MP_HELPER_GC_CARVED,
  MP_HELPER_GC_CARVED_YOUNG, MP_HELPER_GC_REFILL, MP_HELPER_COUNT
};
tree mp_helper_decl (enum mp_helper);
bool mp_calls_helper (const gcall *, enum mp_helper);
const char *mp_decl_name (tree);

/* site.cc  */
tree mp_site_pointer_type (void);
tree mp_emit_site (const gimple *, const char *callee, unsigned kind);
tree mp_emit_site_at (location_t, tree block, const char *callee,
                      unsigned kind);
tree mp_emit_early_site (const gimple *, const char *callee, unsigned kind);
bool mp_is_early_site (tree);
void mp_need_libgc (void);
const char *mp_early_callee (tree early);

/* The trees the plugin keeps across functions: GGC roots, registered by
   memprof.cc.  */
enum mp_root
{
  MP_ROOT_SITE_TYPE, MP_ROOT_SITE_PTR_TYPE, MP_ROOT_FRAME_TYPE,
  MP_ROOT_FRAME_PTR_TYPE, MP_ROOT_HELPER0,
  MP_ROOT_CALLEE0 = MP_ROOT_HELPER0 + MP_HELPER_COUNT,
  MP_ROOT_COUNT = MP_ROOT_CALLEE0 + 96
};
extern tree mp_roots[MP_ROOT_COUNT];

#endif
