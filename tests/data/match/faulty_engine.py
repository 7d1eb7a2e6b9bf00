#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""A UCI or xboard engine that misbehaves on purpose, for the match tests: it plays through
`carrera uci` or `carrera xboard` (the binary given as the first argument, the protocol as the
fifth, uci by default) and, at its FAULT_AT-th `go`, does FAULT instead of answering: crash
(exits with status 3), illegal (the move a1a1), garbage (a line the protocol does not allow
there: no UCI at all, or an xboard Error), hang (never answers). It does so once: the fault
creates the file MARKER, and a process started while MARKER exists (the restarted engine) plays
normally. Every other command is passed on.

usage: faulty_engine.py CARRERA_BINARY FAULT FAULT_AT MARKER [uci|xboard]
"""
import os
import subprocess
import sys
import time


def main():
    carrera, fault, fault_at, marker = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
    protocol = sys.argv[5] if len(sys.argv) > 5 else "uci"
    uci = protocol == "uci"
    if os.path.exists(marker):
        fault_at = 0
    engine = subprocess.Popen([carrera, protocol], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                              text=True, bufsize=1)
    # the commands that have an answer, and how it ends
    answers = ({"uci": "uciok", "isready": "readyok", "go": "bestmove"} if uci else
               {"protover": "feature done=1", "ping": "pong", "go": "move"})
    goes = 0
    for line in sys.stdin:
        words = line.split()
        if words and words[0] == "go":
            goes += 1
            if goes == fault_at:
                open(marker, "w").close()
                if fault == "crash":
                    engine.kill()
                    sys.exit(3)
                if fault == "illegal":
                    print("bestmove a1a1" if uci else "move a1a1", flush=True)
                    continue
                if fault == "garbage":
                    print("I am not a chess engine" if uci else "Error (on purpose): go",
                          flush=True)
                    continue
                if fault == "hang":
                    while True:
                        time.sleep(60)
        engine.stdin.write(line)
        engine.stdin.flush()
        if not words:
            continue
        # pass the answers of commands that have one
        until = answers.get(words[0])
        while until:
            answer = engine.stdout.readline()
            if not answer:
                sys.exit(4)
            print(answer, end="", flush=True)
            if answer.startswith(until) or (not uci and until in answer):
                break
        if words[0] == "quit":
            break
    engine.wait()


if __name__ == "__main__":
    main()
