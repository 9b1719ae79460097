/* Run by security.exp, not as a dg test: with its report= and json=
   files on a full tmpfs, each gets one warning line, the good files
   there stay, no temporary file is left, and the report goes to stderr
   whole.  Forty sites make the report longer than the one page left
   free, so that it is cut short in the middle.  */

#include <stdio.h>
#include <stdlib.h>

void *volatile kept[40];

int
main (void)
{
  /* No buffer: the C library's would be a site too (interposition).  */
  setvbuf (stdout, NULL, _IONBF, 0);
  kept[0] = malloc (10);
  kept[1] = malloc (20);
  kept[2] = malloc (30);
  kept[3] = malloc (40);
  kept[4] = malloc (50);
  kept[5] = malloc (60);
  kept[6] = malloc (70);
  kept[7] = malloc (80);
  kept[8] = malloc (90);
  kept[9] = malloc (100);
  kept[10] = malloc (110);
  kept[11] = malloc (120);
  kept[12] = malloc (130);
  kept[13] = malloc (140);
  kept[14] = malloc (150);
  kept[15] = malloc (160);
  kept[16] = malloc (170);
  kept[17] = malloc (180);
  kept[18] = malloc (190);
  kept[19] = malloc (200);
  kept[20] = malloc (210);
  kept[21] = malloc (220);
  kept[22] = malloc (230);
  kept[23] = malloc (240);
  kept[24] = malloc (250);
  kept[25] = malloc (260);
  kept[26] = malloc (270);
  kept[27] = malloc (280);
  kept[28] = malloc (290);
  kept[29] = malloc (300);
  kept[30] = malloc (310);
  kept[31] = malloc (320);
  kept[32] = malloc (330);
  kept[33] = malloc (340);
  kept[34] = malloc (350);
  kept[35] = malloc (360);
  kept[36] = malloc (370);
  kept[37] = malloc (380);
  kept[38] = malloc (390);
  kept[39] = malloc (400);
  puts ("ok");
  return 0;
}
