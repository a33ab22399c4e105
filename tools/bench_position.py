#!/usr/bin/env python3
"""Times UCI `position startpos moves <N plies>` sent many times in a row, per variant.

A GUI sends the whole game with every `position` command, so its cost is paid once per move.
For each variant the script first plays a seeded random game of N plies (each move picked from
the engine's own `go perft 1` list), then sends that `position` line REPEAT times followed by
`isready` and measures the time until `readyok`, best of ROUNDS.

    python3 tools/bench_position.py target/release/menagerie [--plies 80] [--repeat 1000]
"""

import argparse
import random
import subprocess
import sys
import time


class Engine:
    def __init__(self, path):
        self.p = subprocess.Popen([path], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
        self.send("uci")
        self.until("uciok")

    def send(self, line):
        self.p.stdin.write(line + "\n")
        self.p.stdin.flush()

    def until(self, prefix):
        out = []
        while True:
            line = self.p.stdout.readline()
            if not line:
                raise SystemExit(f"engine closed while waiting for {prefix!r}")
            line = line.rstrip("\n")
            out.append(line)
            if line.startswith(prefix):
                return out

    def close(self):
        self.send("quit")
        self.p.wait(timeout=10)


def random_game(eng, variant, plies, seed):
    rng = random.Random(seed)
    moves = []
    eng.send(f"setoption name UCI_Variant value {variant}")
    eng.send("isready")
    eng.until("readyok")
    for _ in range(plies):
        eng.send("position startpos moves " + " ".join(moves))
        eng.send("go perft 1")
        lines = eng.until("Nodes searched")
        legal = sorted(l.split(":")[0] for l in lines if l.endswith(": 1"))
        if not legal:
            break
        moves.append(rng.choice(legal))
    return moves


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("engine")
    ap.add_argument("--variants", default="chess,chess911,tensor")
    ap.add_argument("--plies", type=int, default=80)
    ap.add_argument("--repeat", type=int, default=1000)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args()
    eng = Engine(a.engine)
    print(f"{'variant':10} {'plies':>5} {'repeat':>6} {'best s':>8} {'us/command':>10}")
    for v in a.variants.split(","):
        moves = random_game(eng, v, a.plies, a.seed)
        line = "position startpos moves " + " ".join(moves)
        best = None
        for _ in range(a.rounds):
            t = time.perf_counter()
            for _ in range(a.repeat):
                eng.send(line)
            eng.send("isready")
            out = eng.until("readyok")
            dt = time.perf_counter() - t
            bad = [l for l in out if l.startswith("info string")]
            if bad:
                sys.exit(f"{v}: the engine refused the game: {bad[0]}")
            best = dt if best is None else min(best, dt)
        print(f"{v:10} {len(moves):5} {a.repeat:6} {best:8.3f} {best / a.repeat * 1e6:10.0f}")
    eng.close()


if __name__ == "__main__":
    main()
