#!/bin/sh
# outputs.sh TOP -- what writing the report's forms costs on a large
# profile: a generated program with 100 000 distinct allocation sites (1000
# functions of 100 malloc calls of 80 bytes, each run once) at sampling
# rate 1, which gives 100 000 call stacks and 10^6 samples.  It runs the
# program BENCH_RUNS times (default 3) with no report at all, and as many
# with the text report, pprof, folded stacks, JSON and HTML; the
# difference of the medians is the time the forms took (target: < 2 s).
set -eu

TOP=$(cd "${1:-$(dirname "$0")/..}" && pwd)
CC=${CC:-gcc}
RUNS=${BENCH_RUNS:-3}
OUT=$TOP/bench/out/outputs
mkdir -p "$OUT"
FUNCTIONS=1000
CALLS=100

die() { echo "bench: $*" >&2; exit 1; }

# The program: f0 ... f999, each storing CALLS fresh blocks in `keep',
# and main calling each and freeing its blocks.
awk -v nf=$FUNCTIONS -v nc=$CALLS 'BEGIN {
    print "#include <stdlib.h>"
    printf "void *keep[%d];\n", nc
    for (f = 0; f < nf; f++) {
        printf "__attribute__ ((noinline)) void f%d (void) {\n", f
        for (c = 0; c < nc; c++)
            printf "  keep[%d] = malloc (80);\n", c
        print "}"
    }
    print "int main (void) {"
    for (f = 0; f < nf; f++) {
        printf "  f%d ();\n", f
        printf "  for (int i = 0; i < %d; i++) free (keep[i]);\n", nc
    }
    print "  return 0;\n}"
}' > "$OUT/sites.c"

"$CC" -std=c11 -O1 -g -fplugin="$TOP/plugin/memprof.so" -I"$TOP/runtime" \
    -o "$OUT/sites" "$OUT/sites.c" \
    "$TOP/runtime/libmemprof.a" -lgc -lpthread -ldl -lm ||
    die "cannot build $OUT/sites"

now() { date +%s.%N; }

# run SETTINGS: the program's wall time with MEMPROF=SETTINGS.
run() {
    t0=$(now)
    (cd "$OUT" && MEMPROF=$1 ./sites) > "$OUT/run.err" 2>&1 ||
        die "sites failed with MEMPROF=$1: $(tail -3 "$OUT/run.err")"
    t1=$(now)
    echo "$t0 $t1" | awk '{ printf "%.3f\n", $2 - $1 }'
}

median() {
    sort -g | awk '{ v[NR] = $1 }
        END { if (NR % 2) print v[(NR + 1) / 2];
              else printf "%.3f\n", (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

all=report=sites.txt,pprof=sites.pb.gz,folded=sites.folded,json=sites.json,html=sites.html
: > "$OUT/times"
i=0
while [ "$i" -lt "$RUNS" ]; do
    echo "$(run sampling_rate=1,report=none) $(run sampling_rate=1,$all)" \
        >> "$OUT/times"
    i=$((i + 1))
done
none=$(awk '{ print $1 }' "$OUT/times" | median)
forms=$(awk '{ print $2 }' "$OUT/times" | median)
stacks=$(grep -c '' "$OUT/sites.folded")
samples=$(sed -n 's/^,*{"frames":.*,"samples":\([0-9]*\),.*/\1/p' \
              "$OUT/sites.json" | awk '{ n += $1 } END { print n }')
sizes=$(cd "$OUT" && du -h sites.txt sites.pb.gz sites.folded sites.json \
            sites.html | awk '{ printf "%s %s, ", $2, $1 }')
printf '%-10s %8.3f %8.3f %6.3fs  (%s stacks, %s samples; %s%s runs each, medians)\n' \
    outputs "$none" "$forms" "$(echo "$forms $none" | awk '{ print $1 - $2 }')" \
    "$stacks" "$samples" "$sizes" "$RUNS" | tee -a "$TOP/bench/out/results.txt"
