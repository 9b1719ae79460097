/* options.cc -- -fplugin-arg-memprof-KEY[=VALUE].

   GCC hands the plugin each -fplugin-arg-memprof-KEY[=VALUE] as one
   key/value pair, in command-line order.  A mistake in them is reported
   with error (), which lets GCC finish reading its input but makes it exit
   non-zero: a misspelt option must not silently give an unprofiled
   program.  */

#include "memprof.h"
#include "../runtime/stats-choice.h"
#include "diagnostic-core.h"
#include "cgraph.h"
#include "attribs.h"

bool mp_verbose;
unsigned mp_stats_omitted, mp_per_call_omitted;

static struct mp_user_allocator *mp_users;
static unsigned mp_n_users, mp_max_users;

struct mp_family
{
  const char *name;
  unsigned kind;
};

static const struct mp_family mp_families[] =
{
  { "malloc", MP_KIND_USER_MALLOC },
  { "gc", MP_KIND_USER_GC },
  { "gc_atomic", MP_KIND_USER_GC_ATOMIC },
  { "gc_uncollectable", MP_KIND_USER_GC_UNCOLLECTABLE },
};

static void
mp_help (void)
{
  fprintf (stderr,
    "memprof: options are -fplugin-arg-memprof-KEY[=VALUE]:\n"
    "memprof:   allocator=NAME:FAMILY  profile calls of NAME as allocations"
    " of FAMILY (malloc, gc, gc_atomic, gc_uncollectable);"
    " repeat it or give a comma-separated list\n"
    "memprof:   stats=LIST             the global statistics to collect:"
    " D's names (numAllocate, bytesUsed, ...) and groups (numAll,"
    " bytesAll, all, none), joined by `,' or `+'; default all\n"
    "memprof:   per-call=LIST          the same for the per-call statistics"
    " (all but bytesUsed, bytesSlack, bytesHighTide); default all\n"
    "memprof:   verbose                note each rewritten call"
    " (memprof: CALLEE -> RUNTIME)\n"
    "memprof:   help                   print this list\n");
}

static bool
mp_is_identifier (const char *s)
{
  if (!ISIDST (*s))
    return false;
  while (*++s)
    if (!ISIDNUM (*s))
      return false;
  return true;
}

static void
mp_add_user (const char *name, const struct mp_family *family)
{
  if (mp_n_users == mp_max_users)
    {
      mp_max_users = mp_max_users ? 2 * mp_max_users : 8;
      mp_users = XRESIZEVEC (struct mp_user_allocator, mp_users,
                             mp_max_users);
    }
  mp_users[mp_n_users].name = name;
  mp_users[mp_n_users].family = family->name;
  mp_users[mp_n_users].kind = family->kind;
  mp_n_users++;
}

/* One NAME:FAMILY item of an allocator= value.  */
static bool
mp_parse_allocator (const char *item)
{
  const char *colon = strchr (item, ':');
  char *name;

  if (!colon)
    {
      error ("memprof: bad allocator %qs: expected NAME:FAMILY", item);
      return false;
    }
  name = xstrndup (item, colon - item);
  if (!mp_is_identifier (name))
    {
      error ("memprof: bad allocator name %qs in %qs", name, item);
      return false;
    }
  for (unsigned i = 0; i < ARRAY_SIZE (mp_families); i++)
    if (strcmp (colon + 1, mp_families[i].name) == 0)
      {
        mp_add_user (name, &mp_families[i]);
        return true;
      }
  error ("memprof: bad allocator family %qs in %qs: expected %<malloc%>,"
         " %<gc%>, %<gc_atomic%> or %<gc_uncollectable%>", colon + 1, item);
  return false;
}

static bool
mp_parse_allocators (const char *value)
{
  char *copy = xstrdup (value), *save = NULL;
  bool ok = true;

  /* strtok_r would skip empty items, and an empty item is a mistake.  */
  for (char *item = copy; item; item = save)
    {
      save = strchr (item, ',');
      if (save)
        *save++ = '\0';
      ok &= mp_parse_allocator (item);
    }
  free (copy);
  return ok;
}

/* stats=LIST or per-call=LIST (PER_CALL): the statistics the unit's
   sites leave out, into *OMITTED.  */
static bool
mp_parse_stats (const struct plugin_argument *arg, bool per_call,
                unsigned *omitted)
{
  const char *item;
  size_t len;
  unsigned kept;

  if (!arg->value)
    {
      error ("memprof: option %qs needs a value: a list of statistics",
             arg->key);
      return false;
    }
  int e = mp_stats_parse (arg->value, strlen (arg->value), ",+", per_call,
                          &kept, &item, &len);
  if (e != MP_STATS_OK)
    {
      char *word = xstrndup (item, len);
      error ("memprof: %s %qs in %<-fplugin-arg-memprof-%s=%s%>",
             mp_stats_error_text (e), word, arg->key, arg->value);
      free (word);
      return false;
    }
  *omitted = ~kept & MP_STATS_EVERY;
  return true;
}

static bool
mp_no_value (const struct plugin_argument *arg)
{
  if (arg->value)
    error ("memprof: option %qs takes no value (got %qs)", arg->key,
           arg->value);
  return !arg->value;
}

bool
mp_parse_options (const struct plugin_name_args *info)
{
  bool ok = true, helped = false;

  for (int i = 0; i < info->argc; i++)
    {
      const struct plugin_argument *arg = &info->argv[i];
      if (strcmp (arg->key, "allocator") == 0)
        {
          if (arg->value)
            ok &= mp_parse_allocators (arg->value);
          else
            {
              error ("memprof: option %qs needs a value NAME:FAMILY",
                     arg->key);
              ok = false;
            }
        }
      else if (strcmp (arg->key, "stats") == 0)
        ok &= mp_parse_stats (arg, false, &mp_stats_omitted);
      else if (strcmp (arg->key, "per-call") == 0)
        ok &= mp_parse_stats (arg, true, &mp_per_call_omitted);
      else if (strcmp (arg->key, "verbose") == 0)
        {
          ok &= mp_no_value (arg);
          mp_verbose = true;
        }
      else if (strcmp (arg->key, "help") == 0)
        {
          ok &= mp_no_value (arg);
          if (!helped)
            mp_help ();
          helped = true;
        }
      else
        {
          error ("memprof: unknown option %qs", arg->key);
          ok = false;
        }
    }
  return ok;
}

/* The user allocator FNDECL is, or NULL.  An IPA clone (name.isra.0,
   name.constprop.0) is looked up under its origin; both the C name and
   the assembler name count.  */
const struct mp_user_allocator *
mp_find_user_allocator (tree fndecl)
{
  const char *name, *asmname;

  fndecl = DECL_ORIGIN (fndecl);
  if (mp_n_users == 0 || !DECL_NAME (fndecl))
    return NULL;
  name = IDENTIFIER_POINTER (DECL_NAME (fndecl));
  asmname = mp_decl_name (fndecl);
  for (unsigned i = 0; i < mp_n_users; i++)
    if (strcmp (name, mp_users[i].name) == 0
        || strcmp (asmname, mp_users[i].name) == 0)
      return &mp_users[i];
  return NULL;
}
