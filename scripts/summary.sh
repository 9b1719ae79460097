#!/bin/sh
# summary.sh [SUMFILE] -- print "N passed, N failed" from a DejaGnu .sum file
# (default testsuite/memprof.sum) and fail when a test failed or none passed.
# Failed counts unexpected failures, unresolved tests and ERROR lines (a
# broken directive stops a test without a FAIL).
sum=${1:-testsuite/memprof.sum}
if [ ! -r "$sum" ]; then
    echo "summary: $sum not found (did runtest run?)" >&2
    echo "0 passed, 0 failed"
    exit 1
fi
count() { grep -c "^$1" "$sum"; }
passed=$(count 'PASS:')
failed=$(count 'FAIL:')
unresolved=$(count 'UNRESOLVED:')
errors=$(grep '^ERROR:' "$sum" | sort -u | wc -l)
bad=$((failed + unresolved + errors))
if [ "$bad" -gt 0 ]; then
    grep -E '^(FAIL|UNRESOLVED|ERROR):' "$sum" | sort -u
    echo "($failed FAIL, $unresolved UNRESOLVED, $errors ERROR)"
fi
echo "$passed passed, $bad failed"
[ "$bad" -eq 0 ] && [ "$passed" -gt 0 ]
