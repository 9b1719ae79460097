/* stats needs a list.  */
/* { dg-do compile } */
/* { dg-options "-fplugin-arg-memprof-stats" } */
/* { dg-error "memprof: option 'stats' needs a value: a list of statistics" "" { target *-*-* } 0 } */

int main (void) { return 0; }
