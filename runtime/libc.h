/* libc.h -- the malloc family (libc.c): what starting the runtime and
   the other allocators call.  */

#ifndef MEMPROF_LIBC_H
#define MEMPROF_LIBC_H

#include "internal.h"

void mp_libc_setup (uint64_t seed);
void mp_count_malloc_note (struct mp_thread *t, const struct mp_site *site,
                           void *p);

#endif
