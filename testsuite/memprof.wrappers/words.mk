# words.mk -- the plain Makefile project of memprof.wrappers (copied to
# Makefile): make's built-in rules compile, with $(CC).
CFLAGS = -O2 -g

words: main.o libwords.a
	$(CC) $(CFLAGS) -o $@ main.o libwords.a

libwords.a: words.o
	$(AR) rcs $@ words.o
