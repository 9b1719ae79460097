/* gcweak.h -- Boehm GC's declarations, every function and variable of
   libgc that the runtime uses referenced weakly.

   A program that never uses the GC heap should not pay for loading
   libgc (issue 18: some 0.1 ms of a short process's start).  So the
   runtime's references to libgc are weak: libmemprof.so has no
   DT_NEEDED on libgc, and an executable with libmemprof.a linked in
   records libgc only if the program itself needs it (the linker's
   --as-needed, which Debian's gcc passes, counts strong references
   alone).  A program that does use the GC heap gets libgc by a strong
   reference of its own: its calls of gc.h's functions that the plugin
   did not rewrite, a library that uses Boehm, or the one that the
   plugin puts in each unit where it rewrote a GC call
   (plugin/site.cc's mp_need_libgc); the compiler wrappers link -lgc
   under --as-needed for it.

   Where libgc is not loaded, these names are null: mp_gc_linked says
   which, and every path that calls Boehm is behind it, or behind what
   implies it (mp_gc_started, a thread registered with Boehm, a GC entry
   point, which only a program with libgc calls).  Every runtime file
   that uses Boehm includes this header instead of gc.h; the Makefile
   checks that the runtime has no strong reference to a GC_ symbol left,
   so a call added without its line here fails the build.  */

#ifndef MEMPROF_GCWEAK_H
#define MEMPROF_GCWEAK_H

/* Boehm's declarations for threads, without its redirections of
   pthread_create, pthread_sigmask, dlopen and their kin to GC_ wrappers:
   the runtime calls the real ones, and a redirected call would be a
   weak GC_ reference, null in a program without libgc.  */
#define GC_THREADS
#define GC_NO_THREAD_REDIRECTS
#include <gc.h>
#include <gc/gc_inline.h>
#include <gc/gc_mark.h>
#include <gc/gc_typed.h>

/* libgc's functions and variables that the runtime uses.  */
#define MP_GC_SYMBOLS(X) \
  X (GC_allow_register_threads) X (GC_base) X (GC_call_with_alloc_lock) \
  X (GC_calloc_explicitly_typed) X (GC_collect_a_little) X (GC_debug_free) \
  X (GC_debug_malloc) X (GC_debug_malloc_atomic) \
  X (GC_debug_malloc_atomic_ignore_off_page) \
  X (GC_debug_malloc_atomic_uncollectable) \
  X (GC_debug_malloc_ignore_off_page) X (GC_debug_malloc_uncollectable) \
  X (GC_debug_realloc) X (GC_debug_strdup) X (GC_debug_strndup) \
  X (GC_enable_incremental) X (GC_enumerate_reachable_objects_inner) \
  X (GC_exclude_static_roots) X (GC_expand_hp) X (GC_free) X (GC_gcollect) \
  X (GC_gcollect_and_unmap) X (GC_generic_malloc) \
  X (GC_generic_malloc_ignore_off_page) X (GC_generic_malloc_many) \
  X (GC_generic_malloc_uncollectable) X (GC_get_free_bytes) \
  X (GC_get_free_space_divisor) X (GC_get_heap_size) \
  X (GC_get_java_finalization) X (GC_get_kind_and_size) \
  X (GC_get_on_collection_event) X (GC_get_on_heap_resize) \
  X (GC_get_parallel) \
  X (GC_get_stack_base) X (GC_get_start_callback) X (GC_get_version) \
  X (GC_greatest_plausible_heap_addr) X (GC_init) X (GC_invoke_finalizers) \
  X (GC_is_heap_ptr) X (GC_is_incremental_mode) X (GC_is_init_called) \
  X (GC_is_marked) X (GC_least_plausible_heap_addr) X (GC_malloc) \
  X (GC_malloc_atomic) X (GC_malloc_atomic_ignore_off_page) \
  X (GC_malloc_atomic_uncollectable) X (GC_malloc_explicitly_typed) \
  X (GC_malloc_explicitly_typed_ignore_off_page) \
  X (GC_malloc_ignore_off_page) X (GC_malloc_kind) \
  X (GC_malloc_kind_global) X (GC_malloc_many) X (GC_malloc_uncollectable) \
  X (GC_memalign) X (GC_posix_memalign) X (GC_realloc) \
  X (GC_register_finalizer) X (GC_register_finalizer_ignore_self) \
  X (GC_register_finalizer_no_order) X (GC_register_finalizer_unreachable) \
  X (GC_register_long_link) X (GC_register_my_thread) \
  X (GC_set_free_space_divisor) X (GC_set_handle_fork) \
  X (GC_set_on_collection_event) X (GC_set_on_heap_resize) \
  X (GC_set_start_callback) X (GC_should_invoke_finalizers) X (GC_size) \
  X (GC_strdup) X (GC_strndup) X (GC_thread_is_registered) \
  X (GC_unregister_long_link) X (GC_unregister_my_thread)

/* Weak, but in runtime/static/linked.c, which defines MP_GC_STRONG:
   a weak reference takes no member out of an archive, and a -static
   link, which has libgc.a, must take every one the runtime calls.  */
#ifndef MP_GC_STRONG
#define MP_GC_PRAGMA(text) _Pragma (#text)
#define MP_GC_WEAK(name) MP_GC_PRAGMA (weak name)
MP_GC_SYMBOLS (MP_GC_WEAK)

/* Whether libgc was in the process when the runtime was loaded: the
   dynamic linker's answer, fixed before any code runs.  A libgc that
   dlopen brings in later leaves it null, and the runtime then goes on
   without Boehm (see the README, "Boehm GC").  One symbol answers for
   all: a libgc older than the runtime's (8.0 has every one of
   MP_GC_SYMBOLS) would leave the ones it lacks null, where strong
   references would have failed at load.  */
static inline int
mp_gc_linked (void)
{
  return GC_is_init_called != NULL;
}
#endif

#endif
