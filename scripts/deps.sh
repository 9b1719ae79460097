#!/bin/sh
# deps.sh [check|fuzz] -- install the Debian packages memprof needs to
# build (and, with `check', to run the testsuite: Chromium renders the
# HTML report, jq reads the JSON report the page is checked against,
# go's pprof reads the pprof profile, valgrind's DHAT counts the
# allocations memprof's totals must equal, autoconf and cmake build the
# compiler wrappers' test projects; with `fuzz', only
# what `make fuzz' needs: clang-$FUZZ_LLVM and its libFuzzer).  Prints
# nothing and exits 0 when everything is there.  As root it runs
# apt-get; otherwise it prints the command to run and exits 1.
set -u

# The plugin must be built with the headers of the compiler that loads it.
build_packages() {
    cc=${CC:-gcc}
    major=$($cc -dumpversion 2>/dev/null | cut -d. -f1)
    if [ -z "$major" ]; then
        echo "deps: cannot run '$cc -dumpversion'; install gcc (apt-get install gcc)" >&2
        exit 1
    fi
    echo "gcc-$major-plugin-dev g++-$major libgc-dev dejagnu pkg-config" \
         "libdw-dev libunwind-dev zlib1g-dev gdb"
}

case ${1:-} in
    fuzz)
        llvm=${FUZZ_LLVM:-14}
        pkgs="clang-$llvm libclang-rt-$llvm-dev" ;;
    check)
        pkgs="$(build_packages) chromium jq golang-go valgrind autoconf cmake" ;;
    *)
        pkgs=$(build_packages) ;;
esac

if ! command -v dpkg-query >/dev/null 2>&1; then
    echo "deps: not a Debian system; make sure these are installed: $pkgs" >&2
    exit 0
fi

missing=
for p in $pkgs; do
    status=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null)
    case $status in
        *" installed") ;;
        *) missing="$missing $p" ;;
    esac
done
# g++-N has no plain `g++' command; the Makefile's CXX needs one.
[ "${1:-}" = fuzz ] || command -v "${CXX:-g++}" >/dev/null 2>&1 \
    || missing="$missing g++"
[ -z "$missing" ] && exit 0

echo "deps: missing packages:$missing"
if [ "$(id -u)" -ne 0 ]; then
    echo "deps: run as root, or:" >&2
    echo "  sudo apt-get install -y --no-install-recommends$missing" >&2
    exit 1
fi

export DEBIAN_FRONTEND=noninteractive
if ! apt-get update -q; then
    echo "deps: 'apt-get update' failed; cannot install:$missing" >&2
    exit 1
fi
# shellcheck disable=SC2086
if ! apt-get install -y -q --no-install-recommends $missing; then
    echo "deps: 'apt-get install$missing' failed" >&2
    exit 1
fi
echo "deps: installed$missing"
