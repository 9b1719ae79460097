/* words.h -- the library of the wrappers' test projects.  */
#ifndef WORDS_H
#define WORDS_H

/* A copy of W in a block of malloc's, strlen (W) + 1 bytes.  */
char *word_copy (const char *w);

#endif
