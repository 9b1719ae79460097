/* An allocator name must be an identifier; in a list, each bad item is
   reported and the good ones do not hide it.  */
/* { dg-do compile } */
/* { dg-options "-fplugin-arg-memprof-allocator=ok_alloc:gc,2bad:gc,:malloc" } */
/* { dg-error "memprof: bad allocator name '2bad' in '2bad:gc'" "" { target *-*-* } 0 } */
/* { dg-error "memprof: bad allocator name '' in ':malloc'" "" { target *-*-* } 0 } */

int main (void) { return 0; }
