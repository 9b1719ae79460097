/* namesakes.c -- the name each function is shown by, in every form of
   the report.

   A function is its name together with the file and line that define
   it (frames.c): two `static void helper (int)' of two files are two
   functions, and so are a program's function and a library's of one
   name.  C++ functions that overload one name are named by their
   demangled signatures where DWARF has their linkage names; GCC gives
   none to a function with internal linkage (static, or in an anonymous
   namespace), whose overloads are namesakes then.  A function is shown
   by its name alone while it has no known namesake; once it has one,
   each of them is shown as `NAME (FILE)', FILE the base name of its
   file, or its whole path where two namesakes' files share a base name,
   followed by `:LINE' where they share the file.

   Functions are met one at a time, as symbols.c names frames, so a name
   shown changes when the first namesake is met: symbols.c then renames
   the frames it has cached, and the report names every frame of its
   profile (profile.c) before it writes any, so that a report shows each
   function by one name, and two functions by two.

   Design.  The functions of one name are a `group', found by the name's
   hash in `by_name'; a function is found in its group by file and line.
   Strings are never freed: frames handed out point at them.  */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "alloc.h"
#include "index.h"
#include "namesakes.h"

struct function
{
  const char *file;             /* what defines it; NULL if unknown */
  int line;                     /* where in FILE; 0 if unknown */
  const char *shown;            /* its name as shown: the group's name,
                                   or `NAME (FILE)' */
};

struct group
{
  const char *name;             /* every function's in the group */
  struct function *fns;         /* in the order they were met */
  size_t n, cap;
};

/* All under symbols.c's lock, which every caller holds.  */
static struct group *groups;
static size_t n_groups, cap_groups;
static struct mp_index by_name;  /* of `groups' */
static const char *sought;      /* the name `same_name' compares with */

static int
same_name (size_t item, void *ctx)
{
  (void) ctx;
  return strcmp (groups[item].name, sought) == 0;
}

static int
same_file (const char *a, const char *b)
{
  return a == b || (a != NULL && b != NULL && strcmp (a, b) == 0);
}

static const char *
base_name (const char *file)
{
  const char *slash = strrchr (file, '/');
  return slash ? slash + 1 : file;
}

/* NAME's group, made if new; NULL without memory.  */
static struct group *
group_of (const char *name)
{
  uint64_t h = mp_hash_string (name);
  sought = name;
  size_t *slot = mp_index_find (&by_name, h, same_name, NULL);
  if (slot == NULL)
    return NULL;
  if (*slot)
    return &groups[*slot - 1];
  if (mp_reserve (&groups, &cap_groups, n_groups, sizeof *groups) != 0
      || mp_index_add (&by_name, slot, h) != 0)
    return NULL;
  groups[n_groups] = (struct group) { name, NULL, 0, 0 };
  return &groups[n_groups++];
}

/* F's name shown among the namesakes of G, malloc'ed: `NAME (FILE)',
   FILE in full if another namesake's has the same base name, with
   `:LINE' if another namesake has the same file.  NULL without memory.  */
static char *
qualified (const struct group *g, const struct function *f)
{
  const char *file = f->file ? f->file : "?";
  int full = 0, line = 0;
  for (size_t i = 0; i < g->n; i++)
    {
      const struct function *o = &g->fns[i];
      if (o == f || o->file == NULL || f->file == NULL)
        continue;
      if (strcmp (o->file, f->file) == 0)
        line = 1;
      else if (strcmp (base_name (o->file), base_name (f->file)) == 0)
        full = 1;
    }
  if (!full)
    file = base_name (file);
  size_t size = strlen (g->name) + strlen (file) + 3 * sizeof (int) + 6;
  char *shown = malloc (size);
  if (shown != NULL && line)
    snprintf (shown, size, "%s (%s:%d)", g->name, file, f->line);
  else if (shown != NULL)
    snprintf (shown, size, "%s (%s)", g->name, file);
  return shown;
}

/* Show each function of G, which has namesakes, qualified, telling
   RENAMED of each name that changes but the last function's, just met,
   which no frame shows yet.  */
static void
qualify (struct group *g, mp_renamed_fn *renamed, void *data)
{
  for (size_t i = 0; i < g->n; i++)
    {
      struct function *f = &g->fns[i];
      char *shown = qualified (g, f);
      if (shown == NULL)
        continue;               /* shown as before */
      if (strcmp (shown, f->shown) == 0)
        {
          free (shown);
          continue;
        }
      const char *old = f->shown;
      f->shown = shown;
      if (i + 1 < g->n)
        renamed (old, shown, data);
    }
}

const char *
mp_namesake_shown (const char *name, const char *file, int line,
                   mp_renamed_fn *renamed, void *data)
{
  struct group *g = group_of (name);
  if (g == NULL)
    return name;
  for (size_t i = 0; i < g->n; i++)
    if (same_file (g->fns[i].file, file) && g->fns[i].line == line)
      return g->fns[i].shown;
  if (mp_reserve (&g->fns, &g->cap, g->n, sizeof *g->fns) != 0)
    return name;
  g->fns[g->n++] = (struct function) { file, line, name };
  if (g->n > 1)
    qualify (g, renamed, data);
  return g->fns[g->n - 1].shown;
}
