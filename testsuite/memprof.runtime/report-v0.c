/* MEMPROF=v=0 drops the stat record section from the report, and
   sites=0 lists every site.  */
/* { dg-do run } */
/* { dg-options "-std=gnu11" } */
/* { dg-set-target-env-var MEMPROF "v=0,sites=0" } */

#include <stdio.h>
#include <stdlib.h>

void *volatile kept[30];	/* live at exit, not leaked */
volatile int n = 30;

int
main (void)
{
  for (int i = 0; i < n; i++)
    {
      switch (i)
	{
#define C(k) case k: kept[k] = malloc (k + 1); break;
	  C(0) C(1) C(2) C(3) C(4) C(5) C(6) C(7) C(8) C(9)
	  C(10) C(11) C(12) C(13) C(14) C(15) C(16) C(17) C(18) C(19)
	  C(20) C(21) C(22) C(23) C(24) C(25) C(26) C(27) C(28) C(29)
	}
    }
  puts ("ok");
  return 0;
}

/* More than the default 20 sites, all listed; no stat record.  */
/* { dg-output "ok\n==== memprof report, pid \[0-9\]+ ====\n== allocator statistics ==\n" } */
/* { dg-output ".*\n== allocation sites: 30 of 30, largest first ==\n" } */
