/* memprof.h -- declarations shared by the files of the memprof GCC plugin.

   memprof.cc  plugin entry, version check, the pass and the call rewrite
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
bool mp_parse_options (const struct plugin_name_args *);
const struct mp_user_allocator *mp_find_user_allocator (tree fndecl);
void mp_protect_user_allocators (void *, void *);

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
tree mp_runtime_decl (const struct mp_callee *);
const char *mp_runtime_name (const struct mp_callee *);
tree mp_user_begin_decl (void);
tree mp_user_end_decl (void);
const char *mp_decl_name (tree);

/* site.cc  */
tree mp_site_pointer_type (void);
tree mp_emit_site (const gimple *, const char *callee, unsigned kind);

/* The trees the plugin keeps across functions: GGC roots, registered by
   memprof.cc.  */
enum mp_root
{
  MP_ROOT_SITE_TYPE, MP_ROOT_SITE_PTR_TYPE, MP_ROOT_FRAME_TYPE,
  MP_ROOT_FRAME_PTR_TYPE, MP_ROOT_USER_BEGIN,
  MP_ROOT_USER_END, MP_ROOT_CALLEE0,
  MP_ROOT_COUNT = MP_ROOT_CALLEE0 + 64
};
extern tree mp_roots[MP_ROOT_COUNT];

#endif
