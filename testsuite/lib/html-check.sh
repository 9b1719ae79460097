#!/bin/sh
# html-check.sh FILE.html SCREENSHOT.png [DOM] -- check an HTML report in
# headless Chromium.
#
# Step 1 loads FILE.html#selftest with --dump-dom and reads the line the
# page's self-test writes into <pre id="memprof-selftest">; the dumped DOM
# (the page as rendered, after the self-test's click, without its JSON)
# is kept in DOM if given.  Step 2 takes a
# screenshot of FILE.html (1280x2000).  On success prints one line,
#     selftest: pass ... screenshot=<bytes>
# and exits 0; otherwise prints one `html-check: ...' line, shows the tail
# of Chromium's log on stderr and exits 1.  Exits 77 (UNSUPPORTED) when
# there is no Chromium.  CHROMIUM may name another binary.  No network.

if [ $# -ne 2 ] && [ $# -ne 3 ]; then
    echo "html-check: usage: html-check.sh FILE.html SCREENSHOT.png [DOM]"
    exit 1
fi
file=$1 shot=$2 dom=${3:-}

chromium=${CHROMIUM:-/usr/bin/chromium}
if [ ! -x "$chromium" ]; then
    chromium=$(command -v chromium 2>/dev/null || command -v chromium-browser 2>/dev/null)
    if [ -z "$chromium" ]; then
	echo "html-check: UNSUPPORTED no chromium"
	exit 77
    fi
fi
if [ ! -r "$file" ]; then
    echo "html-check: cannot read $file"
    exit 1
fi

# Absolute paths: Chromium resolves neither the URL nor the screenshot
# path against our directory reliably.
case $file in /*) ;; *) file=$PWD/$file ;; esac
case $shot in /*) ;; *) shot=$PWD/$shot ;; esac
# A file: URL needs %, #, ? and spaces escaped (% first).
url=file://$(printf '%s' "$file" | sed -e 's/%/%25/g' -e 's/ /%20/g' -e 's/#/%23/g' -e 's/?/%3F/g')

tmp=$(mktemp -d "${TMPDIR:-/tmp}/html-check.XXXXXX") || {
    echo "html-check: cannot make a temporary directory"
    exit 1
}
trap 'rm -rf "$tmp"' EXIT
trap 'exit 1' HUP INT TERM

# Chromium as root needs --no-sandbox.  The other switches keep it from
# phoning home (component updates, safe browsing, metrics) and from
# waiting for D-Bus; /dev/shm is tiny in many containers, so it is not
# used; the virtual time budget lets the page's script finish
# before the DOM is dumped or the screenshot taken.
run () {
    # $1: profile directory name; the rest: extra arguments.
    profile=$tmp/$1
    shift
    DBUS_SESSION_BUS_ADDRESS=disabled: \
    timeout 60 "$chromium" --headless --no-sandbox --disable-gpu \
	--user-data-dir="$profile" --no-first-run --no-default-browser-check \
	--disable-extensions --disable-background-networking \
	--disable-component-update --disable-sync --disable-default-apps \
	--disable-domain-reliability --no-pings --metrics-recording-only \
	--safebrowsing-disable-auto-update --hide-scrollbars \
	--disable-dev-shm-usage \
	--virtual-time-budget=5000 --window-size=1280,2000 "$@" \
	2>>"$tmp/chromium.log"
}

fail () {
    echo "html-check: $*"
    if [ -s "$tmp/chromium.log" ]; then
	# Without its D-Bus complaints, which are always there.
	echo "html-check: last lines of chromium's log:" >&2
	grep -v 'dbus/' "$tmp/chromium.log" | tail -n 15 >&2
    fi
    exit 1
}

# Step 1: the self-test.
run dom --dump-dom "$url#selftest" >"$tmp/dom.html"
rc=$?
[ $rc -eq 124 ] && fail "chromium timed out (60 s) dumping the DOM of $file"
[ $rc -ne 0 ] && fail "chromium exited with status $rc dumping the DOM of $file"
if [ -n "$dom" ] && ! cp "$tmp/dom.html" "$dom"; then
    fail "cannot write the DOM to $dom"
fi
# The page writes the line as the only text of the element; the dump
# escapes &, <, > (and quotes), which we undo, &amp; last.
line=$(sed -n 's/.*<pre id="memprof-selftest"[^>]*>\(selftest: [^<]*\)<\/pre>.*/\1/p' "$tmp/dom.html" |
       head -n 1 |
       sed -e 's/&lt;/</g' -e 's/&gt;/>/g' -e 's/&quot;/"/g' -e "s/&#39;/'/g" \
	   -e 's/&nbsp;/ /g' -e 's/&amp;/\&/g')
[ -z "$line" ] && fail "no selftest line in the DOM of $file (did the page's script run?)"

# Step 2: the screenshot.
rm -f "$shot"
run shot --screenshot="$shot" "$url" >>"$tmp/chromium.log"
rc=$?
[ $rc -eq 124 ] && fail "chromium timed out (60 s) taking the screenshot of $file"
[ $rc -ne 0 ] && fail "chromium exited with status $rc taking the screenshot of $file"
[ -s "$shot" ] || fail "no screenshot written to $shot"
bytes=$(wc -c <"$shot" | tr -d ' ')

case $line in
    "selftest: pass "*) ;;
    *) fail "$line screenshot=$bytes" ;;
esac
echo "$line screenshot=$bytes"
exit 0
