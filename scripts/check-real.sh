#!/bin/sh
# check-real.sh TOP -- memprof on real programs, from Debian's sources.
#
# Each program is built twice from the same source tree, plain (CC=gcc)
# and with CC=memprof-gcc, the build tree's wrapper, alone: no LIBS, no
# flags but the plugin's options some programs need.  Both builds run the program's own test
# suite or a workload and must print the same, once the paths of their
# build trees are made alike; the memprof build must also leave complete
# reports with sites in the program's own files.
#
#   w3m      on Boehm GC: its tests/, and dumps of its HTML manuals
#   jq       make check; its allocation wrappers given as allocators
#   gawk     make check of test/; pma_malloc given as an allocator, and
#            the extensions it loads built with the plugin too
#   sqlite3  the amalgamation, as Debian configures it: speedtest1
#            --verify and a shell session
#
# As root it installs the packages it needs, and for apt-get source adds
# deb-src twins of the Debian entries of APT's sources if there are
# none.  Work goes to TOP/build/real.  `check-real.sh TOP --build P'
# only builds P's two variants, as make bench wants them.  Prints a PASS or FAIL line per
# program and exits 1 if any failed.  REAL_PROGRAMS="w3m jq" picks some.

# The per-program functions are called by name, as "${p}_build".
# shellcheck disable=SC2317
set -u

TOP=$(cd "${1:-$(dirname "$0")/..}" && pwd)
WORK=$TOP/build/real
PROGRAMS=${REAL_PROGRAMS:-w3m jq gawk sqlite3}
JOBS=$(nproc 2>/dev/null || echo 2)
LIMIT=1200                      # seconds for one build's tests: a hang fails
. "$TOP/scripts/debsrc.sh"

PKGS="dpkg-dev autoconf automake libtool bison flex tcl locales libgc-dev
libncurses-dev libssl-dev zlib1g-dev libonig-dev libmpfr-dev libreadline-dev"

# The wrapper links its default runtime, the shared one: one copy for a
# program and the modules it loads (gawk's extensions), kept for the
# archives a package links after LIBS (w3m's libindep.a).
MP_CC=$TOP/build/bin/memprof-gcc

# Each program P has P_source (print the source tree), P_build and P_run
# (in a copy of it, with CC and JOBS), P_filter (stdin to stdout: what
# may differ between runs), P_sites (a regexp for the report's site
# lines) and, optionally, P_plugin (more options for the plugin).

w3m_source() { debsrc_fetch w3m "$WORK/src"; }
w3m_build() {
    ./configure --disable-image --with-termlib=ncurses CC="$CC" &&
        make -j"$JOBS"
}
w3m_run() {
    mkdir -p "$HOME"
    (cd tests && sh ./run_tests) || return
    for f in doc/*.html doc-de/*.html doc-jp/*.html; do
        ./w3m -config /dev/null -dump -cols 80 "$f" || return
    done
    # One large page: Boehm collects many times over.
    seq 8 | while read -r _; do
        cat doc/*.html doc-de/*.html doc-jp/*.html
    done > big.html
    ./w3m -config /dev/null -dump -cols 100 -o display_link_number=1 big.html
}
w3m_filter() { cat; }
w3m_sites() { echo '^Str\.c\([0-9]+\): .*  GC_malloc(_atomic)? in Str'; }

jq_source() {
    s=$(debsrc_fetch jq "$WORK/src") || return
    [ -f "$s/configure" ] || (cd "$s" && autoreconf -fi) > "$s.autoreconf.log" 2>&1 ||
        { echo "autoreconf failed: see $s.autoreconf.log" >&2; return 1; }
    echo "$s"
}
jq_plugin() {
    a=jv_mem_alloc:malloc,jv_mem_alloc_unguarded:malloc
    echo "-fplugin-arg-memprof-allocator=$a,jv_mem_calloc:malloc,jv_mem_strdup:malloc"
}
jq_build() {
    ./configure --disable-shared --disable-valgrind --disable-docs \
        --disable-maintainer-mode CC="$CC" && make -j"$JOBS"
}
jq_run() {
    NO_VALGRIND=1 make check
    st=$?
    cat tests/*.log
    return "$st"
}
# The shell tests trace to stderr, their commands print to stdout: the
# order of the two varies.
jq_filter() { grep -v '^+ ' | sed 's|/tmp/jq[A-Za-z0-9]*|TMPDIR|g'; }
jq_sites() { echo '^src/[a-z_]+\.c\([0-9]+\): .*  jv_mem_alloc in '; }

gawk_source() {
    # The tests of thousands separators and multibyte strings want
    # en_US.UTF-8: made here, for LOCPATH, rather than installed.
    l=$WORK/locales/en_US.UTF-8
    [ -d "$l" ] || { mkdir -p "$WORK/locales" &&
                     localedef -i en_US -f UTF-8 "$l"; } || [ -d "$l" ] ||
        return
    debsrc_fetch gawk "$WORK/src"
}
gawk_plugin() { echo "-fplugin-arg-memprof-allocator=pma_malloc:malloc,pma_calloc:malloc"; }
gawk_build() {
    ./configure CC="$CC" || return
    # Debian's source lacks the manual's sources: as in debian/rules.
    for f in gawktexi.in sidebar.awk gawk.texi gawk.info gawkinet.texi \
             gawkinet.info gawkworkflow.texi gawkworkflow.info pm-gawk.texi \
             pm-gawk.info; do
        touch -t 200001010000 "doc/$f" || return
    done
    make -j"$JOBS"
}
gawk_run() { LOCPATH=$WORK/locales make -C test check; }
gawk_filter() { cat; }
gawk_sites() { echo '^[a-z_]+\.[chy]\([0-9]+\): .*  pma_malloc in '; }

sqlite3_source() {
    s=$(debsrc_sqlite3_c "$WORK/src") || return
    dirname "$s"
}
sqlite3_build() {
    # Debian's CFLAGS, and what its configure finds.
    f="-O2 -g -fno-strict-aliasing -DSQLITE_SECURE_DELETE
       -DSQLITE_ENABLE_COLUMN_METADATA -DSQLITE_ENABLE_FTS3
       -DSQLITE_ENABLE_FTS3_PARENTHESIS -DSQLITE_ENABLE_RTREE=1
       -DSQLITE_SOUNDEX=1 -DSQLITE_ENABLE_UNLOCK_NOTIFY
       -DSQLITE_OMIT_LOOKASIDE=1 -DSQLITE_ENABLE_DBSTAT_VTAB
       -DSQLITE_ENABLE_JSON1 -DSQLITE_THREADSAFE=1 -DSQLITE_ENABLE_FTS5
       -DSQLITE_ENABLE_MATH_FUNCTIONS -DHAVE_MALLOC_H=1
       -DHAVE_MALLOC_USABLE_SIZE=1 -DHAVE_USLEEP=1"
    # shellcheck disable=SC2086
    $CC $f -c sqlite3.c && $CC $f -c speedtest1.c &&
        $CC -O2 -g -c shell.c &&
        $CC -o speedtest1 speedtest1.o sqlite3.o -lpthread -ldl -lm &&
        $CC -o sqlite3 shell.o sqlite3.o -lpthread -ldl -lm
}
sqlite3_run() {
    ./speedtest1 --memdb --verify --size 40 --testset main,cte,orm,fp &&
        ./speedtest1 --memdb --verify --size 5 --testset rtree || return
    ./sqlite3 -bail :memory: <<'EOF'
CREATE TABLE t (a INTEGER PRIMARY KEY, b TEXT, c REAL);
WITH RECURSIVE n (i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 50000)
  INSERT INTO t SELECT i, printf ('row %d of %s', i, hex (i * i)), i * 0.25 FROM n;
CREATE INDEX tb ON t (b);
SELECT count (*), sum (c), max (b), length (group_concat (b, ',')) FROM t;
SELECT a, sum (c) OVER (ORDER BY a ROWS 100 PRECEDING) FROM t WHERE a % 5000 = 0;
SELECT json_group_array (json_object ('a', a, 'b', b)) FROM t WHERE a < 8;
CREATE VIRTUAL TABLE f USING fts5 (x);
INSERT INTO f SELECT b || ' ' || substr ('alpha beta gamma delta', a % 17) FROM t;
SELECT count (*) FROM f WHERE f MATCH 'gamma AND row';
UPDATE t SET b = upper (b) WHERE a % 3 = 0;
DELETE FROM t WHERE a % 7 = 0;
SELECT count (*), total (length (b)) FROM t;
.dump f_config
EOF
}
sqlite3_filter() { sed 's/ *[0-9]*\.[0-9]*s$//'; }
sqlite3_sites() { echo '^sqlite3\.c\([0-9]+\): .*  malloc in sqlite3MemMalloc'; }

# The tests of one build, run by `check-real.sh TOP --run P' in its tree,
# so that timeout can end them.
if [ "${2:-}" = --run ]; then
    "${3}_run"
    exit
fi

# Packages, and deb-src lines for apt-get source.
have_deb_src() {
    cat /etc/apt/sources.list /etc/apt/sources.list.d/*.list \
        /etc/apt/sources.list.d/*.sources 2>/dev/null |
        grep -Eq '^[[:space:]]*(deb-src[[:space:]]|Types:.*deb-src)'
}
add_deb_src() {
    for f in /etc/apt/sources.list.d/*.sources; do
        [ -f "$f" ] && cat "$f" && echo
    done | awk 'BEGIN { RS = ""; ORS = "\n\n" }
                /(^|\n)Types: *deb *(\n|$)/ && /debian/ {
                    sub(/Types: *deb/, "Types: deb-src"); print }' \
        > /etc/apt/sources.list.d/memprof-deb-src.sources
    [ ! -f /etc/apt/sources.list ] ||
        sed -n 's/^deb\([[:space:]]\)/deb-src\1/p' /etc/apt/sources.list \
            > /etc/apt/sources.list.d/memprof-deb-src.list
    echo "check-real: added deb-src entries to" \
         "/etc/apt/sources.list.d/memprof-deb-src.*"
}
setup() {
    missing=
    for p in $PKGS; do
        case $(dpkg-query -W -f='${Status}' "$p" 2>/dev/null) in
            *" installed") ;;
            *) missing="$missing $p" ;;
        esac
    done
    src=yes
    have_deb_src || src=
    [ -z "$missing" ] && [ -n "$src" ] && return 0
    if [ "$(id -u)" -ne 0 ]; then
        [ -n "$missing" ] && echo "check-real: run as root, or:" \
            "apt-get install$missing" >&2
        [ -z "$src" ] && echo "check-real: apt-get source needs" \
            "deb-src lines in /etc/apt/sources.list.d" >&2
        return 1
    fi
    [ -n "$src" ] || add_deb_src
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -q > "$WORK/apt.log" 2>&1 ||
        { echo "check-real: apt-get update failed: see $WORK/apt.log" >&2; return 1; }
    [ -z "$missing" ] && return 0
    # shellcheck disable=SC2086
    apt-get install -y -q --no-install-recommends $missing >> "$WORK/apt.log" 2>&1 ||
        { echo "check-real: cannot install$missing: see $WORK/apt.log" >&2; return 1; }
}

# build P NAME CC: build P in $WORK/P/NAME, a fresh copy of $SRC.
build() {
    d=$WORK/$1/$2
    rm -rf "$d" "$d.reports" "$d.home" && mkdir -p "$d.reports" &&
        cp -a "$SRC/." "$d" || return 1
    (cd "$d" && CC=$3 && "$1_build") > "$d.build.log" 2>&1 ||
        { echo "$2 build failed: see $d.build.log"; return 1; }
}

# variant P NAME CC: build P in $WORK/P/NAME from $SRC and run its tests
# there, reports to $WORK/P/NAME.reports; the filtered output, paths and
# compilers made alike, in $WORK/P/NAME.out.
variant() {
    build "$@" || return 1
    (cd "$d" && HOME=$d.home MEMPROF=report=$d.reports/%p.report &&
        export HOME MEMPROF && timeout "$LIMIT" sh "$TOP/scripts/check-real.sh" \
            "$TOP" --run "$1") > "$d.log" 2>&1
    echo "exit status $?" >> "$d.log"
    sed -e "s|$d|BUILD|g" \
        -e 's|[^ ]*/memprof-gcc\( -fplugin-arg-[^ ]*\)*|gcc|g' "$d.log" |
        "$1_filter" > "$d.out"
}

# prepare P: its source tree in SRC and its plugin options in plugin;
# why says why when there is no source.
prepare() {
    SRC=$("${1}_source" 2> "$WORK/$1.source.log") ||
        { why="no source: $(tail -1 "$WORK/$1.source.log")"; return 1; }
    mkdir -p "$WORK/$1"
    plugin=
    if command -v "${1}_plugin" > /dev/null; then
        plugin=" $("${1}_plugin")"
    fi
}

# check P: one PASS or FAIL line.
check() {
    p=$1
    prepare "$p" || { echo "FAIL: $p: $why"; return 1; }
    if ! why=$(variant "$p" plain gcc) ||
       ! why=$(variant "$p" memprof "$MP_CC$plugin"); then
        echo "FAIL: $p: $why"
        return 1
    fi
    d=$WORK/$p
    # configure must have found the same system with the plugin.
    if [ -f "$d/plain/config.h" ] &&
       ! cmp -s "$d/plain/config.h" "$d/memprof/config.h"; then
        echo "FAIL: $p: configure found other features: see $d/*/config.log"
        return 1
    fi
    if [ "$(tail -1 "$d/plain.out")" != "exit status 0" ]; then
        echo "FAIL: $p: the plain build fails its tests: see $d/plain.log"
        return 1
    fi
    if ! cmp -s "$d/plain.out" "$d/memprof.out"; then
        diff "$d/plain.out" "$d/memprof.out" > "$d/out.diff"
        echo "FAIL: $p: outputs differ: see $d/out.diff"
        return 1
    fi
    n=$(find "$d/memprof.reports" -type f | wc -l)
    bad=$(find "$d/memprof.reports" -type f \
              ! -exec grep -q '^==== end of memprof report' {} \; -print |
          head -1)
    if [ "$n" -eq 0 ] || [ -n "$bad" ]; then
        echo "FAIL: $p: $n reports, ${bad:-all} incomplete"
        return 1
    fi
    sites=$(find "$d/memprof.reports" -type f -exec cat {} + |
                grep -Ec "$("${p}_sites")")
    if [ "$sites" -eq 0 ]; then
        echo "FAIL: $p: no site of the program in its $n reports"
        return 1
    fi
    note=$(tail -1 "$WORK/$p.source.log")
    echo "PASS: $p (same output; $n reports${note:+; $note})"
}

if [ ! -x "$MP_CC" ]; then
    echo "check-real: build memprof first (make)" >&2
    exit 1
fi
# `check-real.sh TOP --build P' (for make bench): P's plain and memprof
# builds only, no tests, without installing anything.
if [ "${2:-}" = --build ]; then
    mkdir -p "$WORK/src" || exit 1
    prepare "$3" || { echo "$why" >&2; exit 1; }
    build "$3" plain gcc && build "$3" memprof "$MP_CC$plugin"
    exit
fi
mkdir -p "$WORK/src" && setup || exit 1
st=0
for p in $PROGRAMS; do
    check "$p" || st=1
done
exit $st
