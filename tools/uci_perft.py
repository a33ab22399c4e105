#!/usr/bin/env python3
"""Times `go perft DEPTH` of a UCI engine (Stockfish, Fairy-Stockfish) from the command to its
`Nodes searched` line. usage: uci_perft.py ENGINE VARIANT|- FEN|- DEPTH; prints
"NODES SECONDSs MNPS"."""
import subprocess
import sys
import time

exe, variant, fen, depth = sys.argv[1:5]
p = subprocess.Popen([exe], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)


def send(line):
    p.stdin.write(line + "\n")
    p.stdin.flush()


def wait_for(token):
    while token not in p.stdout.readline():
        pass


send("uci")
wait_for("uciok")
if variant != "-":
    send(f"setoption name UCI_Variant value {variant}")
send("position " + ("startpos" if fen == "-" else "fen " + fen))
send("isready")
wait_for("readyok")
start = time.time()
send(f"go perft {depth}")
while True:
    line = p.stdout.readline()
    if line.startswith("Nodes searched"):
        seconds = time.time() - start
        nodes = int(line.split(":")[1])
        break
send("quit")
p.wait()
print(f"{nodes} {seconds:.3f}s {nodes / seconds / 1e6:.1f}M")
