#!/bin/sh
# calls.sh TOP -- the instructions memprof spends per call, by the
# statistics a unit keeps (the plugin's stats= and per-call=): callgrind
# counts the instructions of memprof's entry functions (their own code
# and what is inlined into them, and the mp_malloc_at, mp_calloc_at and
# mp_free_at the ordinary ones call) and of the GC_size they call, over
# 300 000 calls of bench/calls.c, a malloc and free pair or a GC_MALLOC
# each, with sampling off.  Exact and repeatable where make bench's
# times are not; needs valgrind.  The results go to bench/out/calls.txt.
set -eu

TOP=$(cd "${1:-$(dirname "$0")/..}" && pwd)
CC=${CC:-gcc}
OUT=$TOP/bench/out
N=300000
mkdir -p "$OUT"
command -v valgrind > /dev/null ||
    { echo "calls: needs valgrind (apt-get install valgrind)" >&2; exit 1; }

# choice name and plugin options (KEY=VALUE of -fplugin-arg-memprof-,
# joined by `/').
CHOICES="all:
per-call=none:per-call=none
stats=bytesUsed:stats=bytesUsed
stats=bytesUsed,per-call=none:stats=bytesUsed/per-call=none
stats=numAll,per-call=none:stats=numAll/per-call=none
stats=none,per-call=none:stats=none/per-call=none"

# per_call BIN [gc]: instructions per iteration in memprof's entries.
per_call() {
    bin=$1; shift
    MEMPROF=sampling_rate=0,report=none valgrind --tool=callgrind \
        --callgrind-out-file="$OUT/calls.cg" "$bin" "$N" "$@" > /dev/null 2>&1
    callgrind_annotate --auto=no --threshold=100 "$OUT/calls.cg" | awk -v n="$N" '
        /:__mp_|:mp_(malloc|calloc|free)_at( |$)|GC_size/ {
            gsub(",", "", $1); s += $1 }
        END { printf "%.0f", s / n }'
}

printf '%-32s %12s %12s\n' "statistics kept" "malloc+free" "GC_MALLOC" |
    tee "$OUT/calls.txt"
IFS='
'
for c in $CHOICES; do
    name=${c%%:*}
    options=$(echo "${c#*:}" | tr '/' '\n' |
                  sed '/^$/d; s/^/-fplugin-arg-memprof-/' | tr '\n' ' ')
    IFS=' '
    # shellcheck disable=SC2086
    "$CC" -std=c11 -O2 -fplugin="$TOP/plugin/memprof.so" $options \
        -I"$TOP/runtime" -o "$OUT/calls" "$TOP/bench/calls.c" \
        "$TOP/runtime/libmemprof.a" -lgc -ldw -lz -lpthread -ldl -lm
    printf '%-32s %12s %12s\n' "$name" "$(per_call "$OUT/calls")" \
        "$(per_call "$OUT/calls" gc)" | tee -a "$OUT/calls.txt"
    IFS='
'
done
