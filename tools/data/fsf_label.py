#!/usr/bin/env python3
"""Soft targets for `menagerie tune` from Fairy-Stockfish's scores.

  fsf_label.py score IN OUT [--nodes N] [--variant V] [--engine PATH]
      searches each 'FEN | RESULT' line of IN (datagen's output) for N nodes (default 5000)
      and writes 'FEN | RESULT | CP', CP Fairy-Stockfish's score for White (mates as +-3000);
      progress every 5,000 positions on stdout.
  fsf_label.py blend IN OUT [--lambda L] [--scale S]
      turns those lines into 'FEN | TARGET' for the tuner:
      TARGET = L * 1 / (1 + 10^(-CP / S)) + (1 - L) * RESULT (defaults L 0.6, S 400).
"""
import argparse
import subprocess
import sys
import time


def score(args):
    eng = subprocess.Popen([args.engine], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                           text=True, bufsize=1)

    def send(s):
        eng.stdin.write(s + "\n")
        eng.stdin.flush()

    def read():
        line = eng.stdout.readline()
        if not line:
            sys.exit("fsf_label: the engine ended")
        return line

    send("uci")
    while not read().startswith("uciok"):
        pass
    for opt in ("Threads value 1", "Hash value 16", f"UCI_Variant value {args.variant}"):
        send("setoption name " + opt)
    send("isready")
    while not read().startswith("readyok"):
        pass
    t0, n = time.time(), 0
    with open(args.input) as src, open(args.output, "w") as out:
        for line in src:
            if "|" not in line:
                continue
            fen, result = (x.strip() for x in line.split("|")[:2])
            send("position fen " + fen)
            send(f"go nodes {args.nodes}")
            cp = None
            while True:
                words = read().split()
                if words and words[0] == "bestmove":
                    break
                if words and words[0] == "info" and "score" in words:
                    i = words.index("score")
                    if words[i + 1] == "cp":
                        cp = int(words[i + 2])
                    elif words[i + 1] == "mate":
                        cp = 3000 if int(words[i + 2]) > 0 else -3000
            if cp is None:
                continue
            if fen.split()[1] == "b":
                cp = -cp
            out.write(f"{fen} | {result} | {cp}\n")
            n += 1
            if n % 5000 == 0:
                out.flush()
                print(f"{n} positions {time.time() - t0:.0f}s", flush=True)
    send("quit")
    print(f"done {n} positions {time.time() - t0:.0f}s", flush=True)


def blend(args):
    with open(args.input) as src, open(args.output, "w") as out:
        for line in src:
            fen, result, cp = (x.strip() for x in line.split("|"))
            p = 1.0 / (1.0 + 10 ** (-int(cp) / args.scale))
            target = args.weight * p + (1.0 - args.weight) * float(result)
            out.write(f"{fen} | {target:.4f}\n")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    s = sub.add_parser("score")
    s.add_argument("input")
    s.add_argument("output")
    s.add_argument("--nodes", type=int, default=5000)
    s.add_argument("--variant", default="chess")
    s.add_argument("--engine", default="../shared/peers/fairy-stockfish")
    b = sub.add_parser("blend")
    b.add_argument("input")
    b.add_argument("output")
    b.add_argument("--lambda", dest="weight", type=float, default=0.6)
    b.add_argument("--scale", type=float, default=400.0)
    args = ap.parse_args()
    score(args) if args.cmd == "score" else blend(args)


if __name__ == "__main__":
    main()
