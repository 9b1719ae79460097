# memprof -- top-level GNU Makefile.
#
#   make            build the plugin and the runtime
#   make demo       install missing packages, build, profile the examples
#   make check      install missing packages, build, run the testsuite
#   make check-asan the same with the runtime and the test programs built
#                   with -fsanitize=address,undefined (the runtime in
#                   runtime/asan/, apart from the plain build), after a
#                   minute of fuzzing the symboliser (FUZZ_ASAN_TIME)
#   make bench      overhead ratios against plain builds, in one run
#   make check-real real programs from Debian's sources, plain and
#                   profiled: the same output (REAL_PROGRAMS="w3m jq")
#   make fuzz       install clang if missing, fuzz what the runtime reads
#                   (FUZZ_TIME seconds each; FUZZERS="symbols" for one)
#   make mutate     put each small bug of testsuite/mutations.txt into a
#                   copy of the tree: the tests it names must catch it
#   make install    PREFIX=/usr/local DESTDIR=
#
# `make' also makes the compiler wrappers memprof-gcc and memprof-g++ in
# build/bin, which use this tree's plugin and runtime; `make install'
# installs a pair that uses the installed ones.

# make's own default CC is cc, which need not be GCC.
ifeq ($(origin CC),default)
CC        = gcc
endif
CXX      ?= g++
PREFIX   ?= /usr/local
DESTDIR  ?=
BINDIR   ?= $(PREFIX)/bin
LIBDIR   ?= $(PREFIX)/lib
INCDIR   ?= $(PREFIX)/include

# The plugin must match the compiler that loads it: build it with the
# headers of the gcc found first on PATH.
GCC_PLUGIN_DIR = $(shell $(CC) -print-file-name=plugin)
GCC_MAJOR      = $(shell $(CC) -dumpversion | cut -d. -f1)

CFLAGS_RT   = -std=c11 -Wall -Wextra -O2 -g -fPIC -D_GNU_SOURCE \
              -fvisibility=hidden -Iruntime
CXXFLAGS_PL = -std=gnu++17 -Wall -Wextra -O2 -g -fPIC -fno-rtti \
              -fno-exceptions -I$(GCC_PLUGIN_DIR)/include
# libgc is linked --as-needed: the runtime's references to it are weak
# (runtime/gcweak.h), so only a program that uses the GC heap needs it,
# by a reference of its own or the one the plugin adds.
LIBS_RT     = -lpthread -ldl
LIBS_GC     = -Wl,--as-needed -lgc
# A -static link of the runtime needs its libraries' own, too, and
# libdw and zlib, which it cannot open with dlopen: libmemprof-static.a
# has them linked in (runtime/static/linked.c).
LIBS_STATIC = $(or $(strip $(shell pkg-config --static --libs libdw bdw-gc zlib 2>/dev/null)),\
                   -lgc $(LIBS_RT) -ldw -lelf -lz) -lpthread -ldl -lm

# The drivers memprof-gcc and memprof-g++ run, by their path now, and
# the version line of `gcc -v' that they check them against: the GCC
# the plugin is built for.
WRAP_CC     ?= $(shell command -v $(CC))
WRAP_CXX    ?= $(shell command -v $(CXX))
WRAP_gcc     = $(WRAP_CC)
WRAP_g++     = $(WRAP_CXX)
GCC_VERSION  = $(strip $(shell LC_ALL=C $(CC) -v 2>&1 | sed -n 's/^gcc version //p'))

# SANITIZE=1 (what `make check-asan' sets) builds the runtime with these
# flags into runtime/asan/, so that it never mixes with the plain build's
# objects, and has the testsuite build its programs with them too: UB
# stops a program as an ASan error does, and the frame pointers give
# ASan's reports whole stacks.  The plugin runs inside gcc and is not
# sanitized.
ifdef SANITIZE
SAN_FLAGS = -fsanitize=address,undefined -fno-sanitize-recover=undefined \
            -fno-omit-frame-pointer
RT_DIR    = runtime/asan
else
RT_DIR    = runtime
endif

RT_SRC  = $(wildcard runtime/*.c)
RT_OBJ  = $(RT_SRC:runtime/%.c=$(RT_DIR)/%.o)
PL_SRC  = $(wildcard plugin/*.cc)

PLUGIN  = plugin/memprof.so
PLUGIN_INST = $(LIBDIR)/memprof/memprof.so
RT_A    = $(RT_DIR)/libmemprof.a
RT_SO   = $(RT_DIR)/libmemprof.so
RT_STATIC_A = $(RT_DIR)/libmemprof-static.a

.PHONY: all deps check-deps check check-asan check-real demo bench fuzz \
        fuzz-deps mutate install clean
WRAPPERS = build/bin/memprof-gcc build/bin/memprof-g++

all: $(PLUGIN) $(RT_A) $(RT_SO) $(RT_STATIC_A) memprof.pc $(WRAPPERS)

$(PLUGIN): $(PL_SRC) plugin/*.h runtime/site.h runtime/stats-choice.h
	$(CXX) $(CXXFLAGS_PL) -shared -o $@ $(PL_SRC)

# Each object's data and bss go to sections that Boehm does not take for
# roots (runtime/roots.c).
OBJCOPY  ?= objcopy
OWN_DATA  = $(foreach s,.data .data.rel .data.rel.local,\
                --rename-section $(s)=memprof_data) \
            --rename-section .bss=memprof_bss

$(RT_DIR)/%.o: runtime/%.c runtime/*.h
	@mkdir -p $(RT_DIR)
	$(CC) $(CFLAGS_RT) $(SAN_FLAGS) -c -o $@.raw $<
	$(OBJCOPY) $(OWN_DATA) $(OBJCOPY_MORE) $@.raw $@ && rm -f $@.raw

# C++'s operator new may throw through cxx.c's frames: its cleanups
# must run then.  What they need of the unwinder is found then too
# (runtime/unwinder.c), so that no program loads libgcc_s for them.
# Rebuilt when these lines change.
$(RT_DIR)/cxx.o: CFLAGS_RT += -fexceptions
$(RT_DIR)/cxx.o: Makefile
$(RT_DIR)/cxx.o: OBJCOPY_MORE = \
  --redefine-sym __gcc_personality_v0=mp_gcc_personality \
  --redefine-sym _Unwind_Resume=mp_unwind_resume \
  --redefine-sym DW.ref.__gcc_personality_v0=DW.ref.mp_gcc_personality

# The HTML report's template, carried in the runtime as a string; its
# JSON marker must be there exactly once.
runtime/html-template.h: runtime/report.html scripts/embed.sh
	@test "$$(grep -c '@MEMPROF_JSON@' $<)" = 1 || \
	  { echo "$<: needs one line with @MEMPROF_JSON@" >&2; exit 1; }
	sh scripts/embed.sh mp_html_template $< > $@

$(RT_DIR)/html.o: runtime/html-template.h

$(RT_A): $(RT_OBJ)
	rm -f $@ && ar rcs $@ $^

$(RT_STATIC_A): runtime/static/linked.c runtime/dynlibs.h runtime/gcweak.h
	@mkdir -p $(RT_DIR)
	$(CC) $(CFLAGS_RT) $(SAN_FLAGS) -c -o $(RT_DIR)/static-linked.o $<
	rm -f $@ && ar rcs $@ $(RT_DIR)/static-linked.o

# Without DT_NEEDED libgc, and with no strong reference to it left: one
# would load libgc into every program (runtime/gcweak.h).
$(RT_SO): $(RT_OBJ)
	$(CC) $(SAN_FLAGS) -shared -o $@ $^ $(LIBS_RT)
	@! nm -D --undefined-only $@ | grep ' U GC_' || \
	  { echo "$@: strong references to libgc: add them to runtime/gcweak.h" >&2; \
	    rm -f $@; exit 1; }

# memprof.pc, for PREFIX; `make install' writes it again, for its own.
pc = sed -e 's|@PREFIX@|$(PREFIX)|' -e 's|@LIBDIR@|$(LIBDIR)|' \
	 -e 's|@INCDIR@|$(INCDIR)|' -e 's|@PLUGIN@|$(PLUGIN_INST)|' \
	 memprof.pc.in > $(1)

memprof.pc: memprof.pc.in Makefile
	$(call pc,$@)

# $(call wrapper,FILE,PLUGIN,RUNTIME-DIR,HEADER-DIR): the wrapper FILE,
# memprof-gcc or memprof-g++, from scripts/memprof-cc.in.
wrapper = sed -e 's|@NAME@|$(notdir $(1))|g' \
	      -e 's|@DRIVER@|$(WRAP_$(subst memprof-,,$(notdir $(1))))|g' \
	      -e 's|@GCC_VERSION@|$(GCC_VERSION)|g' -e 's|@PLUGIN@|$(2)|g' \
	      -e 's|@LIBDIR@|$(3)|g' -e 's|@INCDIR@|$(4)|g' \
	      -e 's|@LIBS@|$(LIBS_RT)|g' -e 's|@LIBS_GC@|$(LIBS_GC)|g' -e 's|@LIBS_STATIC@|$(LIBS_STATIC)|g' \
	      scripts/memprof-cc.in > $(1).tmp && \
	  chmod 755 $(1).tmp && mv $(1).tmp $(1)

# The build tree's: memprof.h alone in its directory, so that the
# runtime's own headers hide none of a program's.
build/include/memprof.h: runtime/memprof.h
	@mkdir -p build/include
	cp $< $@

build/bin/memprof-%: scripts/memprof-cc.in Makefile build/include/memprof.h
	@mkdir -p build/bin
	$(call wrapper,$@,$(CURDIR)/$(PLUGIN),$(CURDIR)/runtime,$(CURDIR)/build/include)

deps:
	@sh scripts/deps.sh

check-deps:
	@sh scripts/deps.sh check

# runtest's status is kept, but the summary line is printed either way;
# summary.sh also fails when nothing passed.
check: check-deps all
	@st=0; cd testsuite && rm -f memprof.sum && LC_ALL=C MEMPROF_TOP=$(CURDIR) CC="$(CC)" \
	  CXX="$(CXX)" MEMPROF_TEST_RUNTIME=$(CURDIR)/$(RT_A) \
	  MEMPROF_TEST_CFLAGS="$(SAN_FLAGS)" \
	  runtest --tool memprof --srcdir . $(RUNTESTFLAGS) || st=1; \
	cd $(CURDIR) && sh scripts/summary.sh testsuite/memprof.sum || st=1; \
	exit $$st

check-asan:
	@$(MAKE) --no-print-directory fuzz FUZZERS=symbols FUZZ_TIME=$(FUZZ_ASAN_TIME)
	@$(MAKE) --no-print-directory check SANITIZE=1

# Not part of check: it downloads sources and takes minutes.  Its work,
# the sources included, stays in build/real.
check-real: deps all
	@sh scripts/check-real.sh $(CURDIR)

# Not part of check: a build and some tests per mutation, minutes.  Run
# it before a release, and after adding a feature or a test.
# MUTATIONS=FILE reads another list, MUTANTS="NAME..." makes only those.
MUTATIONS ?= testsuite/mutations.txt
mutate: check-deps
	@sh scripts/mutate.sh $(MUTATIONS) $(MUTANTS)

demo: deps all
	@$(MAKE) --no-print-directory -C examples demo TOP=$(CURDIR)

bench: deps all
	@sh bench/run.sh $(CURDIR)
	@sh bench/outputs.sh $(CURDIR)

# What the runtime reads from outside -- the parser of MEMPROF and of its
# paths, and the modules' ELF and DWARF that the symboliser reads --
# under clang's libFuzzer with ASan and UBSan: fuzz/NAME.c is the harness,
# built with the runtime's files FUZZ_RT_NAME; testsuite/fuzz/NAME holds
# the seed corpus and the inputs kept from past runs, and the symbols
# fuzzer's seeds, shared objects, are built into $(FUZZ_DIR)/seeds/
# (scripts/fuzz-seeds.sh, scripts/fuzz.sh).
FUZZ_LLVM   ?= 14
FUZZ_CC     ?= clang-$(FUZZ_LLVM)
FUZZ_TIME   ?= 60
FUZZ_DIR     = fuzz/build
FUZZERS     ?= config path symbols
FUZZ_CFLAGS  = -std=c11 -Wall -Wextra -O1 -g -D_GNU_SOURCE -Iruntime \
               -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all
FUZZ_RT_config  = runtime/config.c runtime/fields.c runtime/alloc.c
FUZZ_RT_path    = runtime/config.c runtime/fields.c runtime/alloc.c
FUZZ_RT_symbols = runtime/frames.c runtime/lines.c runtime/dynlibs.c \
                  runtime/ownlibs.c \
                  runtime/index.c runtime/symtab.c runtime/alloc.c
FUZZ_LIBS_symbols = -ldw -lelf -ldl
# check-asan fuzzes the symboliser this long (seconds) before its tests.
FUZZ_ASAN_TIME ?= 60

.SECONDEXPANSION:
$(FUZZ_DIR)/%: fuzz/%.c $$(FUZZ_RT_$$*) runtime/*.h
	@mkdir -p $(FUZZ_DIR)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -o $@ $< $(FUZZ_RT_$*) $(FUZZ_LIBS_$*)

$(FUZZ_DIR)/seeds/symbols: scripts/fuzz-seeds.sh fuzz/seeds/*
	rm -rf $@
	sh scripts/fuzz-seeds.sh $@

fuzz-deps:
	@FUZZ_LLVM=$(FUZZ_LLVM) sh scripts/deps.sh fuzz

# The harnesses are built once the packages are there, even under -j.
fuzz: fuzz-deps
	@$(MAKE) --no-print-directory $(FUZZERS:%=$(FUZZ_DIR)/%) \
	  $(if $(filter symbols,$(FUZZERS)),$(FUZZ_DIR)/seeds/symbols)
	@sh scripts/fuzz.sh $(FUZZ_DIR) $(FUZZ_TIME) $(FUZZERS)

# The installed wrappers and memprof.pc name the installed files, under
# PREFIX, not DESTDIR.
install: all
	install -d $(DESTDIR)$(LIBDIR)/memprof $(DESTDIR)$(INCDIR) \
	           $(DESTDIR)$(LIBDIR)/pkgconfig $(DESTDIR)$(BINDIR)
	install -m 644 $(RT_A) $(RT_STATIC_A) $(DESTDIR)$(LIBDIR)/
	install -m 755 $(RT_SO) $(DESTDIR)$(LIBDIR)/
	install -m 755 $(PLUGIN) $(DESTDIR)$(LIBDIR)/memprof/
	install -m 644 runtime/memprof.h $(DESTDIR)$(INCDIR)/
	$(call pc,$(DESTDIR)$(LIBDIR)/pkgconfig/memprof.pc)
	$(foreach w,memprof-gcc memprof-g++,\
	  $(call wrapper,$(DESTDIR)$(BINDIR)/$(w),$(PLUGIN_INST),$(LIBDIR),$(INCDIR)) &&) true

clean:
	rm -f $(PLUGIN) runtime/*.o runtime/*.o.raw runtime/libmemprof.a \
	      runtime/libmemprof.so runtime/libmemprof-static.a \
	      memprof.pc runtime/html-template.h
	rm -rf runtime/asan build/bin build/include testsuite/*.log \
	       testsuite/*.sum testsuite/tmp bench/out $(FUZZ_DIR)
	-$(MAKE) --no-print-directory -C examples clean TOP=$(CURDIR)
