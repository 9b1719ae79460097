#!/bin/sh
# real.sh TOP -- make bench's rows of real programs: the programs of make
# check-real (scripts/check-real.sh), each built plain and with
# memprof-gcc alone from Debian's source, timed on a workload of their
# own, pair by pair, at memprof's default settings.  Sourced by
# bench/run.sh, whose OUT, RUNS, timed, row, show and wanted it uses.
#
# The builds are check-real's, in TOP/build/real/P/{plain,memprof}; a
# missing one is built here (`check-real.sh TOP --build P'), which needs
# the source: make check-real, as root, fetches it once.  A program whose
# builds cannot be had gets a "skipped" row saying why.

REAL=$TOP/build/real
REAL_RUNS=${BENCH_REAL_RUNS:-$RUNS}

# real_P DIR: run P's workload in its build tree DIR, output on stdout.
# Each takes about a second plain on this project's 2-core machines.

# w3m, on Boehm GC: the HTML manuals, sixteen times over, dumped as text.
real_w3m() {
    [ -f "$OUT/real-w3m.html" ] ||
        for _ in $(seq 16); do cat "$1"/doc/*.html "$1"/doc-de/*.html; done \
            > "$OUT/real-w3m.html"
    HOME=$OUT/real-home "$1/w3m" -config /dev/null -dump -cols 100 \
        -o display_link_number=1 "$OUT/real-w3m.html"
}

# jq: objects built, filtered and grouped.
real_jq() {
    "$1/jq" -n -c '[range(100000) | {k: (. % 97 | tostring), v: .}]
        | group_by(.k) | map({k: .[0].k, n: length, s: (map(.v) | add)})
        | length'
}

# gawk: an associative array of strings, built and walked.
real_gawk() {
    "$1/gawk" 'BEGIN { for (i = 0; i < 1000000; i++) a[i] = i "-" i * 3;
                       for (k in a) n += length(a[k]); print n }'
}

# jq-sh: jq's own shell test (tests/shtest), which starts some 350 jq
# processes of a few milliseconds each, as issue 18 measures short-lived
# processes on a real program; each profiled one writes its report.
real_jq_sh() {
    (cd "$1" && NO_VALGRIND=1 sh tests/shtest)
}

# sqlite3: the shell on an in-memory table with an index and FTS5.
real_sqlite3() {
    "$1/sqlite3" -bail :memory: <<'EOF'
CREATE TABLE t (a INTEGER PRIMARY KEY, b TEXT);
WITH RECURSIVE n (i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 100000)
  INSERT INTO t SELECT i, printf ('row %d of %s', i, hex (i * i)) FROM n;
CREATE INDEX tb ON t (b);
CREATE VIRTUAL TABLE f USING fts5 (x);
INSERT INTO f SELECT b FROM t;
SELECT count (*) FROM f WHERE f MATCH 'row AND 1*';
SELECT count (*), max (b) FROM t;
EOF
}

# profiled SETTINGS CMD...: CMD with MEMPROF=SETTINGS (CMD may be one of
# the functions above, which env cannot run).
profiled() {
    (MEMPROF=$1 && export MEMPROF && shift && "$@")
}

# real_row NAME [P]: the row real-NAME of program P (default NAME), whose
# workload is real_NAME with `-' as `_', or why it has none.  Each
# profiled process writes a report of its own.
real_row() {
    p=${2:-$1}
    d=$REAL/$p
    if [ ! -x "$d/plain/$p" ] || [ ! -x "$d/memprof/$p" ]; then
        sh "$TOP/scripts/check-real.sh" "$TOP" --build "$p" \
            > "$OUT/real-$1.build.log" 2>&1 ||
            { show 'real-%-5s skipped: %s\n' "$1" \
                  "$(tail -1 "$OUT/real-$1.build.log") (make check-real, as root, fetches the source)"
              return; }
    fi
    mkdir -p "$OUT/real-home"
    rm -rf "$OUT/real-$1.reports" && mkdir -p "$OUT/real-$1.reports"
    : > "$OUT/real-$1.times"
    f=real_$(echo "$1" | tr - _)
    i=0
    while [ "$i" -lt "$REAL_RUNS" ]; do
        tp=$(timed "$OUT/real-$1.plain" "$f" "$d/plain")
        tm=$(timed "$OUT/real-$1.memprof" profiled \
                 "report=$OUT/real-$1.reports/%p" "$f" "$d/memprof")
        echo "$tp $tm" >> "$OUT/real-$1.times"
        i=$((i + 1))
    done
    cmp -s "$OUT/real-$1.plain.out" "$OUT/real-$1.memprof.out" ||
        echo "bench: warning: real-$1 output differs under memprof" >&2
    row "real-$1"
}

for rp in ${REAL_PROGRAMS:-w3m jq gawk sqlite3}; do
    if wanted "real-$rp"; then
        real_row "$rp"
    fi
done
case " ${REAL_PROGRAMS:-jq} " in
    *" jq "*) ! wanted real-jq-sh || real_row jq-sh jq ;;
esac
