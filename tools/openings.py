#!/usr/bin/env python3
"""Makes a balanced opening file for engine matches (issue 26): seeded random walks of a few
plies from a variant's start position, each end position judged by a UCI engine at a fixed depth
and kept when its score is within a window of equality. Duplicates and positions with a mate
score are dropped. Menagerie lists the legal moves (`perft --divide 1`) and plays them (its UCI
`d` command prints the FEN), so any variant of engine.ini works; the judge may be Fairy-Stockfish
(its own variant name) or Menagerie itself.

One line a position: an EPD (the FEN's first four fields) with the judge's score as a comment,
which cutechess-cli reads with `-openings file=F format=epd`.

usage: openings.py MENAGERIE --variant V --plies N --count K [--seed S]
           [--judge CMD] [--judge-variant NAME] [--depth D] [--window CP] --out FILE
"""

import argparse
import random
import subprocess
import sys


class Uci:
    """A UCI engine on a pipe."""

    def __init__(self, cmd, variant):
        self.p = subprocess.Popen(cmd, shell=True, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  stderr=subprocess.DEVNULL, text=True, bufsize=1)
        self.send("uci")
        self.until(lambda l: l == "uciok")
        if variant:
            self.send(f"setoption name UCI_Variant value {variant}")
        self.send("isready")
        self.until(lambda l: l == "readyok")

    def send(self, line):
        self.p.stdin.write(line + "\n")
        self.p.stdin.flush()

    def until(self, done):
        lines = []
        while True:
            line = self.p.stdout.readline()
            if not line:
                raise SystemExit("the engine ended")
            line = line.strip()
            lines.append(line)
            if done(line):
                return lines

    def fen_after(self, fen, moves):
        self.send(f"position fen {fen} moves {' '.join(moves)}" if moves else f"position fen {fen}")
        self.send("d")
        line = self.until(lambda l: l.startswith("info string fen "))[-1]
        return line[len("info string fen "):]

    def score(self, fen, depth):
        """The score in centipawns for the side to move, or None for a mate."""
        self.send(f"position fen {fen}")
        self.send(f"go depth {depth}")
        lines = self.until(lambda l: l.startswith("bestmove"))
        score = None
        for l in lines:
            w = l.split()
            if "score" in w:
                i = w.index("score")
                score = None if w[i + 1] == "mate" else int(w[i + 2])
        return score

    def close(self):
        try:
            self.send("quit")
            self.p.wait(timeout=5)
        except Exception:
            self.p.kill()


def legal_moves(menagerie, variant, fen):
    out = subprocess.run([menagerie, "perft", "--variant", variant, "--fen", fen, "--divide", "1"],
                         capture_output=True, text=True, check=True).stdout
    return sorted(l.split(":")[0] for l in out.splitlines() if ":" in l and not l.startswith("Nodes"))


def start_fen(menagerie, variant):
    for line in subprocess.run([menagerie, "variants"], capture_output=True, text=True, check=True).stdout.splitlines():
        if line.split()[0] == variant:
            return line.split("start=", 1)[1]
    raise SystemExit(f"no variant {variant}")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("menagerie")
    ap.add_argument("--variant", required=True)
    ap.add_argument("--plies", type=int, default=8)
    ap.add_argument("--count", type=int, default=200)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--judge", default="", help="the judging engine's command (default: Menagerie)")
    ap.add_argument("--judge-variant", default="", help="the variant's name for the judge")
    ap.add_argument("--depth", type=int, default=10)
    ap.add_argument("--window", type=int, default=60)
    ap.add_argument("--out", required=True)
    a = ap.parse_args()
    rng = random.Random(a.seed)
    walker = Uci(a.menagerie, a.variant)
    judge = Uci(a.judge or a.menagerie, a.judge_variant or a.variant)
    start = start_fen(a.menagerie, a.variant)
    seen, kept, tried = set(), [], 0
    while len(kept) < a.count and tried < 50 * a.count:
        tried += 1
        fen, moves = start, []
        for _ in range(a.plies):
            legal = legal_moves(a.menagerie, a.variant, fen)
            if not legal:
                break
            moves.append(rng.choice(legal))
            fen = walker.fen_after(start, moves)
        if len(moves) < a.plies:
            continue
        epd = " ".join(fen.split()[:4])
        if epd in seen:
            continue
        seen.add(epd)
        s = judge.score(fen, a.depth)
        if s is None or abs(s) > a.window:
            continue
        kept.append(f'{epd} c0 "{a.plies} random plies, seed {a.seed}, judged {s:+d} cp at depth {a.depth}";')
        print(f"{a.variant}: {len(kept)}/{a.count} kept of {tried} walks", file=sys.stderr, flush=True)
    walker.close()
    judge.close()
    with open(a.out, "w") as f:
        f.write("\n".join(kept) + "\n")
    print(f"{a.out}: {len(kept)} positions from {tried} walks", file=sys.stderr)


if __name__ == "__main__":
    main()
