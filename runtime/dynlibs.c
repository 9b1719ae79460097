/* dynlibs.c -- the libraries only the report needs, opened with dlopen
   the first time it needs them (dynlibs.h says why).

   Each is opened RTLD_LOCAL, so that its symbols never replace the
   program's, and RTLD_LAZY, so that only the functions called are
   bound; a program linked with the library itself (-ldw, -lz) gets the
   copy it has.  A library that cannot be opened, or lacks one of the
   functions, is not used at all; its loader says why each time it is
   asked, and the caller warns once.  A -static link has them linked
   in instead (static/linked.c).  */

#include <dlfcn.h>
#include <pthread.h>
#include <stddef.h>
#include <stdatomic.h>
#include "dynlibs.h"
#include "ownlibs.h"

struct mp_dw mp_dw;
struct mp_z mp_z;

/* A library's state, written once under its pthread_once.  */
struct lib
{
  pthread_once_t once;
  const char *why;              /* NULL once loaded */
};

static struct lib dw = { PTHREAD_ONCE_INIT, NULL };
static struct lib z = { PTHREAD_ONCE_INIT, NULL };

/* The tables of a -static link, which carries the libraries
   (static/linked.c); absent otherwise.  */
extern const struct mp_dw mp_dw_linked __attribute__ ((weak));
extern const struct mp_z mp_z_linked __attribute__ ((weak));

/* The shared libc's handle, asked for once: it is mapped in every
   dynamic process and never in a static one, and asking for it with
   RTLD_NOLOAD loads nothing.  Two threads asking at once both store the
   same handle.  */
static void *_Atomic libc_handle;
static atomic_int libc_asked;

void *
mp_libc_handle (void)
{
  if (!atomic_load_explicit (&libc_asked, memory_order_acquire))
    {
      void *h = dlopen ("libc.so.6", RTLD_LAZY | RTLD_NOLOAD);
      atomic_store (&libc_handle, h);
      atomic_store_explicit (&libc_asked, 1, memory_order_release);
    }
  return atomic_load (&libc_handle);
}

/* SONAME opened, or NULL with L->why set.  */
static void *
open_lib (struct lib *l, const char *soname)
{
  if (mp_libc_handle () == NULL)
    {
      l->why = "a static executable cannot load it: link with "
               "memprof-gcc -static, which links it in";
      return NULL;
    }
  void *h = mp_own_dlopen (soname, RTLD_LAZY | RTLD_LOCAL);
  if (h == NULL)
    l->why = dlerror ();
  return h;
}

/* H's function NAME, or NULL with L->why set.  */
static void *
find (struct lib *l, void *h, const char *name)
{
  void *f = h ? dlsym (h, name) : NULL;
  if (f == NULL && l->why == NULL)
    l->why = dlerror ();
  return f;
}

/* dlsym gives functions as void *, which POSIX lets a function pointer
   be converted from.  */
#define FIND_DW(name) \
  mp_dw.name = (__typeof__ (mp_dw.name)) find (l, h, #name);
#define FIND_Z(name) \
  mp_z.name = (__typeof__ (mp_z.name)) find (l, h, #name);

static void
load_dw (void)
{
  if (&mp_dw_linked != NULL)
    {
      mp_dw = mp_dw_linked;
      return;
    }
  struct lib *l = &dw;
  void *h = open_lib (l, "libdw.so.1");
  MP_DW_FUNCTIONS (FIND_DW)
}

static void
load_z (void)
{
  if (&mp_z_linked != NULL)
    {
      mp_z = mp_z_linked;
      return;
    }
  struct lib *l = &z;
  void *h = open_lib (l, "libz.so.1");
  MP_Z_FUNCTIONS (FIND_Z)
}

int
mp_dw_load (const char **why)
{
  pthread_once (&dw.once, load_dw);
  *why = dw.why;
  return dw.why ? -1 : 0;
}

int
mp_z_load (const char **why)
{
  pthread_once (&z.once, load_z);
  *why = z.why;
  return z.why ? -1 : 0;
}
