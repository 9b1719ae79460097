/* An empty item of a list is an error, not a silent none.  */
/* { dg-do compile } */
/* { dg-options "-fplugin-arg-memprof-stats=numAll,,bytesUsed" } */
/* { dg-error "memprof: empty statistic name '' in '-fplugin-arg-memprof-stats=numAll,,bytesUsed'" "" { target *-*-* } 0 } */

int main (void) { return 0; }
