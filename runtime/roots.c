/* roots.c -- the runtime's own data, and the libraries it loads for
   itself, out of Boehm's roots.

   Boehm scans the data and bss of every loaded object as roots at each
   collection, and paces its collections by their total size
   (GC_root_size): the program's and libmemprof.so's, or, with
   libmemprof.a, the program's with the runtime's among them, and
   those of the libraries the runtime dlopens for itself (libunwind and
   liblzma at the first sample, libdw and its libraries at the report).
   None of them holds a pointer the program needs kept, and each would
   change the program's collections: a copy of a program address in the
   runtime's tables (generations.c's `unfound', stale entries of hash
   tables, ...) keeps alive a block that should die, and 47 kB of
   libunwind's and liblzma's data turned bench/bt-gc.c's 52 collections
   into 81 on some runs.

   The runtime's own data.  The Makefile moves every runtime object's
   data (.data, .data.rel, .data.rel.local) and bss into sections of its
   own, memprof_data and memprof_bss, with objcopy; the linker gathers
   each into one range that __start_ and __stop_ symbols bracket, in the
   program or in libmemprof.so alike, and mp_roots_exclude_own gives
   those to GC_exclude_static_roots, which Boehm applies to every root
   it scans.  The relocated read-only data (.data.rel.ro) is left as it
   is: Boehm does not scan it (PT_GNU_RELRO).  What the runtime
   allocates on Boehm's heap for itself keeps alive without a root:
   finalise.c's records are Boehm's finaliser client data or
   uncollectable blocks.  The objects that hold a pointer the program
   gave memprof to keep are left in ordinary data (MP_GC_ROOT,
   roots.h).

   The libraries the runtime loads.  ownlibs.c notes the writable
   segments of the objects that the runtime's own dlopens brought in.
   Boehm asks its has_static_roots callback about each writable segment
   at each registration of the dynamic libraries (dyn_load.c,
   GC_register_dynlib_callback, before each collection), and leaves out
   those it refuses: out of GC_root_size too, unlike
   GC_exclude_static_roots.  Ours refuses the segments noted, and asks
   the program's callback about the rest, as Boehm would have: none
   (NULL) takes them all.

   Boehm keeps one such callback, set by
   GC_register_has_static_roots_callback, and has no getter for it.
   Defining that setter in the runtime, to keep the program's callback
   and chain to it, works only where the runtime comes before libgc in
   the dynamic linker's search order: with the shared runtime, the
   default, a Boehm program links -lgc before the wrapper adds
   libmemprof.so (its DT_NEEDED come in that order), so its calls bind
   to libgc's setter and ours would never see them.  The plugin's
   rewriting of the calls (hooks.c's way) would miss the code built
   without it.  So the runtime reads the callback where Boehm keeps
   it instead: on x86-64, libgc's setter is `mov %rdi, SLOT(%rip);
   ret', whose SLOT is the variable, and the setter's code, decoded once,
   proves it (it must be that instruction, and SLOT must be in libgc's
   writable data, aligned).  At start-up, and after each collection,
   whatever callback is in SLOT and is not ours is the program's: it is
   kept to chain to, and ours goes back in its place, by a
   compare-and-swap, so that a setter's call in between is never lost.
   A program that sets its callback, before memprof starts Boehm or
   after, from any object, thus keeps its callback's every decision on
   its own sections; the one collection that may run between its
   setter's call and our next look scans memprof's libraries as before
   (the callback the program set is Boehm's alone then).  A Boehm whose
   setter is not that instruction (another architecture, a build with
   other flags) gets no callback from us, and scans those libraries as
   before.

   A library that the runtime loaded and that the program opens later
   (its own dlopen of libz.so.1, say, which returns the same link map)
   stays refused.  libdw, libelf and the compression libraries keep the
   state a caller gives them (a Dwfl and its callbacks, a z_stream's
   buffers) in memory that the caller or malloc provides, which Boehm
   never scans as roots either, never in their own static data; their
   static data holds their own caches and tables.  libunwind does keep
   one thing of its caller's there: the list of procedures registered
   at run time (_U_dyn_register, a JIT's), whose entries a program may
   allocate on Boehm's heap; its segment is scanned again while that
   list is not empty (callstack.c watches its head, ownlibs.c's
   mp_own_watch).  What libdw opens by itself later (libdebuginfod and
   some thirty libraries, when a module's debug information is not on
   the disk) is not refused at all: libcurl's and its libraries' static
   data may hold what their caller gave them.  The malloc that fills those is glibc's, through the
   runtime's interposers, not Boehm's heap; a program with a malloc of
   its own, which may well allocate from Boehm's heap, has none of its
   libraries' data refused (mp_libc_program_malloc).  The runtime does
   not interpose dlopen to notice the program's: a dlopen in front of
   the C library's would take the caller's DT_RUNPATH and $ORIGIN from
   the runtime instead of the caller.  */

#include <dlfcn.h>
#include <link.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include "dynlibs.h"
#include "libc.h"
#include "ownlibs.h"
#include "roots.h"

#include "gcweak.h"

/* The bounds of memprof_NAME, as the linker defines them.  Weak: an
   executable may take from libmemprof.a no object with such data.  */
#define OWN_SECTION(name)                                                   \
  extern char __start_memprof_##name[]                                      \
    __attribute__ ((weak, visibility ("hidden")));                          \
  extern char __stop_memprof_##name[]                                       \
    __attribute__ ((weak, visibility ("hidden")))

OWN_SECTION (data);
OWN_SECTION (bss);

static void
exclude (char *start, char *stop)
{
  if (start != NULL && stop > start)
    GC_exclude_static_roots (start, stop);
}

/* ---- the callback ------------------------------------------------------- */

/* Boehm's callback variable (see above), found once by
   mp_roots_exclude_own, before our collection hooks are in place:
   NULL if not proven.  */
static GC_has_static_roots_func *boehm_slot;

/* The program's callback, chained after ours: what Boehm held when we
   last took its place.  Written by mp_roots_exclude_own, once, before
   the runtime sees any collection, and then by mp_roots_collected,
   under Boehm's lock; read by the collector.  */
static _Atomic (GC_has_static_roots_func) chained;

static int GC_CALLBACK
on_section (const char *name, void *start, size_t size)
{
  if (mp_own_segment ((uintptr_t) start, size))
    return 0;
  GC_has_static_roots_func fn = atomic_load (&chained);
  return fn == NULL || fn (name, start, size);
}

/* Put ours in Boehm's variable, keeping what was there, unless it is
   ours already.  */
static void
take_slot (void)
{
  GC_has_static_roots_func now = __atomic_load_n (boehm_slot,
                                                  __ATOMIC_ACQUIRE);
  if (now == on_section)
    return;
  atomic_store (&chained, now);
  /* A setter's call since the load wins: the next look keeps it.  */
  __atomic_compare_exchange_n (boehm_slot, &now, on_section, 0,
                               __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
}

/* ---- finding Boehm's variable ------------------------------------------- */

struct find_slot
{
  uintptr_t code, slot;
  int code_seen, slot_writable;
};

/* Whether the object that holds S->code also holds S->slot in a
   writable segment.  */
static int
check_object (struct dl_phdr_info *info, size_t size, void *data)
{
  struct find_slot *s = data;
  int code = 0, slot = 0;
  (void) size;
  for (int i = 0; i < info->dlpi_phnum; i++)
    {
      const ElfW (Phdr) *ph = &info->dlpi_phdr[i];
      uintptr_t lo = info->dlpi_addr + ph->p_vaddr;
      if (ph->p_type != PT_LOAD)
        continue;
      code |= s->code - lo < ph->p_memsz && (ph->p_flags & PF_X);
      slot |= s->slot - lo < ph->p_memsz && (ph->p_flags & PF_W);
    }
  if (!code)
    return 0;
  s->code_seen = 1;
  s->slot_writable = slot;
  return 1;
}

/* Under Boehm's lock, as Boehm's own walks of the objects are: glibc
   does not make dl_iterate_phdr's lock again in a child, which a fork
   during a walk would leave held there, and Boehm's prepare handler
   takes its lock before fork.  */
static void *
check_objects (void *s)
{
  dl_iterate_phdr (check_object, s);
  return NULL;
}

static GC_has_static_roots_func *
find_boehm_slot (void)
{
#if defined __x86_64__
  if (mp_libc_handle () == NULL)
    return NULL;              /* static: the runtime loads no library */
  const unsigned char *f
    = dlsym (RTLD_DEFAULT, "GC_register_has_static_roots_callback");
  static const unsigned char mov_rdi_rip[3] = { 0x48, 0x89, 0x3d };
  /* A build with -fcf-protection (Ubuntu's, Fedora's) starts each
     function with endbr64.  */
  static const unsigned char endbr64[4] = { 0xf3, 0x0f, 0x1e, 0xfa };
  if (f != NULL && memcmp (f, endbr64, sizeof endbr64) == 0)
    f += sizeof endbr64;
  if (f == NULL || memcmp (f, mov_rdi_rip, 3) != 0 || f[7] != 0xc3)
    return NULL;
  int32_t disp;
  memcpy (&disp, f + 3, sizeof disp);
  struct find_slot s = { (uintptr_t) f, (uintptr_t) f + 7 + disp, 0, 0 };
  if (s.slot % sizeof (void *) != 0)
    return NULL;
  GC_call_with_alloc_lock (check_objects, &s);
  return s.code_seen && s.slot_writable
         ? (GC_has_static_roots_func *) s.slot : NULL;
#else
  return NULL;
#endif
}

/* Set before the first exclusion.  A child forked while another thread
   was excluding cannot tell which ranges Boehm has, and Boehm aborts on
   a range excluded twice: that child goes without the rest, its
   collections scanning some of the runtime's data as roots.  */
static int excluding;

void
mp_roots_exclude_own (void)
{
  if (!excluding)
    {
      excluding = 1;
      exclude (__start_memprof_data, __stop_memprof_data);
      exclude (__start_memprof_bss, __stop_memprof_bss);
    }
  if (!mp_libc_program_malloc ())
    boehm_slot = find_boehm_slot ();
  if (boehm_slot != NULL)
    take_slot ();
}

void
mp_roots_collected (void)
{
  if (boehm_slot != NULL)
    take_slot ();
}
