/* A group that is not D's is an error too, in per-call= as in stats=.  */
/* { dg-do compile } */
/* { dg-options "-fplugin-arg-memprof-per-call=numAll+allBytes" } */
/* { dg-error "memprof: unknown statistic 'allBytes' in '-fplugin-arg-memprof-per-call=numAll\\+allBytes'" "" { target *-*-* } 0 } */

int main (void) { return 0; }
