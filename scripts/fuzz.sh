#!/bin/sh
# fuzz.sh DIR SECONDS NAME... -- run each libFuzzer harness DIR/NAME
# (built from fuzz/NAME.c) for SECONDS, and fail at its first crash,
# leak, hang (an input over 5 s) or excess memory (over 2 GB).
#
# It starts from the seed corpus testsuite/fuzz/NAME and the seeds built
# into DIR/seeds/NAME, if there are, which it only reads, and from
# DIR/corpus/NAME, where it keeps the inputs it finds, so that each run
# goes on from the last without touching the tree; with the dictionary
# testsuite/fuzz/NAME.dict, if there is one.  DEBUGINFOD_URLS is unset:
# the symbols harness would have libdw ask those servers about every
# input.
# Its output goes to DIR/NAME.log; the input that failed, to
# DIR/NAME-crash-* (or leak-, timeout-, oom-), which replays with
# `DIR/NAME FILE'.
set -u
dir=$1 seconds=$2
shift 2
for name; do
    corpus=$dir/corpus/$name
    log=$dir/$name.log
    mkdir -p "$corpus"
    set -- "$corpus"
    for seeds in "testsuite/fuzz/$name" "$dir/seeds/$name"; do
        [ -d "$seeds" ] && set -- "$@" "$seeds"
    done
    dict=testsuite/fuzz/$name.dict
    [ -f "$dict" ] && set -- -dict="$dict" "$@"
    echo "fuzz: $name, ${seconds}s"
    if ! env -u DEBUGINFOD_URLS UBSAN_OPTIONS=print_stacktrace=1 \
            "$dir/$name" -max_total_time="$seconds" -timeout=5 \
            -rss_limit_mb=2048 -artifact_prefix="$dir/$name-" \
            -print_final_stats=1 "$@" >"$log" 2>&1; then
        tail -n 40 "$log" >&2
        echo "fuzz: $name FAILED: see $log and $dir/$name-*" >&2
        exit 1
    fi
    runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
    echo "fuzz: $name: $runs runs, $(ls "$corpus" | wc -l) inputs in $corpus, no failure"
done
