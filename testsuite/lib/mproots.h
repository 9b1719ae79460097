/* mproots.h -- Boehm's static roots, and whether a loaded object's data
   is among them: #include after gc.h and mptest.h.

   mpr_read_roots collects, so that Boehm registers the dynamic
   libraries' data again, and reads the roots it holds then from the
   "***Static roots:" part of GC_dump (gc.h has no getter).
   mpr_rooted (NAME, &seen) tells how many writable loaded segments of
   the objects whose path holds NAME are roots, by their last byte
   (their first ones may be PT_GNU_RELRO, which Boehm leaves out), and
   sets SEEN to how many there are.

   mpr_watch keeps, in the program's bss alone, the one pointer to a
   new block, and watches it with a disappearing link (mpkept.h):
   mpr_gone says whether the block died.

   The test defines _GNU_SOURCE first, for dl_iterate_phdr.  */

#ifndef MPROOTS_H
#define MPROOTS_H

#include <link.h>
#include <stdint.h>
#include <unistd.h>
#include "mpkept.h"

#define MPR_MAX 512

static struct { uintptr_t lo, hi; } mpr_roots[MPR_MAX];
static int mpr_n;

static __attribute__ ((unused)) void
mpr_read_roots (void)
{
  collect ();
  fflush (stdout);
  FILE *f = tmpfile ();
  CHECK (f != NULL);
  if (f == NULL)
    return;
  int saved = dup (1);
  dup2 (fileno (f), 1);
  GC_dump ();
  dup2 (saved, 1);
  close (saved);
  rewind (f);
  char line[256];
  int in = 0;
  mpr_n = 0;
  while (fgets (line, sizeof line, f) != NULL)
    {
      void *lo, *hi;
      if (line[0] == '*')
        in = strncmp (line, "***Static roots:", 16) == 0;
      else if (in && mpr_n < MPR_MAX
               && sscanf (line, "From %p to %p", &lo, &hi) == 2)
        {
          mpr_roots[mpr_n].lo = (uintptr_t) lo;
          mpr_roots[mpr_n++].hi = (uintptr_t) hi;
        }
    }
  fclose (f);
  CHECK (mpr_n > 0);
}

struct mpr_seek
{
  const char *name;
  int seen, rooted;
};

static int
mpr_seek (struct dl_phdr_info *info, size_t size, void *data)
{
  struct mpr_seek *s = data;
  (void) size;
  if (strstr (info->dlpi_name, s->name) == NULL)
    return 0;
  for (int i = 0; i < info->dlpi_phnum; i++)
    {
      const ElfW (Phdr) *ph = &info->dlpi_phdr[i];
      if (ph->p_type != PT_LOAD || !(ph->p_flags & PF_W))
        continue;
      uintptr_t last = info->dlpi_addr + ph->p_vaddr + ph->p_memsz - 1;
      s->seen++;
      for (int j = 0; j < mpr_n; j++)
        if (mpr_roots[j].lo <= last && last < mpr_roots[j].hi)
          {
            s->rooted++;
            break;
          }
    }
  return 0;
}

static __attribute__ ((unused)) int
mpr_rooted (const char *name, int *seen)
{
  struct mpr_seek s = { name, 0, 0 };
  dl_iterate_phdr (mpr_seek, &s);
  *seen = s.seen;
  return s.rooted;
}

/* The libraries the runtime loads for itself (runtime/ownlibs.c): at
   the first sample, libunwind and liblzma; at the report, libdw, libelf
   and libbz2.  None of their data is a root, when the program had not
   loaded them itself.  */
static __attribute__ ((unused)) void
mpr_check_own_libs (int report)
{
  static const char *const own[] = {
    "/libunwind.so", "/liblzma.so", "/libdw.so", "/libelf.so", "/libbz2.so"
  };
  for (int i = 0; i < (report ? 5 : 2); i++)
    {
      int seen, rooted = mpr_rooted (own[i], &seen);
      if (seen == 0 || rooted != 0)
        fprintf (stderr, "%s: %d writable segments, %d roots\n", own[i],
                 seen, rooted);
      CHECK (seen > 0);
      CHECK_EQ (rooted, 0);
    }
}

/* The one pointer to a block watched, in the program's bss, and the
   link that Boehm clears when the block dies.  */
static void *mpr_kept;
static GC_hidden_pointer mpr_link;

static __attribute__ ((noinline, unused)) void
mpr_watch (void)
{
  mpr_kept = GC_MALLOC (64);
  CHECK (mpr_kept != NULL);
  mpt_watch (&mpr_link, GC_HIDE_POINTER (mpr_kept));
}

/* Whether the block watched died within three collections.  */
static __attribute__ ((unused)) int
mpr_gone (void)
{
  for (int i = 0; i < 3 && mpr_link != 0; i++)
    collect ();
  return mpr_link == 0;
}

#endif
