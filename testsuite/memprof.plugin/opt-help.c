/* help lists the options on stderr, one line each, and the compilation
   goes on.  */
/* { dg-do compile } */
/* { dg-options "-fplugin-arg-memprof-help" } */
/* Each line reads "memprof: ...", and a line-0 pattern must not match
   at the very start of a line.  */
/* { dg-message "options are -fplugin-arg-memprof-KEY" "" { target *-*-* } 0 } */
/* { dg-message "  allocator=NAME:FAMILY  profile calls of NAME" "" { target *-*-* } 0 } */
/* { dg-message "  stats=LIST  +the global statistics to collect" "" { target *-*-* } 0 } */
/* { dg-message "  per-call=LIST  +the same for the per-call statistics" "" { target *-*-* } 0 } */
/* { dg-message "  verbose  +note each rewritten call" "" { target *-*-* } 0 } */
/* { dg-message "  help  +print this list" "" { target *-*-* } 0 } */

int main (void) { return 0; }
