# debsrc.sh -- Debian sources for scripts/check-real.sh and bench/run.sh,
# which source this file.  Each function says why on stderr and returns
# non-zero when it fails.  POSIX sh has no locals: names start with ds_.

# debsrc_fetch PKG DIR: unpack the source of PKG once, under DIR/PKG;
# print the source tree's path.  A mirror may lack a version (this one
# had no bookworm-security sources: another version is tried) or part of
# one (w3m's .orig but not its .debian.tar: the upstream tarball alone is
# unpacked, without Debian's patches).
debsrc_fetch() {
    ds_d=$2/$1
    if [ ! -f "$ds_d/.unpacked" ]; then
        rm -rf "$ds_d" && mkdir -p "$ds_d" || return 1
        # APT's choice first, then each version it knows.
        if ! for ds_v in "" $(apt-cache showsrc "$1" |
                                  sed -n 's/^Version: //p')
             do
                 (cd "$ds_d" && apt-get source -q "$1${ds_v:+=$ds_v}") &&
                     break
                 false
             done > "$ds_d/fetch.log" 2>&1
        then
            for ds_t in "$ds_d"/*.orig.tar.*; do break; done
            if [ ! -f "$ds_t" ] || ! (cd "$ds_d" && mkdir "$1-upstream" &&
                    tar -C "$1-upstream" --strip-components=1 -xf "$ds_t")
            then
                echo "cannot fetch $1's source: see $ds_d/fetch.log" >&2
                return 1
            fi
        fi
        touch "$ds_d/.unpacked"
    fi
    for ds_t in "$ds_d"/*/; do
        case $ds_t in
            *-upstream/) echo "upstream source only, without Debian's patches" >&2
        esac
        echo "${ds_t%/}"
        return 0
    done
    echo "$1: no source tree in $ds_d" >&2
    return 1
}

# debsrc_sqlite3_c DIR: make the SQLite amalgamation from Debian's
# sqlite3 source, once, in DIR/sqlite3-build; copy it, the shell and
# SQLite's speedtest1.c to DIR/sqlite3-amalgamation; print the path of
# sqlite3.c there.  SQLite's build writes the amalgamation with tclsh.
debsrc_sqlite3_c() {
    ds_a=$1/sqlite3-amalgamation
    ds_b=$1/sqlite3-build
    if [ ! -f "$ds_a/.done" ]; then
        command -v tclsh > /dev/null || {
            echo "the SQLite amalgamation needs tclsh (apt-get install tcl)" >&2
            return 1; }
        ds_s=$(debsrc_fetch sqlite3 "$1") || return 1
        rm -rf "$ds_a" "$ds_b" && mkdir -p "$ds_a" "$ds_b" || return 1
        if ! (cd "$ds_b" && "$ds_s/configure" && make sqlite3.c shell.c &&
              cp sqlite3.c sqlite3.h shell.c "$ds_s/test/speedtest1.c" "$ds_a")\
                > "$ds_b/make.log" 2>&1; then
            echo "cannot make sqlite3.c: see $ds_b/make.log" >&2
            return 1
        fi
        touch "$ds_a/.done"
    fi
    echo "$ds_a/sqlite3.c"
}
