/* threads-exact.c with Boehm's pthread redirection: GC_THREADS defined
   before gc.h (pthread_create is GC_pthread_create) and GC_INIT ().  */
/* { dg-do run } */
/* { dg-options "-std=gnu11 -pthread" } */
/* { dg-timeout 120 } */

#define GC_THREADS
#include "threads-exact.c"

/* { dg-output "(^|\n)ok\n" } */
