/* An empty item of an allocator list is an error.  */
/* { dg-do compile } */
/* { dg-options "-fplugin-arg-memprof-allocator=a_alloc:gc," } */
/* { dg-error "memprof: bad allocator '': expected NAME:FAMILY" "" { target *-*-* } 0 } */

int main (void) { return 0; }
