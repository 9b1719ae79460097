/* fields.h -- the fields of the control record, as fields.c describes
   them for control.c (and the fuzzer of MEMPROF's parser).  */

#ifndef MEMPROF_FIELDS_H
#define MEMPROF_FIELDS_H

#include <stddef.h>

enum field_id
{
  F_MINOR_HEAP_SIZE, F_MAJOR_HEAP_INCREMENT, F_SPACE_OVERHEAD, F_VERBOSE,
  F_MAX_OVERHEAD, F_STACK_LIMIT, F_ALLOCATION_POLICY, F_WINDOW_SIZE,
  F_CUSTOM_MAJOR_RATIO, F_CUSTOM_MINOR_RATIO, F_CUSTOM_MINOR_MAX_SIZE,
  F_INCREMENTAL, F_COUNT
};

struct field
{
  const char *name;
  char letter;                  /* OCAMLRUNPARAM's, or 0 */
  long min, max;
  size_t offset;                /* in struct mp_control */
};

#define SIZE_MAX_WORDS (1L << 40)
#define NO_STACK_LIMIT (1L << 60)   /* stack_limit's RLIM_INFINITY */

extern const struct field mp_fields[F_COUNT];

#endif
