#!/bin/sh
# exports.sh CC HEADER LIB -- print each function or object that HEADER
# (memprof.h) declares and the shared runtime LIB does not export, and
# fail if there is one.  Not the header's static inline functions (their
# callees are checked), nor mp_ignore_environment, which a program
# defines for the runtime to find.
set -eu
cc=$1 header=$2 lib=$3
tmp=${TMPDIR:-/tmp}/exports.$$
trap 'rm -f "$tmp".*' EXIT
# Comments out, nothing expanded: the names as the header writes them.
"$cc" -fpreprocessed -dD -E -P "$header" 2>/dev/null | awk '
  prev ~ /^static/ && match($0, /^mp_[a-z0-9_]+/) {
    inline[substr($0, RSTART, RLENGTH)] = 1
  }
  {
    line = $0
    while (match(line, /mp_[a-z0-9_]+ *\(/)) {
      n = substr(line, RSTART, RLENGTH); sub(/ *\($/, "", n); seen[n] = 1
      line = substr(line, RSTART + RLENGTH)
    }
    if (match($0, /^extern .*mp_[a-z0-9_]+;/)) {
      n = $0; sub(/;.*/, "", n); sub(/.* /, "", n); seen[n] = 1
    }
    prev = $0
  }
  END {
    for (n in seen)
      if (!(n in inline) && n != "mp_ignore_environment")
        print n
  }' | sort > "$tmp.declared"
[ -s "$tmp.declared" ] || { echo "exports.sh: no names read from $header"; exit 1; }
nm -D --defined-only "$lib" | awk '{ print $3 }' | sort -u > "$tmp.exported"
missing=$(comm -23 "$tmp.declared" "$tmp.exported")
[ -z "$missing" ] || { echo "not exported by $lib:" $missing; exit 1; }
