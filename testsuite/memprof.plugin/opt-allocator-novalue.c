/* allocator needs a value.  */
/* { dg-do compile } */
/* { dg-options "-fplugin-arg-memprof-allocator" } */
/* { dg-error "memprof: option 'allocator' needs a value NAME:FAMILY" "" { target *-*-* } 0 } */

int main (void) { return 0; }
