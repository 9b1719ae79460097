/* D keeps bytesUsed globally only: per-call= may not name it.  */
/* { dg-do compile } */
/* { dg-options "-fplugin-arg-memprof-per-call=bytesUsed" } */
/* { dg-error "memprof: global-only statistic 'bytesUsed' in '-fplugin-arg-memprof-per-call=bytesUsed'" "" { target *-*-* } 0 } */

int main (void) { return 0; }
