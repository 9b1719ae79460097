#!/usr/bin/env python3
"""eventlog-check.py LOG [EXPECT] -- what an event log of memprof's
(MEMPROF=eventlog=PATH) holds, as lines that the tests of
memprof.eventlog/ match (scan-eventlog in lib/memprof.exp):

    parsed N events, closed|unclosed   the file is a JSON array, once a
                                       missing closing bracket is added
    balanced                           per thread, in the file's order,
                                       every B has its E, properly nested,
                                       and time does not go back
    unbalanced: WHY                    otherwise
    span NAME N                        N spans called NAME
    forced BY N                        N forced spans of args.by BY
    instant NAME N                     N instants called NAME
    counter NAME N                     N counter events called NAME
    threads N                          the threads that made events
    pids N                             the processes that made events

With EXPECT, a file of such lines, it also prints "expected: ok" if the
summary holds each of them, or "expected: LINE missing" for the first
that it does not.  A file that does not parse gives "error: WHY".
"""

import json
import sys
from collections import Counter


def load(path):
    with open(path, encoding="utf-8") as f:
        text = f.read()
    closed = text.rstrip().endswith("]")
    events = json.loads(text if closed else text + "]")
    if not isinstance(events, list):
        raise ValueError("not a JSON array")
    return events, closed


def check_thread(events):
    """The reason the events of one thread are not balanced, or None."""
    stack = []
    last = None
    for e in events:
        ph, ts = e["ph"], e["ts"]
        if last is not None and ts < last:
            return "time goes back at %r" % e
        last = ts
        if ph == "B":
            stack.append(e["name"])
        elif ph == "E":
            if not stack:
                return "an end without a beginning: %r" % e
            top = stack.pop()
            if top != e["name"]:
                return "%s ends inside %s: %r" % (e["name"], top, e)
    if stack:
        return "%d spans never end: %s" % (len(stack), ", ".join(stack))
    return None


def summary(events, closed):
    lines = ["parsed %d events, %s" % (len(events),
                                       "closed" if closed else "unclosed")]
    threads = {}
    counts = Counter()
    for e in events:
        if e["ph"] == "M":
            continue
        for key in ("name", "ts", "pid", "tid"):
            if key not in e:
                raise ValueError("an event without %s: %r" % (key, e))
        threads.setdefault((e["pid"], e["tid"]), []).append(e)
        if e["ph"] == "B":
            counts["span " + e["name"]] += 1
            if e["name"] == "forced":
                counts["forced " + e["args"]["by"]] += 1
        elif e["ph"] == "i":
            counts["instant " + e["name"]] += 1
        elif e["ph"] == "C":
            counts["counter " + e["name"]] += 1
    why = None
    for key in sorted(threads):
        why = why or check_thread(threads[key])
    lines.append("unbalanced: " + why if why else "balanced")
    lines += ["%s %d" % (k, n) for k, n in sorted(counts.items())]
    lines.append("threads %d" % len(threads))
    lines.append("pids %d" % len({pid for pid, _ in threads}))
    return lines


def main(argv):
    try:
        events, closed = load(argv[1])
        lines = summary(events, closed)
    except (OSError, ValueError, KeyError, TypeError) as err:
        print("error: %s" % err)
        return 1
    if len(argv) > 2:
        with open(argv[2], encoding="utf-8") as f:
            wanted = [l.strip() for l in f if l.strip()]
        missing = [w for w in wanted if w not in lines]
        lines.append("expected: " + (missing[0] + " missing" if missing
                                     else "ok"))
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
