/* An allocator without its family is an error.  */
/* { dg-do compile } */
/* { dg-options "-fplugin-arg-memprof-allocator=vm_alloc" } */
/* { dg-error "memprof: bad allocator 'vm_alloc': expected NAME:FAMILY" "" { target *-*-* } 0 } */

int main (void) { return 0; }
