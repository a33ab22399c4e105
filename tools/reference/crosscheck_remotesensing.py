#!/usr/bin/env python3
"""Cross-checks Menagerie's Remote Sensing against the independent reference generator
(remotesensing.py in this folder) along random games.

For each seed, the reference plays uniformly random moves from the start position. At every
ply the engine (over UCI: `position startpos moves ...`, `go perft 1`, `d`) must list exactly
the reference's legal moves and write the same FEN (board, bins, side, counters); every
tenth ply the perft-2 counts of every move must agree too. Both readings of the enemy-pawn
rule are covered (variants remotesensing and remotesensing-ownpawn).

Usage: crosscheck_remotesensing.py [ENGINE] [--games N] [--plies N]
Exit status 1 on the first disagreement, with the position and the difference.
"""
import argparse
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import random  # noqa: E402

import remotesensing as ref  # noqa: E402


class Engine:
    def __init__(self, path, variant):
        self.p = subprocess.Popen([path], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        self.send("uci")
        self.wait("uciok")
        self.send(f"setoption name UCI_Variant value {variant}")
        self.send("isready")
        self.wait("readyok")

    def send(self, line):
        self.p.stdin.write(line + "\n")
        self.p.stdin.flush()

    def wait(self, token):
        lines = []
        while True:
            line = self.p.stdout.readline()
            if not line:
                raise RuntimeError("engine ended; last lines: " + " | ".join(lines[-5:]))
            line = line.strip()
            lines.append(line)
            if line.startswith(token):
                return lines

    def divide(self, moves, depth):
        self.send("position startpos" + (" moves " + " ".join(moves) if moves else ""))
        self.send(f"go perft {depth}")
        out = {}
        for line in self.wait("Nodes searched"):
            if line.startswith("info string") and "variant" not in line:
                raise RuntimeError(line)
            if ": " in line and not line.startswith(("info", "Nodes")):
                m, n = line.split(": ")
                out[m] = int(n)
        return out

    def fen(self):
        self.send("d")
        return self.wait("info string fen")[-1][len("info string fen "):]

    def quit(self):
        self.send("quit")
        self.p.wait(timeout=10)


def ref_divide(pos, depth):
    return {ref.move_string(m): ref.perft(ref.make_move(pos, m), depth - 1) for m in ref.generate_moves(pos)}


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("engine", nargs="?", default="target/release/menagerie")
    ap.add_argument("--games", type=int, default=30, help="random games per reading")
    ap.add_argument("--plies", type=int, default=300)
    a = ap.parse_args()
    checked = 0
    for reading, variant in (("literal", "remotesensing"), ("own", "remotesensing-ownpawn")):
        ref.ENEMY_PAWN = reading
        eng = Engine(a.engine, variant)
        start = ref.parse_fen(eng.fen())
        kings_taken = bins_used = 0
        for seed in range(1, a.games + 1):
            rng = random.Random(seed)
            pos, played = start, []
            for ply in range(a.plies + 1):
                depth = 2 if ply % 10 == 0 else 1
                want = ref_divide(pos, depth)
                got = eng.divide(played, depth)
                fen_ref, fen_eng = ref.to_fen(pos), eng.fen()
                if got != want or fen_ref != fen_eng:
                    print(f"DISAGREE ({variant}, seed {seed}, ply {ply}) after: {' '.join(played)}")
                    print(f"  reference FEN {fen_ref}\n  engine    FEN {fen_eng}")
                    for m in sorted(set(want) | set(got)):
                        if want.get(m) != got.get(m):
                            print(f"  {m}: reference {want.get(m)}, engine {got.get(m)}")
                    return 1
                checked += 1
                if "[-/-/-/-]" not in fen_ref:
                    bins_used += 1
                moves = sorted(ref.generate_moves(pos), key=ref.move_string)
                if not moves:
                    kings_taken += 1
                    break
                m = rng.choice(moves)
                played.append(ref.move_string(m))
                pos = ref.make_move(pos, m)
        eng.quit()
        print(f"{variant}: {a.games} random games agree ({bins_used} positions with bins, "
              f"{kings_taken} games ended with a side out of kings or moves)")
    print(f"remotesensing crosscheck: {checked} positions agree")
    return 0


if __name__ == "__main__":
    sys.exit(main())
