/* An unknown allocator family is an error that names it.  */
/* { dg-do compile } */
/* { dg-options "-fplugin-arg-memprof-allocator=vm_alloc:boehm" } */
/* { dg-error "memprof: bad allocator family 'boehm' in 'vm_alloc:boehm'" "" { target *-*-* } 0 } */

int main (void) { return 0; }
