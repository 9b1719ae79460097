/* verbose takes no value.  */
/* { dg-do compile } */
/* { dg-options "-fplugin-arg-memprof-verbose=yes" } */
/* { dg-error "memprof: option 'verbose' takes no value \\(got 'yes'\\)" "" { target *-*-* } 0 } */

int main (void) { return 0; }
