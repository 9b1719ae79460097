/* stats-choice.h -- choosing the statistics a site keeps (site.h's
   MP_SITE_STATS): D's names and groups, the parser of a list of them,
   and the work a choice leaves to a site's fast path, which names the
   lean entry the plugin calls (entry.h).  The plugin's stats= and
   per-call= and MEMPROF's stats= and per_call= share it, so that the two
   accept the same words.  Written in the subset of C that C++ compiles
   too: the plugin is C++.

   A list joins names and groups with a separator: `numAllocate+bytesUsed'.
   D's groups are numAll (every numXxx), bytesAll (every bytesXxx), all,
   and none; a list means the union of what it names.  For per-call
   statistics a group means its members that D keeps per call, and
   naming one that D keeps globally only (bytesUsed, bytesSlack,
   bytesHighTide) is an error, as is any word that is not one of these.  */

#ifndef MEMPROF_STATS_CHOICE_H
#define MEMPROF_STATS_CHOICE_H

#include <string.h>
#include "site.h"

/* The statistics, numbered in MP_SITE_STATS order: bit MP_STAT_NAME of
   a mask is NAME.  */
enum mp_stat_index
{
#define MP_STAT_INDEX(name, per_call) MP_STAT_##name,
  MP_SITE_STATS (MP_STAT_INDEX)
#undef MP_STAT_INDEX
  MP_STAT_COUNT
};

#define MP_STAT_BIT(name) (1u << MP_STAT_##name)
#define MP_STATS_EVERY ((1u << MP_STAT_COUNT) - 1)
#define MP_STAT_PER_CALL_BIT(name, per_call) | ((unsigned) (per_call) << MP_STAT_##name)
/* The statistics D keeps per call too.  */
#define MP_STATS_PER_CALL (0u MP_SITE_STATS (MP_STAT_PER_CALL_BIT))
/* D's numAll: the numXxx, which come first.  */
#define MP_STATS_NUM_ALL (MP_STAT_BIT (bytesUsed) - 1)

/* What mp_stats_parse found wrong with an item.  */
enum mp_stats_error
{
  MP_STATS_OK, MP_STATS_EMPTY, MP_STATS_UNKNOWN, MP_STATS_D_ONLY,
  MP_STATS_GLOBAL_ONLY
};

/* The name of statistic I, or NULL past the last.  */
static inline const char *
mp_stat_name (unsigned i)
{
  static const char *const names[] = {
#define MP_STAT_NAME(name, per_call) #name,
    MP_SITE_STATS (MP_STAT_NAME)
#undef MP_STAT_NAME
  };
  return i < MP_STAT_COUNT ? names[i] : NULL;
}

static inline int
mp_stats_word_is (const char *word, size_t len, const char *name)
{
  return strlen (name) == len && memcmp (word, name, len) == 0;
}

/* The bits WORD, LEN bytes, names (for per-call statistics if PER_CALL),
   in *BITS; or the error.  */
static inline int
mp_stats_word (const char *word, size_t len, int per_call, unsigned *bits)
{
  static const char *const d_only[] = {
    "numOwns", "numDeallocateAll", "numAlignedAllocate",
    "numAlignedAllocateOk"
  };
  unsigned within = per_call ? MP_STATS_PER_CALL : MP_STATS_EVERY;
  if (len == 0)
    return MP_STATS_EMPTY;
  for (unsigned i = 0; i < MP_STAT_COUNT; i++)
    if (mp_stats_word_is (word, len, mp_stat_name (i)))
      {
        *bits = 1u << i;
        return (*bits & within) ? MP_STATS_OK : MP_STATS_GLOBAL_ONLY;
      }
  if (mp_stats_word_is (word, len, "numAll"))
    *bits = MP_STATS_NUM_ALL & within;
  else if (mp_stats_word_is (word, len, "bytesAll"))
    *bits = ~MP_STATS_NUM_ALL & within;
  else if (mp_stats_word_is (word, len, "all"))
    *bits = within;
  else if (mp_stats_word_is (word, len, "none"))
    *bits = 0;
  else
    {
      for (unsigned i = 0; i < sizeof d_only / sizeof d_only[0]; i++)
        if (mp_stats_word_is (word, len, d_only[i]))
          return MP_STATS_D_ONLY;
      return MP_STATS_UNKNOWN;
    }
  return MP_STATS_OK;
}

/* Parse LIST, LEN bytes, whose items are separated by any character of
   SEPS, into *KEPT.  Return MP_STATS_OK, or the error of the first bad
   item, which *ITEM and *ITEM_LEN then give.  */
static inline int
mp_stats_parse (const char *list, size_t len, const char *seps, int per_call,
                unsigned *kept, const char **item, size_t *item_len)
{
  const char *end = list + len;
  unsigned all = 0;
  for (const char *at = list;; at++)
    {
      const char *stop = at;
      while (stop < end && !strchr (seps, *stop))
        stop++;
      unsigned bits = 0;
      int e = mp_stats_word (at, (size_t) (stop - at), per_call, &bits);
      if (e != MP_STATS_OK)
        {
          *item = at;
          *item_len = (size_t) (stop - at);
          return e;
        }
      all |= bits;
      if (stop == end)
        break;
      at = stop;
    }
  *kept = all;
  return MP_STATS_OK;
}

/* What error E means, for a message that names the item after it.  */
static inline const char *
mp_stats_error_text (int e)
{
  switch (e)
    {
    case MP_STATS_EMPTY: return "empty statistic name";
    case MP_STATS_D_ONLY: return "unsupported statistic";
    case MP_STATS_GLOBAL_ONLY: return "global-only statistic";
    default: return "unknown statistic";
    }
}

/* The statistics a counter serves, for the fast paths' tests.  */
#define MP_KEEP_CALLS (MP_STAT_BIT (numAllocate) | MP_STAT_BIT (numAllocateOK))
#define MP_KEEP_USED (MP_STAT_BIT (bytesUsed) | MP_STAT_BIT (bytesHighTide))
#define MP_KEEP_SIZE (MP_KEEP_USED | MP_STAT_BIT (bytesSlack))

/* The work of a fast path, as the lean entries' names say (entry.h):
   bit 1, the site's counters of calls and bytes (numAllocate,
   bytesAllocated, numDeallocate, bytesContracted, and those computed
   from them); 2, bytesUsed and bytesHighTide; 4, bytesSlack.  */
#define MP_WORK_COUNTS 1
#define MP_WORK_USED 2
#define MP_WORK_SLACK 4
#define MP_WORK_ALL 7
#define MP_KEEP_COUNTS (MP_KEEP_CALLS | MP_STAT_BIT (bytesAllocated)         \
                        | MP_STAT_BIT (numDeallocate)                       \
                        | MP_STAT_BIT (bytesContracted))

/* The statistics work W counts; a constant where W is one.  */
#define MP_WORK_KEEPS(w)                                                    \
  (((w) & MP_WORK_COUNTS ? MP_KEEP_COUNTS : 0u)                             \
   | ((w) & MP_WORK_USED ? MP_KEEP_USED : 0u)                               \
   | ((w) & MP_WORK_SLACK ? MP_STAT_BIT (bytesSlack) : 0u))

/* The work of a site that keeps the statistics of masks STATS_OMITTED
   and PER_CALL_OMITTED leave: what it keeps globally or per call.  */
static inline unsigned
mp_site_work (unsigned stats_omitted, unsigned per_call_omitted)
{
  unsigned kept = ~(stats_omitted & (per_call_omitted | ~MP_STATS_PER_CALL));
  return ((kept & MP_KEEP_COUNTS) ? MP_WORK_COUNTS : 0)
         | ((kept & MP_KEEP_USED) ? MP_WORK_USED : 0)
         | ((kept & MP_STAT_BIT (bytesSlack)) ? MP_WORK_SLACK : 0);
}

#endif
