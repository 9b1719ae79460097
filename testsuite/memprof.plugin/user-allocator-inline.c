/* At -O2 a `static inline' user allocator that pops a free list is
   inlined, not kept out of line: the bracket of its body is carried
   into the caller and gets the call's place, and no call of the
   allocator is left.  */
/* { dg-do compile } */
/* { dg-options "-fplugin-arg-memprof-verbose -fplugin-arg-memprof-allocator=pop:gc" } */
/* { dg-skip-if "inlining needs optimisation" { *-*-* } { "-O0" } } */

#include <stddef.h>

void **free_list;
void *volatile sink;
extern void *refill (void);

static inline void *
pop (void)
{
  void *head = *free_list;
  if (head == NULL)
    return refill ();
  *free_list = *(void **) head;
  return head;
}

void
use (int n)
{
  for (int i = 0; i < n; i++)
    {
      sink = pop ();	/* { dg-message "memprof: pop .inlined. -> __mp_user_begin/__mp_user_end .gc." } */
      sink = pop ();	/* { dg-message "memprof: pop .inlined. -> __mp_user_begin/__mp_user_end .gc." } */
    }
}

/* { dg-final { scan-assembler-not "call\[ \t\]+pop" } } */
/* { dg-final { scan-assembler "call\[ \t\]+\\*?__mp_user_begin" } } */
