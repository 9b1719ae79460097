/* symbols.c -- from a return address to the frames a debugger shows
   there: function, file and line, inlined frames included (frames.c).

   libdwfl finds the module of an address among those of the process, as
   /proc/self/maps lists them.  The first lookup reads the process's
   modules (some tens of ms); later ones are cached per address, so each
   distinct address is looked up once.  Everything here is under `lock`;
   the strings are libdw's and live as long as the process, since `dwfl`
   is never ended.  Functions are shown by the names namesakes.c gives
   them, which tell namesakes apart by where they are defined: when one
   is renamed, so are the cached frames.  */

#include <elfutils/libdwelf.h>
#include <elfutils/libdwfl.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "guest.h"
#include "internal.h"
#include "frames.h"
#include "namesakes.h"
#include "symbols.h"
#include "fork.h"

struct symbolised
{
  uintptr_t pc;
  struct symbolised *replaced;  /* the frames of PC before a renaming,
                                   which readers may hold: kept */
  size_t n;
  struct mp_frame frames[];
};

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static Dwfl *dwfl;              /* the process's modules, once reported */
static int reported_at;         /* dwfl's report count, to add new ones */

/* The addresses looked up so far, numbered in `cache_index' by address;
   each lives as long as the process, since its frames are handed out.  */
static struct symbolised **cached;
static size_t n_cached, cap_cached;
static struct mp_index cache_index;
static uintptr_t sought;        /* the address `same_pc' compares with */

/* The units of dwfl's modules listed so far (frames.c).  */
static struct mp_units units;

/* (Re)report the modules mapped now: those dlopen'ed since show up.  */
static int
report_modules (void)
{
  if (dwfl == NULL && (dwfl = dwfl_begin (&mp_module_callbacks)) == NULL)
    return -1;
  dwfl_report_begin_add (dwfl);
  int rc = dwfl_linux_proc_report (dwfl, getpid ());
  dwfl_report_end (dwfl, NULL, NULL);
  reported_at++;
  return rc == 0 ? 0 : -1;
}

static Dwfl_Module *
module_of (uintptr_t pc)
{
  if (dwfl == NULL && report_modules () != 0)
    return NULL;
  Dwfl_Module *m = dwfl_addrmodule (dwfl, pc);
  if (m == NULL && reported_at < 16 && report_modules () == 0)
    m = dwfl_addrmodule (dwfl, pc);
  return m;
}

/* Up to MAX frames of PC into OUT, where their functions are defined
   into DEFINED_IN; return how many.  */
static size_t
frames_of (uintptr_t pc, struct mp_frame *out, struct mp_defined *defined_in,
           size_t max)
{
  Dwfl_Module *m = module_of (pc);
  return m ? mp_module_frames (&units, m, pc, out, defined_in, max) : 0;
}

static int
same_pc (size_t item, void *ctx)
{
  (void) ctx;
  return cached[item]->pc == sought;
}

/* C++'s demangler, in the C++ library, if the process has one.  */
extern char *__cxa_demangle (const char *name, char *buf, size_t *n,
                             int *status) __attribute__ ((weak));

/* NAME, demangled if it is a C++ symbol (the symbol table's names are;
   DWARF's are not): a string of its own, which lives as long as the
   frames cache.  */
static const char *
demangled (const char *name)
{
  if (strncmp (name, "_Z", 2) != 0 || __cxa_demangle == NULL)
    return name;
  int status;
  char *d = __cxa_demangle (name, NULL, NULL, &status);
  return d != NULL ? d : name;
}

/* Function OLD is shown as NOW from now on (namesakes.c): the cached
   addresses that show it get copies of their frames that show NOW.  The
   old frames may be in use outside the lock, and live on in the copy's
   `replaced'.  */
static void
renamed (const char *old, const char *now, void *data)
{
  (void) data;
  for (size_t i = 0; i < n_cached; i++)
    {
      struct symbolised *s = cached[i], *copy = NULL;
      for (size_t j = 0; j < s->n; j++)
        if (s->frames[j].function == old)
          {
            size_t size = sizeof *s + s->n * sizeof *s->frames;
            if (copy == NULL && (copy = malloc (size)) != NULL)
              {
                memcpy (copy, s, size);
                copy->replaced = s;
              }
            if (copy != NULL)
              copy->frames[j].function = now;
          }
      if (copy != NULL)
        cached[i] = copy;
    }
}

/* The name function NAME, defined at D, is shown by: demangled, its
   namesakes told apart.  */
static const char *
shown (const char *name, struct mp_defined d)
{
  if (strcmp (name, "??") == 0)
    return name;
  return mp_namesake_shown (demangled (name), d.file, d.line, renamed, NULL);
}

/* The frames at return address RA (looked up at RA - 1, inside the
   call); NULL if there is no memory.  */
static struct symbolised *
lookup (uintptr_t ra)
{
  uint64_t h = mp_hash_address (ra);
  sought = ra;
  size_t *slot = mp_index_find (&cache_index, h, same_pc, NULL);
  if (slot == NULL)
    return NULL;
  if (*slot)
    return cached[*slot - 1];
  if (mp_reserve (&cached, &cap_cached, n_cached, sizeof *cached) != 0)
    return NULL;
  struct mp_frame frames[64];
  struct mp_defined defined_in[64];
  size_t n = frames_of (ra - 1, frames, defined_in, 64);
  if (n == 0)
    {
      frames[n] = (struct mp_frame) { "??", NULL, 0, 0 };
      defined_in[n++] = (struct mp_defined) { NULL, 0 };
    }
  for (size_t i = 0; i < n; i++)
    frames[i].function = shown (frames[i].function, defined_in[i]);
  struct symbolised *s = malloc (sizeof *s + n * sizeof *frames);
  if (s == NULL)
    return NULL;
  s->pc = ra;
  s->replaced = NULL;
  s->n = n;
  memcpy (s->frames, frames, n * sizeof *frames);
  /* frames_of made no lookups, so SLOT is still good.  */
  if (mp_index_add (&cache_index, slot, h) != 0)
    {
      free (s);
      return NULL;
    }
  cached[n_cached++] = s;
  return s;
}

/* The frames of RA into *FRAMES: a C address's, or a guest frame's
   (guest.c), whose provider is called without our lock.  */
static size_t
frames_at (uintptr_t ra, const struct mp_frame **frames)
{
  static const struct mp_frame unknown = { "??", NULL, 0, 0 };
  if (mp_is_guest (ra))
    {
      *frames = mp_guest_frame (ra);
      return *frames != NULL;
    }
  mp_quiet_begin ();             /* libdw's allocations are ours */
  pthread_mutex_lock (&lock);
  struct symbolised *s = lookup (ra);
  pthread_mutex_unlock (&lock);
  mp_quiet_end ();
  *frames = s ? s->frames : &unknown;
  return s ? s->n : 1;
}

/* The guest frames are not counted against MAX: where they show
   outermost, beyond a stack that callstack_size cut, they are all that
   says which guest procedure allocated.  */
size_t
mp_symbolise (const uintptr_t *ras, size_t n_ras, struct mp_frame *out,
              size_t max)
{
  size_t n = 0, c = 0;
  for (size_t i = 0; i < n_ras; i++)
    {
      int guest = mp_is_guest (ras[i]);
      if (!guest && c == max)
        continue;
      const struct mp_frame *frames;
      size_t k = frames_at (ras[i], &frames);
      for (size_t j = 0; j < k && (guest || c < max); j++)
        {
          out[n++] = frames[j];
          c += !guest;
        }
    }
  return n;
}

size_t
mp_symbolise_one (uintptr_t ra, const struct mp_frame **frames)
{
  return frames_at (ra, frames);
}

/* Whether module M's own file holds its DWARF: not a system library,
   stripped with a .gnu_debuglink to its debugging information apart.  */
static int
own_dwarf (Dwfl_Module *m)
{
  GElf_Addr bias;
  GElf_Word crc;
  Elf *elf = dwfl_module_getelf (m, &bias);
  return elf != NULL && dwelf_elf_gnu_debuglink (elf, &crc) == NULL;
}

struct mp_frame
mp_symbolise_caller (uintptr_t ra)
{
  mp_quiet_begin ();
  pthread_mutex_lock (&lock);
  Dwfl_Module *m = module_of (ra - 1);
  int whole = m != NULL && own_dwarf (m);
  const char *name = m != NULL && !whole ? dwfl_module_addrname (m, ra - 1)
                                         : NULL;
  struct mp_defined d = {
    name ? dwfl_module_info (m, NULL, NULL, NULL, NULL, NULL, NULL, NULL)
         : NULL, 0
  };
  struct mp_frame f = { shown (name ? name : "??", d), NULL, 0, 0 };
  pthread_mutex_unlock (&lock);
  mp_quiet_end ();
  if (whole)
    {
      const struct mp_frame *frames;
      frames_at (ra, &frames);
      f = frames[0];
    }
  return f;
}

/* See fork.c.  */
void
mp_symbols_fork (enum mp_fork_step step)
{
  mp_fork_mutex (&lock, step);
}
