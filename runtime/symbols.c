/* symbols.c -- from a return address to the frames a debugger shows
   there: function, file and line, inlined frames included (frames.c).

   Design.  The report's work at exit must be in proportion to what it
   prints, so nothing is read before a frame is asked for, and then only
   what the asker needs:

   - libdw is loaded (dynlibs.c) at the first lookup, and libdwfl finds
     the module of an address among those of the process, as
     /proc/self/maps lists them, which are read only for an address
     outside the executable; the files of a module are opened at its
     first lookup;
   - a frame is asked for with its name alone or with its position too
     (symbols.h): the names come from the scopes of the address's unit,
     the positions need the unit's line table as well;
   - a module's DWARF is read only if the program's allocation sites are
     in it (it was built with the plugin), or if it is not compressed.
     Compressed DWARF is inflated whole by libdw before anything is read
     of it: libc's separate debug information (under /usr/lib/debug, as
     libc6-dbg installs it) is megabytes of it, inflated to name the odd
     frame of libc inside a stack, such as qsort's below a comparison
     function.  Such frames are named from the symbol table alone (the
     debug file's, which is not compressed), without a position.

   Each distinct address is looked up once for its names and once more
   if its position is asked for later; the lookups are cached.  When
   there is nothing to name by, libdw not loadable or /proc/self/maps not
   readable, one warning says so and frames show their addresses (but
   the executable's, which the maps are not needed for).

   Everything here is under `lock'; the strings are libdw's or the
   cache's and live as long as the process, since `dwfl' is never ended
   and no cached lookup is freed.

   Functions are shown by the names namesakes.c gives them, which tell
   namesakes apart by where they are defined (frames.c): when one is
   renamed, so are the cached frames.

   An object that dlclose unloads (unload.c) leaves its addresses to
   whatever is mapped there next.  Its frames, named while it was
   mapped, are kept under words of their own (mp_symbols_retire), which
   the profile's stacks hold from then on; its cached lookups are
   stale, and so is its module in `dwfl': an address there is looked
   up again, once the maps have been reported since the latest load,
   in the module mapped there then, if any.  */

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <link.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/stat.h>
#include <unistd.h>
#include "callstack.h"
#include "frames.h"
#include "guest.h"
#include "alloc.h"
#include "messages.h"
#include "namesakes.h"
#include "symbols.h"
#include "index.h"
#include "fork.h"
#include "sites.h"
#include "symtab.h"

/* One address's frames, as asked for: with positions if LINES.  */
struct symbolised
{
  uintptr_t ra;
  size_t n;
  enum mp_symbols want;
  struct symbolised *older;     /* the lookup this one replaced, with
                                   positions or after a renaming: its
                                   frames may have been handed out */
  int stale;                    /* its object is unloaded: look again */
  char address[2 + 2 * sizeof (uintptr_t) + 1];  /* its name, if unknown */
  struct mp_frame frames[];
};

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

/* Replacements of a cached lookup (for positions, or after a renaming):
   written under `lock', read outside it by each thread's memo.  */
static _Atomic uint64_t replacements;

/* A thread's latest answers, direct-mapped by address, so that the
   report's passes over every frame of every record (thousands of
   records sharing a few hundred return addresses) take neither the lock
   nor the index.  An entry holds while `replacements' is what it was
   when the entry was made: no cached lookup is freed, but one may be
   replaced.  Owner thread only.  */
#define MEMO_SIZE 256
struct memo_entry
{
  uintptr_t ra;
  uint64_t replacements;
  const struct symbolised *s;   /* NULL: empty */
};
static __thread struct memo_entry memo[MEMO_SIZE];
static Dwfl *dwfl;              /* the process's modules, once reported */
static int reported_at;         /* dwfl's report count, to add new ones */
static int no_symbols;          /* without libdw: addresses only */

/* The addresses looked up so far, numbered in `cache_index' by address.
   A lookup with positions replaces one without, and a renaming copies
   the lookups it changes; the one replaced stays allocated (see
   `older').  */
static struct symbolised **cached;
static size_t n_cached, cap_cached;
static struct mp_index cache_index;
static uintptr_t sought;        /* the address `same_ra' compares with */

/* The frames of unloaded objects' addresses, by the number in the words
   that stand for them (mp_symbols_retire): each a lookup made while
   its object was mapped.  */
static struct symbolised **gone;
static size_t n_gone, cap_gone;
/* The same, numbered alike in `gone_index' by their frames' text
   (frames_hash), so that each retirement finds its like at once: a
   plugin loaded and unloaded many times retires as many frames each
   time as its stacks hold.  */
static struct mp_index gone_index;

/* The modules of `dwfl' whose objects are unloaded, until the maps
   show them again (a file loaded again where it was), and the loader's
   count of loads when the maps were last reported.  */
static Dwfl_Module **stale_modules;
static size_t n_stale, cap_stale;
static unsigned long long loads_reported;

/* The units of dwfl's modules listed so far (frames.c).  */
static struct mp_units units;

/* Whether each module's DWARF is read (see above), once decided.  */
struct module
{
  Dwfl_Module *m;
  unsigned what;                /* MP_FRAMES_DWARF or 0 */
};
static struct module *modules;
static size_t n_modules, cap_modules;

/* ---- the modules of the process ----------------------------------------

   They are the files mapped in /proc/self/maps, reported to dwfl as
   dwfl_linux_proc_report reports them (elfutils 0.188,
   linux-proc-maps.c): the successive mappings of one file (device and
   inode) make one module, from the first one's start to the last one's
   end, named by its path; lines that map no file are skipped, and the
   vDSO, which the auxiliary vector locates, is the module
   `[vdso: PID]', which dwfl_linux_proc_find_elf reads from memory.
   One difference: a mapping of the file from its start begins another
   module, as the loader maps each object from there.  libdw maps the
   files it reads too, and the kernel may put such a mapping right
   below the loader's of the same file (a library loaded again after
   its frames were named): taken in, its start would be the module's,
   and every address of the module named wrong.
   Here the lines are parsed by hand: libdwfl's sscanf of each of them
   (a hundred in a small program, most of them mapping no file) cost
   half a million instructions, as much as naming every frame of a
   short program's report.  The file is read with fopen, as libdwfl
   reads it.  */

/* The value of hexadecimal digit C, or -1.  */
static int
hex_digit (char c)
{
  int l = c | 0x20;
  return c >= '0' && c <= '9' ? c - '0' : l >= 'a' && l <= 'f' ? l - 'a' + 10
                                                              : -1;
}

/* A hexadecimal number at *P into *V, *P moved past it; 0 if there is
   none.  */
static int
hex (const char **p, uint64_t *v)
{
  const char *s = *p;
  *v = 0;
  for (int d; (d = hex_digit (*s)) >= 0; s++)
    *v = *v << 4 | (uint64_t) d;
  int found = s != *p;
  *p = s;
  return found;
}

/* The fields of a line of the maps that a module needs.  */
struct mapping
{
  uint64_t start, end;          /* the range mapped */
  uint64_t offset;              /* in the file */
  uint64_t major, minor, inode; /* the file's device and inode */
  const char *path;             /* past the blanks after the inode */
};

/* Line S into *M; 0, or -1 if it is not one the kernel writes.  */
static int
parse_mapping (const char *s, struct mapping *m)
{
  if (!hex (&s, &m->start) || *s++ != '-' || !hex (&s, &m->end)
      || *s++ != ' ')
    return -1;
  s += strcspn (s, " ");        /* the permissions */
  s += *s == ' ';
  if (!hex (&s, &m->offset) || *s++ != ' ' || !hex (&s, &m->major)
      || *s++ != ':' || !hex (&s, &m->minor) || *s++ != ' '
      || *s < '0' || *s > '9')
    return -1;
  m->inode = strtoull (s, (char **) &s, 10);
  m->path = s + strspn (s, " \t");
  return 0;
}

/* The text of /proc/self/maps, malloc'ed and ended by a NUL, into *TEXT;
   0, or an errno value.  */
static int
read_maps (char **text)
{
  *text = NULL;
  FILE *f = fopen ("/proc/self/maps", "r");
  if (f == NULL)
    return errno;
  setvbuf (f, NULL, _IONBF, 0);   /* read into S, without a copy */
  size_t n = 0, cap = 0;
  char *s = NULL;
  int rc = 0;
  for (;;)
    {
      if (cap - n < 4096)
        {
          char *t = realloc (s, cap = cap ? 2 * cap : 8192);
          if (t == NULL)
            {
              rc = ENOMEM;
              break;
            }
          s = t;
        }
      size_t got = fread (s + n, 1, cap - n - 1, f);
      n += got;
      if (got == 0 || feof (f) || ferror (f))
        {
          rc = ferror (f) ? errno : 0;
          break;
        }
    }
  fclose (f);
  if (rc != 0)
    free (s);
  else
    {
      s[n] = '\0';
      *text = s;
    }
  return rc;
}

/* Module PATH from LOW to HIGH reported to dwfl (PATH is copied); 0, or
   -1.  */
static int
report_one (const char *path, uint64_t low, uint64_t high)
{
  Dwfl_Module *m = mp_dw.dwfl_report_module (dwfl, path, low, high);
  for (size_t i = 0; m && i < n_stale; i++)
    if (stale_modules[i] == m)
      stale_modules[i--] = stale_modules[--n_stale];
  return m ? 0 : -1;
}

static int
count_loads (struct dl_phdr_info *info, size_t size, void *data)
{
  (void) size;
  *(unsigned long long *) data = info->dlpi_adds;
  return 1;
}

/* How many objects the loader has loaded so far.  */
static unsigned long long
loads (void)
{
  unsigned long long n = 0;
  dl_iterate_phdr (count_loads, &n);
  return n;
}

static int
is_stale (Dwfl_Module *m)
{
  for (size_t i = 0; i < n_stale; i++)
    if (stale_modules[i] == m)
      return 1;
  return 0;
}

/* The modules of TEXT, /proc/self/maps's lines, reported; 0, ENOEXEC for
   a line not understood, or -1 if dwfl would not take a module.  */
static int
report_maps (char *text)
{
  uintptr_t vdso = getauxval (AT_SYSINFO_EHDR);
  const char *last = NULL;      /* the file being reported */
  uint64_t low = 0, high = 0, major = 0, minor = 0, inode = 0;
  for (char *line = text, *next; *line != '\0'; line = next)
    {
      next = line + strcspn (line, "\n");
      if (*next == '\n')
        *next++ = '\0';
      struct mapping m;
      if (parse_mapping (line, &m) != 0)
        return ENOEXEC;
      if (m.start == vdso && vdso != 0)
        {
          char name[32];
          snprintf (name, sizeof name, "[vdso: %d]", (int) getpid ());
          if ((last && report_one (last, low, high) != 0)
              || report_one (name, m.start, m.end) != 0)
            return -1;
          last = NULL;
        }
      if (m.path[0] != '/' || (m.inode == 0 && m.major == 0 && m.minor == 0))
        continue;
      if (last != NULL && m.inode == inode && m.major == major
          && m.minor == minor && m.offset != 0)
        high = m.end;
      else
        {
          if (last != NULL && report_one (last, low, high) != 0)
            return -1;
          last = m.path;
          low = m.start;
          high = m.end;
          major = m.major;
          minor = m.minor;
          inode = m.inode;
        }
    }
  return last != NULL && report_one (last, low, high) != 0 ? -1 : 0;
}

/* The executable's span, found at the first call; EXE_HIGH 0 if it is
   not known (no PT_PHDR, or no name), and once it is reported (see
   report_executable).  Written and read under `lock'.  */
static uintptr_t exe_low, exe_high;
static int exe_looked;
static char exe_name[PATH_MAX];

/* (Re)report the modules mapped now: those dlopen'ed since show up.
   On failure, the first report warns: only the executable's frames
   will be named (see below).  */
static int
report_modules (void)
{
  char *text;
  loads_reported = loads ();
  mp_dw.dwfl_report_begin_add (dwfl);
  int rc = read_maps (&text);
  if (rc == 0)
    {
      rc = report_maps (text);
      free (text);
    }
  mp_dw.dwfl_report_end (dwfl, NULL, NULL);
  if (rc != 0 && reported_at == 0)
    mp_warn ("cannot read /proc/self/maps (%s); %s show addresses",
             rc > 0 ? strerror (rc) : "libdwfl failed",
             exe_name[0] ? "frames outside the executable" : "call stacks");
  reported_at = rc == 0 ? reported_at + 1 : 16;
  return rc == 0 ? 0 : -1;
}

/* ---- the executable, without the maps ---------------------------------

   The kernel writes /proc/self/maps in 40 to 200 microseconds for a
   small program (a line for each of its hundred-odd mappings, each file
   named by a walk of its path), as long as the rest of a short
   program's report.  The frames a report shows are mostly in the
   executable, so it is reported alone first, as the maps would report
   it, from its program headers: named as /proc/self/exe names it, the
   name the maps give, from the page of its first loaded segment to the
   page-rounded end of the file's contents in its last (past that, its
   bss is mapped anonymous).  The maps are read only for an address
   outside it.  A library is not reported this way: its loader's name
   may be a file replaced since, which the maps would tell.  */

/* File NAME opened, if it is the one mapped at LOW, its ELF header
   there, and a regular file, as libdwfl wants its modules' files; else
   -1.  /proc/self/exe names the dynamic loader, not the program its
   auxiliary vector describes, in a process started as `ld.so PROGRAM',
   whose frames would all be named from the loader's DWARF.  LOW is the
   first PT_LOAD's address, which maps the file from offset 0 in every
   executable ld and gold make; were it not so, the headers would differ
   and the maps be read, as for a file replaced.  The descriptor is the
   module's file (frames.h): libdwfl opens no other.  */
static int
maps_file (const char *name, uintptr_t low)
{
  ElfW (Ehdr) eh;
  struct stat st;
  int fd = open (name, O_RDONLY | O_CLOEXEC);
  int same = fd >= 0 && pread (fd, &eh, sizeof eh, 0) == (ssize_t) sizeof eh
             && memcmp (&eh, (const void *) low, sizeof eh) == 0
             && fstat (fd, &st) == 0 && S_ISREG (st.st_mode);
  if (fd >= 0 && !same)
    close (fd);
  return same ? fd : -1;
}

/* Whether NAME, LEN bytes that /proc/self/exe's link gave, says the
   file was deleted or replaced since the program started (rebuilt while
   it runs): then NAME is cut to the name it had, and its file, still
   mapped, is opened through the link itself, which the kernel keeps
   pointing at it.  */
static int
unlinked (char *name, size_t len)
{
  static const char deleted[] = " (deleted)";
  size_t n = sizeof deleted - 1;
  if (len <= n || strcmp (name + len - n, deleted) != 0)
    return 0;
  name[len - n] = '\0';
  return 1;
}

/* Find the executable's span and name into exe_low, exe_high and
   exe_name.  */
static void
look_at_executable (void)
{
  const ElfW (Phdr) *ph = (const ElfW (Phdr) *) getauxval (AT_PHDR);
  size_t n = getauxval (AT_PHNUM);
  uintptr_t page = (uintptr_t) sysconf (_SC_PAGESIZE), bias = 0;
  int found = 0;
  for (size_t i = 0; ph != NULL && i < n; i++)
    if (ph[i].p_type == PT_PHDR)
      {
        bias = (uintptr_t) ph - ph[i].p_vaddr;
        found = 1;
      }
  uintptr_t low = UINTPTR_MAX, high = 0;
  for (size_t i = 0; found && i < n; i++)
    if (ph[i].p_type == PT_LOAD && ph[i].p_filesz > 0)
      {
        uintptr_t start = bias + ph[i].p_vaddr;
        uintptr_t end = start + ph[i].p_filesz;
        low = start / page * page < low ? start / page * page : low;
        high = (end + page - 1) / page * page > high
               ? (end + page - 1) / page * page : high;
      }
  ssize_t len = readlink ("/proc/self/exe", exe_name, sizeof exe_name - 1);
  if (high > low && len > 0 && exe_name[0] == '/')
    {
      exe_name[len] = '\0';
      int fd = maps_file (exe_name, low);
      if (fd < 0 && unlinked (exe_name, (size_t) len))
        fd = maps_file ("/proc/self/exe", low);
      if (fd >= 0)
        {
          exe_low = low;
          exe_high = high;
          mp_module_file_open (exe_name, fd);
        }
    }
  if (exe_high == 0)
    exe_name[0] = '\0';
}

/* Report the executable if it holds PC and is not reported yet; 0, or
   -1.  */
static int
report_executable (uintptr_t pc)
{
  if (!exe_looked)
    look_at_executable ();
  exe_looked = 1;
  if (pc - exe_low >= exe_high - exe_low)
    return -1;
  mp_dw.dwfl_report_begin_add (dwfl);
  int rc = report_one (exe_name, exe_low, exe_high);
  mp_dw.dwfl_report_end (dwfl, NULL, NULL);
  exe_high = exe_low;
  return rc;
}

/* libdw; 0, or -1 after the warning.  */
static int
start (void)
{
  const char *why = "out of memory";
  if (mp_dw_load (&why) != 0
      || (dwfl = mp_dw.dwfl_begin (&mp_module_callbacks)) == NULL)
    {
      mp_warn ("cannot load libdw (%s); call stacks show addresses", why);
      no_symbols = 1;
      return -1;
    }
  return 0;
}

/* Whether M's span holds PC.  */
static int
holds (Dwfl_Module *m, uintptr_t pc)
{
  Dwarf_Addr low = 0, high = 0;
  mp_dw.dwfl_module_info (m, NULL, &low, &high, NULL, NULL, NULL, NULL);
  return pc - low < high - low;
}

/* The search of `dwfl''s modules for one that holds PC and is not
   stale.  */
struct seek
{
  uintptr_t pc;
  Dwfl_Module *found;
};

static int
live_holding (Dwfl_Module *m, void **userdata, const char *name,
              Dwarf_Addr start, void *data)
{
  struct seek *s = data;
  (void) userdata;
  (void) name;
  (void) start;
  if (!holds (m, s->pc) || is_stale (m))
    return DWARF_CB_OK;
  s->found = m;
  return DWARF_CB_ABORT;
}

/* The module of `dwfl' that holds PC, of an object still loaded; NULL
   if there is none.  libdwfl's answer is taken if it is one; but it may
   be a stale module where another is reported over it (a file loaded
   again where it was, whose span in the maps now takes in libdw's own
   mapping of it), or one that does not hold PC at all, for an object
   loaded after the maps were reported: then every module is looked
   at.  */
static Dwfl_Module *
module_at (uintptr_t pc)
{
  Dwfl_Module *m = mp_dw.dwfl_addrmodule (dwfl, pc);
  if (m != NULL && holds (m, pc) && !is_stale (m))
    return m;
  struct seek s = { pc, NULL };
  mp_dw.dwfl_getmodules (dwfl, live_holding, &s, 0);
  return s.found;
}

/* The maps are read again for an address outside the modules known,
   up to 16 times, and whenever an object was loaded since.  */
static Dwfl_Module *
module_of (uintptr_t pc)
{
  if (no_symbols || (dwfl == NULL && start () != 0))
    return NULL;
  Dwfl_Module *m = module_at (pc);
  if (m == NULL && report_executable (pc) == 0)
    m = module_at (pc);
  if (m == NULL && (reported_at < 16 || loads () != loads_reported)
      && report_modules () == 0)
    m = module_at (pc);
  return m;
}

/* Whether module M holds allocation sites: descriptors the plugin
   made.  */
static int
has_sites (Dwfl_Module *m)
{
  Dwarf_Addr low, high;
  mp_dw.dwfl_module_info (m, NULL, &low, &high, NULL, NULL, NULL, NULL);
  for (unsigned id = 1, n = mp_site_count (); id <= n; id++)
    {
      uintptr_t a = (uintptr_t) mp_site_by_number (id);
      if (a >= low && a < high)
        return 1;
    }
  return 0;
}

/* What to read of M: see above.  */
static unsigned
module_what (Dwfl_Module *m)
{
  for (size_t i = 0; i < n_modules; i++)
    if (modules[i].m == m)
      return modules[i].what;
  unsigned what = has_sites (m) || !mp_module_dwarf_compressed (m)
                  ? MP_FRAMES_DWARF : 0;
  if (mp_reserve (&modules, &cap_modules, n_modules, sizeof *modules) == 0)
    modules[n_modules++] = (struct module) { m, what };
  return what;
}

static int
same_ra (size_t item, void *ctx)
{
  (void) ctx;
  return cached[item]->ra == sought;
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
   `older'.  */
static void
rename_in (struct symbolised **at, const char *old, const char *now)
{
  struct symbolised *s = *at, *copy = NULL;
  for (size_t j = 0; j < s->n; j++)
    if (s->frames[j].function == old)
      {
        size_t size = sizeof *s + s->n * sizeof *s->frames;
        if (copy == NULL && (copy = malloc (size)) != NULL)
          {
            memcpy (copy, s, size);
            copy->older = s;
          }
        if (copy != NULL)
          copy->frames[j].function = now;
      }
  if (copy != NULL)
    {
      *at = copy;
      atomic_fetch_add (&replacements, 1);
    }
}

static void index_gone (void);

static void
renamed (const char *old, const char *now, void *data)
{
  (void) data;
  for (size_t i = 0; i < n_cached; i++)
    rename_in (&cached[i], old, now);
  int moved = 0;
  for (size_t i = 0; i < n_gone; i++)
    {
      const struct symbolised *was = gone[i];
      rename_in (&gone[i], old, now);
      moved |= gone[i] != was;
    }
  if (moved)
    index_gone ();              /* their text, hence their hashes, changed */
}

/* NAME without the symbol version that a symbol table's name may carry
   after an `@' (realpath@@GLIBC_2.3, the default version; or
   memcpy@GLIBC_2.2.5, an older one), which gdb does not show either:
   a string of its own, or NAME itself (also without memory).  */
static const char *
unversioned (const char *name)
{
  const char *at = strchr (name, '@');
  char *bare = at != NULL && at != name
               ? mp_strndup (name, (size_t) (at - name)) : NULL;
  return bare != NULL ? bare : name;
}

/* The name function NAME, defined at D, is shown by: as gdb's `bt'
   shows it, unversioned and demangled, its namesakes told apart.  An
   address is looked up again for its position, and a function has
   many: a name of its own that namesakes.c did not keep is freed.  */
static const char *
shown (const char *name, struct mp_defined d)
{
  if (strcmp (name, "??") == 0)
    return name;
  const char *bare = unversioned (name);
  const char *full = demangled (bare);
  if (bare != name && full != bare)
    free ((char *) bare);
  const char *s = mp_namesake_shown (full, d.file, d.line, renamed, NULL);
  if (full != name && s != full)
    free ((char *) full);
  return s;
}

/* Up to MAX frames of return address RA (looked up at RA - 1, inside
   the call) into OUT, as WANT says, where their functions are defined
   into DEFINED_IN; 0 if its module is unknown.  */
static size_t
frames_of (uintptr_t ra, enum mp_symbols want, struct mp_frame *out,
           struct mp_defined *defined_in, size_t max)
{
  Dwfl_Module *m = module_of (ra - 1);
  if (m == NULL)
    return 0;
  unsigned what = module_what (m)
                  | (want == MP_SYMBOLS_LINES ? MP_FRAMES_LINES : 0);
  return mp_module_frames (&units, m, ra - 1, what, out, defined_in, max);
}

/* The frames at return address RA, as WANT says; NULL if there is no
   memory.  */
static struct symbolised *
lookup (uintptr_t ra, enum mp_symbols want)
{
  uint64_t h = mp_hash_address (ra);
  sought = ra;
  size_t *slot = mp_index_find (&cache_index, h, same_ra, NULL);
  if (slot == NULL)
    return NULL;
  if (*slot && cached[*slot - 1]->want >= want && !cached[*slot - 1]->stale)
    return cached[*slot - 1];
  if (*slot == 0
      && mp_reserve (&cached, &cap_cached, n_cached, sizeof *cached) != 0)
    return NULL;
  struct mp_frame frames[64];
  struct mp_defined defined_in[64];
  size_t n = frames_of (ra, want, frames, defined_in, 64);
  for (size_t i = 0; i < n; i++)
    frames[i].function = shown (frames[i].function, defined_in[i]);
  struct symbolised *s = malloc (sizeof *s + (n ? n : 1) * sizeof *frames);
  if (s == NULL)
    return NULL;
  *s = (struct symbolised) { ra, n ? n : 1, want,
                             *slot ? cached[*slot - 1] : NULL, 0, "" };
  if (n == 0)
    {
      snprintf (s->address, sizeof s->address, "%#lx", (unsigned long) ra);
      frames[0] = (struct mp_frame) { s->address, NULL, 0, 0 };
    }
  memcpy (s->frames, frames, s->n * sizeof *frames);
  /* frames_of made no lookups, so SLOT is still good.  */
  if (*slot)
    {
      cached[*slot - 1] = s;
      atomic_fetch_add (&replacements, 1);
    }
  else if (mp_index_add (&cache_index, slot, h) == 0)
    cached[n_cached++] = s;
  else
    {
      free (s);
      return NULL;
    }
  return s;
}

size_t
mp_symbolise_one (uintptr_t ra, enum mp_symbols want,
                  const struct mp_frame **frames)
{
  static const struct mp_frame unknown = { "??", NULL, 0, 0 };
  static const struct mp_frame truncated = { "(truncated)", NULL, 0, 0 };
  if (ra == MP_STACK_TRUNCATED)
    {
      *frames = &truncated;
      return 1;
    }
  if (mp_is_guest (ra))
    {
      *frames = mp_guest_frame (ra);
      return *frames != NULL;
    }
  struct memo_entry *m = &memo[(ra ^ ra >> 12) % MEMO_SIZE];
  const struct symbolised *s = m->s;
  if (!(s != NULL && m->ra == ra
        && m->replacements == atomic_load (&replacements)
        && s->want >= want))
    {
      mp_quiet_begin ();        /* libdw's allocations are ours */
      pthread_mutex_lock (&lock);
      uintptr_t k = ra & ~MP_GUEST_TAG_MASK;
      if ((ra & MP_GUEST_TAG_MASK) != MP_STACK_RETIRED)
        s = lookup (ra, want);
      else
        s = k < n_gone ? gone[k] : NULL;
      if (s != NULL)
        *m = (struct memo_entry) { ra, atomic_load (&replacements), s };
      pthread_mutex_unlock (&lock);
      mp_quiet_end ();
    }
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
      size_t k = ras[i] == MP_STACK_TRUNCATED ? 0
                 : mp_symbolise_one (ras[i], MP_SYMBOLS_LINES, &frames);
      for (size_t j = 0; j < k && (guest || c < max); j++)
        {
          out[n++] = frames[j];
          c += !guest;
        }
    }
  return n;
}

/* Whether module M's own file holds its DWARF: not a system library,
   stripped with a .gnu_debuglink to its debugging information apart.  */
static int
own_dwarf (Dwfl_Module *m)
{
  GElf_Addr bias;
  GElf_Word crc;
  Elf *elf = mp_dw.dwfl_module_getelf (m, &bias);
  return elf != NULL && mp_dw.dwelf_elf_gnu_debuglink (elf, &crc) == NULL;
}

/* A library's exported function is named from the dynamic symbols the
   loader mapped, without libdw (symtab.h).  */
struct mp_frame
mp_symbolise_caller (uintptr_t ra)
{
  mp_quiet_begin ();
  pthread_mutex_lock (&lock);
  const char *file = NULL;
  const char *name = mp_symtab_loaded_name (ra - 1, &file);
  Dwfl_Module *m = name ? NULL : module_of (ra - 1);
  int whole = m != NULL && own_dwarf (m);
  if (m != NULL && !whole && (name = mp_symtab_name (m, ra - 1)) != NULL)
    file = mp_dw.dwfl_module_info (m, NULL, NULL, NULL, NULL, NULL, NULL,
                                   NULL);
  struct mp_defined d = { name ? file : NULL, 0 };
  /* The loader's string goes with its object (see unload.c).  */
  char *copy = name && !m ? mp_strdup (name) : NULL;
  struct mp_frame f = { shown (copy ? copy : name ? name : "??", d), NULL,
                        0, 0 };
  if (copy != f.function)
    free (copy);
  pthread_mutex_unlock (&lock);
  mp_quiet_end ();
  if (whole)
    {
      const struct mp_frame *frames;
      mp_symbolise_one (ra, MP_SYMBOLS_LINES, &frames);
      f = frames[0];
    }
  return f;
}

static int
same_text (const char *a, const char *b)
{
  return a == b || (a != NULL && b != NULL && strcmp (a, b) == 0);
}

/* Whether lookups A and B name the same frames.  */
static int
same_frames (const struct symbolised *a, const struct symbolised *b)
{
  if (a->n != b->n)
    return 0;
  for (size_t i = 0; i < a->n; i++)
    if (a->frames[i].line != b->frames[i].line
        || a->frames[i].inlined != b->frames[i].inlined
        || !same_text (a->frames[i].function, b->frames[i].function)
        || !same_text (a->frames[i].file, b->frames[i].file))
      return 0;
  return 1;
}

/* The hash of the text of S's frames, which same_frames compares.  */
static uint64_t
frames_hash (const struct symbolised *s)
{
  uint64_t h = s->n;
  for (size_t i = 0; i < s->n; i++)
    {
      const struct mp_frame *f = &s->frames[i];
      h = h * 31 + (f->function ? mp_hash_string (f->function) : 0);
      h = h * 31 + (f->file ? mp_hash_string (f->file) : 0);
      h = h * 31 + f->line * 2u + (f->inlined != 0);
    }
  return h;
}

/* Whether retired lookup ITEM names the frames of lookup CTX.  */
static int
same_gone (size_t item, void *ctx)
{
  return same_frames (gone[item], ctx);
}

static int
none_same (size_t item, void *ctx)
{
  (void) item, (void) ctx;
  return 0;
}

/* Number the retired lookups in `gone_index' again, by their frames'
   text now.  Without memory the index stays as it was: a lookup renamed
   since may get a word of its own at its next retirement.  */
static void
index_gone (void)
{
  struct mp_index fresh = { NULL, NULL, 0, 0, 0 };
  size_t i = 0;
  for (; i < n_gone; i++)
    {
      uint64_t h = frames_hash (gone[i]);
      size_t *slot = mp_index_find (&fresh, h, none_same, NULL);
      if (slot == NULL || mp_index_add (&fresh, slot, h) != 0)
        break;
    }
  if (i < n_gone)
    mp_index_free (&fresh);
  else
    {
      mp_index_free (&gone_index);
      gone_index = fresh;
    }
}

/* A retired lookup that names the frames of lookup S gives its word: an
   object loaded and unloaded again (a plugin) gets the same words each
   time, so that its stacks stay one.  */
uintptr_t
mp_symbols_retire (uintptr_t ra)
{
  mp_quiet_begin ();
  pthread_mutex_lock (&lock);
  struct symbolised *s = lookup (ra, MP_SYMBOLS_LINES);
  uintptr_t word = ra;
  uint64_t h = s != NULL ? frames_hash (s) : 0;
  size_t *slot = s != NULL ? mp_index_find (&gone_index, h, same_gone, s)
                 : NULL;
  if (slot != NULL && *slot != 0)
    word = MP_STACK_RETIRED | (*slot - 1);
  else if (slot != NULL
           && mp_reserve (&gone, &cap_gone, n_gone, sizeof *gone) == 0
           && mp_index_add (&gone_index, slot, h) == 0)
    {
      gone[n_gone] = s;
      word = MP_STACK_RETIRED | n_gone++;
    }
  pthread_mutex_unlock (&lock);
  mp_quiet_end ();
  return word;
}

/* Module M, if any, is unloaded.  */
static void
stale_module (Dwfl_Module *m)
{
  if (m != NULL && !is_stale (m)
      && mp_reserve (&stale_modules, &cap_stale, n_stale,
                     sizeof *stale_modules) == 0)
    stale_modules[n_stale++] = m;
}

void
mp_symbols_unloaded (uintptr_t lo, uintptr_t hi)
{
  mp_quiet_begin ();
  pthread_mutex_lock (&lock);
  int changed = 0;
  for (size_t i = 0; i < n_cached; i++)
    if (cached[i]->ra - 1 - lo < hi - lo)
      changed = cached[i]->stale = 1;
  if (changed)
    atomic_fetch_add (&replacements, 1);
  if (dwfl != NULL)
    {
      stale_module (module_at (lo));
      stale_module (module_at (hi - 1));
    }
  pthread_mutex_unlock (&lock);
  mp_quiet_end ();
}

/* See fork.c.  */
void
mp_symbols_fork (enum mp_fork_step step)
{
  mp_fork_mutex (&lock, step);
}
