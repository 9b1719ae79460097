/* An unknown option is an error that names it.  */
/* { dg-do compile } */
/* { dg-options "-fplugin-arg-memprof-bogus" } */
/* { dg-error "memprof: unknown option 'bogus'" "" { target *-*-* } 0 } */

int main (void) { return 0; }
