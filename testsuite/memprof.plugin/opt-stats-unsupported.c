/* D's numOwns has nothing to count in C: an error that says so.  */
/* { dg-do compile } */
/* { dg-options "-fplugin-arg-memprof-stats=numOwns" } */
/* { dg-error "memprof: unsupported statistic 'numOwns' in '-fplugin-arg-memprof-stats=numOwns'" "" { target *-*-* } 0 } */

int main (void) { return 0; }
