/* A statistic stats= does not know is an error that names it.  */
/* { dg-do compile } */
/* { dg-options "-fplugin-arg-memprof-stats=numAllocate,numFoo" } */
/* { dg-error "memprof: unknown statistic 'numFoo' in '-fplugin-arg-memprof-stats=numAllocate,numFoo'" "" { target *-*-* } 0 } */

int main (void) { return 0; }
