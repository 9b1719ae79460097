/* fields.c -- the fields of the control record, each described once:
   its names, its range and where it lives in struct mp_control.  mp_set
   (control.c), MEMPROF's parser (config.c) and the verbose messages all
   go through this table, so a field cannot be checked one way and
   parsed another.  It is apart from control.c, which drives Boehm, so
   that the parser links without Boehm (fuzz/).  */

#include <string.h>
#include "internal.h"
#include "fields.h"
#include "control.h"

#define FIELD(name, letter, min, max) \
  { #name, letter, min, max, offsetof (struct mp_control, name) }

const struct field mp_fields[F_COUNT] = {
  FIELD (minor_heap_size, 's', 0, SIZE_MAX_WORDS),
  FIELD (major_heap_increment, 'i', 0, SIZE_MAX_WORDS),
  FIELD (space_overhead, 'o', 1, 1000000),
  FIELD (verbose, 'v', 0, 0x1fff),
  FIELD (max_overhead, 'O', 0, MP_NEVER_COMPACT),
  FIELD (stack_limit, 'l', 1, NO_STACK_LIMIT),
  FIELD (allocation_policy, 'a', 0, 2),
  FIELD (window_size, 'w', 1, 50),
  FIELD (custom_major_ratio, 'M', 1, 1000000),
  FIELD (custom_minor_ratio, 'm', 1, 1000000),
  FIELD (custom_minor_max_size, 'n', 0, SIZE_MAX_WORDS),
  FIELD (incremental, 0, 0, 1),
};

/* MEMPROF's names: the field called KEY (LEN bytes, a long name or
   OCaml's letter), or -1.  */
int
mp_control_find (const char *key, size_t len)
{
  for (int f = 0; f < F_COUNT; f++)
    if ((len == 1 && mp_fields[f].letter == key[0])
        || (strlen (mp_fields[f].name) == len
            && memcmp (mp_fields[f].name, key, len) == 0))
      return f;
  return -1;
}
