#!/bin/sh
# mutate.sh [LIST [NAME...]] -- does the testsuite catch small bugs?
#
# Each line of LIST (default testsuite/mutations.txt) puts one small bug
# into a copy of the tree:
#
#     NAME @@ FILE @@ PATTERN @@ REPLACEMENT @@ TESTS
#
# FILE is relative to the top; PATTERN is plain text (no regexp), which
# must occur in FILE exactly once, and is replaced by REPLACEMENT (may be
# empty).  TESTS are the tests that should catch it, each AREA.exp (all
# of it) or AREA.exp=TEST.c, separated by spaces.  Fields are trimmed;
# `#' starts a comment line.  With NAMEs, only those mutations are made.
#
# The copy is TOP/build/mutate/src: the tracked files as they are in the
# working tree, uncommitted changes included (new files must be added
# to git first).  It is built once and its TESTS are run unmutated, which
# must pass.  Then for each mutation: apply it, `make check
# RUNTESTFLAGS=...' on its TESTS only, undo it.  A mutation is caught
# when some test fails.  One row per mutation as it goes: caught, NOT
# CAUGHT, or ERROR (its pattern does not occur exactly once, or the
# mutated tree does not build); the logs stay in TOP/build/mutate.
# Exits 0 only if every mutation was caught.

set -u
TOP=$(cd "$(dirname "$0")/.." && pwd)
LIST=${1:-$TOP/testsuite/mutations.txt}
[ $# -gt 0 ] && shift
case $LIST in /*) ;; *) LIST=$PWD/$LIST ;; esac
WORK=$TOP/build/mutate
SRC=$WORK/src
# The copy's makes are ours alone: not the flags of a make that runs us.
unset MAKEFLAGS MFLAGS MAKELEVEL RUNTESTFLAGS

die () {
    echo "mutate: $*" >&2
    exit 1
}

[ -r "$LIST" ] || die "cannot read $LIST"
command -v perl >/dev/null 2>&1 || die "needs perl"

# The mutations of LIST (those NAMEd, if any), five lines each: name,
# file, pattern, replacement, tests; a bad line stops everything.
parse () {
    awk -v only=" $* " '
        /^[ \t]*(#|$)/ { next }
        {
            n = split ($0, f, /[ \t]*@@[ \t]*/)
            if (n != 5) {
                printf "%s:%d: %d fields, not 5 (NAME @@ FILE @@ PATTERN @@ REPLACEMENT @@ TESTS)\n", FILENAME, NR, n > "/dev/stderr"
                bad = 1
                next
            }
            sub (/^[ \t]+/, "", f[1])
            sub (/[ \t]+$/, "", f[5])
            if (f[5] !~ /\.exp/) {
                printf "%s:%d: no .exp file among the tests\n", FILENAME, NR > "/dev/stderr"
                bad = 1
            }
            if (f[1] in seen) {
                printf "%s:%d: %s named twice\n", FILENAME, NR, f[1] > "/dev/stderr"
                bad = 1
            }
            seen[f[1]] = 1
            if (only != "  " && index (only, " " f[1] " ") == 0)
                next
            for (i = 1; i <= 5; i++)
                print f[i]
        }
        END {
            k = split (only, want, " ")
            for (i = 1; i <= k; i++)
                if (!(want[i] in seen)) {
                    printf "%s: no mutation named %s\n", FILENAME, want[i] > "/dev/stderr"
                    bad = 1
                }
            exit bad
        }' "$LIST"
}

# RUNTESTFLAGS for TESTS (AREA.exp and AREA.exp=TEST.c words, read on
# stdin): the tests of one .exp go together, since runtest keeps only
# the last filter given for an .exp.
runtest_flags () {
    tr -s ' \t' '\n\n' | awk '
        /^$/ { next }
        {
            x = $0; test = ""
            if ((i = index ($0, "=")) > 0) {
                x = substr ($0, 1, i - 1); test = substr ($0, i + 1)
            }
            if (!(x in order)) { order[x] = ++n; name[n] = x }
            if (test == "") all[x] = 1
            else if (index (" " tests[x] " ", " " test " ") == 0)
                tests[x] = tests[x] (tests[x] == "" ? "" : " ") test
        }
        END {
            for (i = 1; i <= n; i++) {
                e = name[i]
                printf "%s%s", (i > 1 ? " " : ""), e
                if (!(e in all)) printf "=\"%s\"", tests[e]
            }
            print ""
        }'
}

# The failures of the last check, in a few words.
failures () {
    f=$(grep -cE '^(FAIL|UNRESOLVED|ERROR):' "$SRC/testsuite/memprof.sum" 2>/dev/null)
    echo "${f:-0} failed"
}

parse "$@" >/dev/null || die "nothing done: fix the list or the names given"
MUTATIONS=$WORK/mutations
rm -rf "$WORK"
mkdir -p "$SRC" || die "cannot make $SRC"
parse "$@" >"$MUTATIONS"
[ -s "$MUTATIONS" ] || die "no mutation to make${*:+ named $*}"

# The copy: the working tree's tracked files, through an index of our
# own, so that files only added with -N come with their contents (git
# stash create gives up on them).
index=$(git -C "$TOP" rev-parse --path-format=absolute --git-path index)
cp "$index" "$WORK/index" || die "cannot copy $index"
tree=$(GIT_INDEX_FILE=$WORK/index git -C "$TOP" add -u &&
       GIT_INDEX_FILE=$WORK/index git -C "$TOP" write-tree) ||
    die "cannot record the working tree"
git -C "$TOP" archive "$tree" | tar -x -C "$SRC" ||
    die "cannot copy the tree to $SRC"

echo "mutate: building in $SRC"
make -C "$SRC" all </dev/null >"$WORK/build.log" 2>&1 ||
    die "the unmutated tree does not build: $WORK/build.log"
all_tests=$(awk 'NR % 5 == 0' "$MUTATIONS" | runtest_flags)
[ -n "$all_tests" ] || die "no test named in $LIST"
echo "mutate: the unmutated tree on $all_tests"
make -C "$SRC" check RUNTESTFLAGS="$all_tests" </dev/null \
     >"$WORK/unmutated.log" 2>&1 ||
    die "the unmutated tree fails its tests ($(failures)): $WORK/unmutated.log"

printf '%-3s %-10s %-26s %-24s %s\n' '#' result mutation file tests
i=0 caught=0 total=0
while IFS= read -r name && IFS= read -r file && IFS= read -r pattern &&
      IFS= read -r replacement && IFS= read -r tests; do
    i=$((i + 1)) total=$((total + 1))
    log=$WORK/$i-$name.log
    target=$SRC/$file
    count=$(MP_PAT=$pattern perl -0777 -ne \
            'print scalar (() = /\Q$ENV{MP_PAT}\E/g)' "$target" 2>/dev/null)
    if [ "${count:-0}" != 1 ]; then
        result=ERROR why="pattern found ${count:-0} times"
    else
        cp -p "$target" "$WORK/original"
        MP_PAT=$pattern MP_REP=$replacement perl -0777 -pi -e \
            's/\Q$ENV{MP_PAT}\E/$ENV{MP_REP}/' "$target"
        if ! make -C "$SRC" all </dev/null >"$log" 2>&1; then
            result=ERROR why="does not build"
        elif make -C "$SRC" check RUNTESTFLAGS="$(echo "$tests" | runtest_flags)" \
                  </dev/null >>"$log" 2>&1; then
            result="NOT CAUGHT" why="all passed"
        else
            result=caught why=$(failures)
            caught=$((caught + 1))
        fi
        # Undone, and newer than what the mutant built.
        cp "$WORK/original" "$target"
        touch "$target"
    fi
    printf '%-3s %-10s %-26s %-24s %s: %s\n' "$i" "$result" "$name" "$file" \
        "$tests" "$why"
done <"$MUTATIONS"

echo "mutate: $caught of $total mutations caught (logs in $WORK)"
[ "$caught" -eq "$total" ]
