/* Built by interpose.exp into a shared object that unload-many-main.c
   loads, calls and unloads many times: SITES functions, each with a
   malloc of its own, so that each unload retires as many frames.  */

#include <stdlib.h>

void *volatile unload_many_kept;

#define FN(i)                                                            \
  static __attribute__ ((noinline, noipa)) void                          \
  unload_many_##i (void)                                                 \
  {                                                                      \
    unload_many_kept = malloc (i + 1);                                   \
  }
#define FN10(i) FN (i##0) FN (i##1) FN (i##2) FN (i##3) FN (i##4)         \
  FN (i##5) FN (i##6) FN (i##7) FN (i##8) FN (i##9)
FN10 () FN10 (1) FN10 (2) FN10 (3) FN10 (4) FN10 (5) FN10 (6) FN10 (7)
FN10 (8) FN10 (9)

void
unload_many (void)
{
#define CALL10(i) unload_many_##i##0 (); unload_many_##i##1 ();           \
  unload_many_##i##2 (); unload_many_##i##3 (); unload_many_##i##4 ();    \
  unload_many_##i##5 (); unload_many_##i##6 (); unload_many_##i##7 ();    \
  unload_many_##i##8 (); unload_many_##i##9 ();
  CALL10 () CALL10 (1) CALL10 (2) CALL10 (3) CALL10 (4) CALL10 (5)
  CALL10 (6) CALL10 (7) CALL10 (8) CALL10 (9)
  unload_many_kept = NULL;
}
