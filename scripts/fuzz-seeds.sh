#!/bin/sh
# fuzz-seeds.sh DIR -- build the seed corpus of the symbols fuzzer
# (fuzz/symbols.c) into DIR: small shared objects from fuzz/seeds/, with
# their debug information in the forms GCC gives it (DWARF 5 and 4, -O0
# and -O2, compressed sections, C++ scopes).  $CC builds them (default
# gcc, whose output is what memprof reads); they are built, not checked
# in, so that they follow the compiler.  One segment for code and data,
# without RELRO, makes them 5 KB instead of 16: the fuzzer's mutations
# then fall on what is read rather than on page padding.
set -eu
cc=${CC:-gcc}
mkdir -p "$1"
dir=$(cd "$1" && pwd)
cd "$(dirname "$0")/../fuzz/seeds"
build() {
    name=$1
    shift
    "$cc" -shared -fPIC -nostdlib -Wl,-z,noseparate-code -Wl,-z,norelro \
        "$@" -o "$dir/$name"
}
build inline-O2 -O2 -g inline.c
build inline-O0 -O0 -g inline.c
build inline-dwarf4 -O2 -gdwarf-4 inline.c
build inline-gz -O2 -g -gz inline.c
build scopes-O2 -O2 -g -fno-exceptions scopes.cc
