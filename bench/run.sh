#!/bin/sh
# run.sh TOP -- memprof's overhead against plain builds.
#
# Builds each workload twice (plain `gcc -O2', and with the memprof plugin
# and runtime), runs the two builds alternately BENCH_RUNS times (default
# 5), and prints, per workload, the median wall time of each build and the
# median of the per-pair ratios memprof/plain.  The profiled runs write
# their report to bench/out/NAME.report, so its cost is counted.  All
# outputs (binaries, stdout/stderr, reports, times, results.txt) go to bench/out/.
#
# BENCH_ONLY="bt-malloc bt-malloc-d" runs those rows alone (a busy
# machine makes every row long).
#
# Then the rows of a short-lived process, bench/short.c: a few
# milliseconds and a few hundred samples at the default sampling rate, as
# build systems and shell scripts run by the hundred, where what the
# runtime costs at start and at exit counts, not per allocation.
# bench/pairs.c runs the two builds alternately BENCH_SHORT_RUNS times
# (default 101), timing each from fork to wait: short with the default
# text report written to a file (one per process, as make check-real
# has them), short-none with report=none; each row is followed by the
# median ratio of the same pairs' CPU times.
#
# Then cc-sqlite3: the compile time of `gcc -O2 -g -c sqlite3.c', the
# SQLite amalgamation (one unit of 240 000 lines), with the plugin against
# without, BENCH_CC_RUNS times (default 3).  The amalgamation is made
# from Debian's sqlite3 source in build/real/src, as make check-real
# leaves it; the row is skipped, saying why, when it cannot be.
#
# Then the real programs of make check-real (bench/real.sh), each on a
# workload of its own, plain against profiled, BENCH_REAL_RUNS times
# (default BENCH_RUNS).
set -eu

TOP=$(cd "${1:-$(dirname "$0")/..}" && pwd)
CC=${CC:-gcc}
RUNS=${BENCH_RUNS:-5}
SHORT_RUNS=${BENCH_SHORT_RUNS:-101}
CC_RUNS=${BENCH_CC_RUNS:-3}
OUT=$TOP/bench/out
mkdir -p "$OUT"
cd "$TOP"                       # sources and arguments are relative to it

# workload name, sources, extra plain libraries, argument, extra MEMPROF
# settings, plugin options (KEY=VALUE of -fplugin-arg-memprof-, joined by
# `/').  The plain names run with the report's default sampling (1e-4);
# -s0 turns sampling off and -s3 samples at 1e-3, the rates the sampling
# targets are set for.  The statistics collected (D's StatsCollector
# flags): -pc0 keeps no per-call statistic, -bu keeps bytesUsed alone
# globally (and every per-call one), -d is D's own example, bytesUsed
# and nothing per call, -none nothing at all.  bt-gc-incr shows what
# Boehm's incremental marking costs under memprof: the measurement
# behind its default (off).  bt-gc-evlog writes the event log.  scheme
# is the Scheme VM of examples/scheme running binary-trees.scm.
# bt-lib is bt-malloc built without the plugin, the runtime linked by
# hand: every allocation comes from code memprof did not rewrite, and is
# counted by interposition.  mixed mixes malloc, realloc and
# free: strings built with realloc and kept in a hash table (bench/mixed.c).
SCM=examples/scheme
WORKLOADS="bt-malloc:bench/bt-malloc.c::18: bt-malloc-s0:bench/bt-malloc.c::18:,sampling_rate=0
bt-lib:bench/bt-malloc.c::18:
mixed:bench/mixed.c::1000000:
bt-malloc-s3:bench/bt-malloc.c::18:,sampling_rate=1e-3
bt-malloc-pc0:bench/bt-malloc.c::18::per-call=none
bt-malloc-bu:bench/bt-malloc.c::18::stats=bytesUsed
bt-malloc-d:bench/bt-malloc.c::18::stats=bytesUsed/per-call=none
bt-malloc-none:bench/bt-malloc.c::18::stats=none/per-call=none
bt-gc:bench/bt-gc.c:-lgc:17:
bt-gc-s0:bench/bt-gc.c:-lgc:17:,sampling_rate=0 bt-gc-s3:bench/bt-gc.c:-lgc:17:,sampling_rate=1e-3
bt-gc-incr:bench/bt-gc.c:-lgc:17:,incremental=1
bt-gc-evlog:bench/bt-gc.c:-lgc:17:,eventlog=$OUT/bt-gc-evlog.json
scheme:$SCM/*.c:-lgc:$SCM/bench/binary-trees.scm:
scheme-s0:$SCM/*.c:-lgc:$SCM/bench/binary-trees.scm:,sampling_rate=0
scheme-s3:$SCM/*.c:-lgc:$SCM/bench/binary-trees.scm:,sampling_rate=1e-3"

die() { echo "bench: $*" >&2; exit 1; }

# wanted NAME: whether BENCH_ONLY lets row NAME run.
wanted() {
    case " ${BENCH_ONLY:-$1} " in
        *" $1 "*) return 0 ;;
        *) return 1 ;;
    esac
}

# now: wall clock in seconds with nanoseconds (GNU date).
now() { date +%s.%N; }

# timed NAME CMD...: run CMD, stdout to NAME.out and stderr to NAME.err,
# print the elapsed seconds.
timed() {
    o=$1; shift
    t0=$(now)
    "$@" > "$o.out" 2> "$o.err" || {
        tail -5 "$o.err" >&2; die "'$*' failed, see $o.err"; }
    t1=$(now)
    echo "$t0 $t1" | awk '{ printf "%.3f\n", $2 - $1 }'
}

# show FORMAT ARGS...: print a line of the table, and keep it in results.txt.
show() {
    # shellcheck disable=SC2059
    printf "$@" | tee -a "$OUT/results.txt"
}

# median: of the numbers on stdin, one per line.
median() {
    sort -g | awk '{ v[NR] = $1 }
        END { if (NR % 2) print v[(NR + 1) / 2];
              else printf "%.3f\n", (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

# row NAME [DECIMALS]: the line of NAME's table from NAME.times, pairs of
# plain and memprof seconds, shown with DECIMALS (default 3).
row() {
    pm=$(awk '{ print $1 }' "$OUT/$1.times" | median)
    mm=$(awk '{ print $2 }' "$OUT/$1.times" | median)
    rm=$(awk '{ printf "%.4f\n", $2 / ($1 > 0 ? $1 : 0.001) }' \
             "$OUT/$1.times" | median)
    show "%-14s %8.${2:-3}f %8.${2:-3}f %6.2fx\n" "$1" "$pm" "$mm" "$rm"
}

# The runtime lets threads register with Boehm (GC_allow_register_threads),
# which also starts Boehm's parallel markers; the plain build never does.
# One marker for both keeps the comparison to what memprof itself costs.
GC_MARKERS=1
export GC_MARKERS

[ -f "$TOP/plugin/memprof.so" ] || die "$TOP/plugin/memprof.so not built (run make)"
[ -f "$TOP/runtime/libmemprof.a" ] || die "$TOP/runtime/libmemprof.a not built (run make)"

for w in $WORKLOADS; do
    IFS=: read -r name src libs arg settings options <<EOF2
$w
EOF2
    wanted "$name" || continue
    # $src may be a pattern of several files.
    # shellcheck disable=SC2086
    "$CC" -std=c11 -O2 -I"$TOP/runtime" -o "$OUT/$name.plain" $src $libs ||
        die "cannot build $name (plain)"
    case $name in
        bt-lib) plugin= ;;
        *) plugin=-fplugin=$TOP/plugin/memprof.so ;;
    esac
    poptions=$(echo "$options" | tr '/' '\n' | sed '/^$/d; s/^/-fplugin-arg-memprof-/')
    # $src may be a pattern of several files; $poptions, several options.
    # shellcheck disable=SC2086
    "$CC" -std=c11 -O2 $plugin $poptions -I"$TOP/runtime" \
        -o "$OUT/$name.memprof" $src \
        "$TOP/runtime/libmemprof.a" -lgc -lpthread -ldl ||
        die "cannot build $name (memprof)"
done

: > "$OUT/results.txt"
show '%-14s %8s %8s %7s   (%s runs each, medians)\n' \
    workload plain memprof ratio "$RUNS"
for w in $WORKLOADS; do
    IFS=: read -r name src libs arg settings options <<EOF2
$w
EOF2
    wanted "$name" || continue
    : > "$OUT/$name.times"
    i=0
    while [ "$i" -lt "$RUNS" ]; do
        p=$(timed "$OUT/$name.plain" "$OUT/$name.plain" "$arg")
        m=$(timed "$OUT/$name.memprof" \
                env MEMPROF="report=$OUT/$name.report$settings" \
                    "$OUT/$name.memprof" "$arg")
        echo "$p $m" >> "$OUT/$name.times"
        i=$((i + 1))
    done
    # The profiled program must compute the same thing.
    cmp -s "$OUT/$name.plain.out" "$OUT/$name.memprof.out" ||
        echo "bench: warning: $name output differs under memprof" >&2
    row "$name"
done

"$CC" -std=c11 -O2 -o "$OUT/pairs" bench/pairs.c || die "cannot build pairs"
# short.c's time is mostly buffer's two loops, whose speed on this
# project's machines (Intel, with the microcode for the JCC erratum)
# hangs on where their jumps fall against 32-byte lines: a build whose
# code moved by 16 bytes measured 1.29x with report=none where the same
# runtime measured 1.08x with the jumps kept off the line ends, in both
# builds, as the assembler does here.
SHORT_ALIGN=-Wa,-mbranches-within-32B-boundaries
"$CC" -std=c11 -O2 -g $SHORT_ALIGN -o "$OUT/short.plain" bench/short.c ||
    die "cannot build short (plain)"
"$CC" -std=c11 -O2 -g $SHORT_ALIGN -fplugin="$TOP/plugin/memprof.so" \
    -I"$TOP/runtime" -o "$OUT/short.memprof" bench/short.c \
    "$TOP/runtime/libmemprof.a" -lgc -lpthread -ldl ||
    die "cannot build short (memprof)"
rm -rf "$OUT/short.reports" && mkdir -p "$OUT/short.reports"
for name in short short-none; do
    wanted "$name" || continue
    settings=report=none
    [ "$name" = short ] && settings="report=$OUT/short.reports/%p"
    : > "$OUT/$name.times"
    "$OUT/pairs" "$SHORT_RUNS" "$OUT/$name.times" "$OUT/short.plain" -- \
        "$settings" "$OUT/short.memprof" || die "$name failed"
    row "$name" 4
    # The same pairs' CPU times, which a busy machine disturbs less.
    show '%-14s %8s %8s %6.2fx  (CPU time)\n' "" "" "" "$(awk \
        '{ printf "%.4f\n", $4 / ($3 > 0 ? $3 : 0.0001) }' \
        "$OUT/$name.times" | median)"
done

. "$TOP/scripts/debsrc.sh"
if ! wanted cc-sqlite3; then
    :
elif sq=$(debsrc_sqlite3_c "$TOP/build/real/src" 2> "$OUT/amalgamation.log")
then
    : > "$OUT/cc-sqlite3.times"
    i=0
    while [ "$i" -lt "$CC_RUNS" ]; do
        p=$(timed "$OUT/cc-sqlite3.plain" \
                "$CC" -O2 -g -c "$sq" -o "$OUT/sqlite3.plain.o")
        m=$(timed "$OUT/cc-sqlite3.memprof" \
                "$CC" -O2 -g -fplugin="$TOP/plugin/memprof.so" \
                -c "$sq" -o "$OUT/sqlite3.memprof.o")
        echo "$p $m" >> "$OUT/cc-sqlite3.times"
        i=$((i + 1))
    done
    row cc-sqlite3
else
    show 'cc-sqlite3 skipped: %s (make check-real, as root, prepares it)\n' \
        "$(tail -1 "$OUT/amalgamation.log")"
fi

. "$TOP/bench/real.sh"
