#!/usr/bin/env python3
"""Instructions a search node by callgrind (deterministic, whatever else the machine does):
runs the engine under valgrind twice, `go depth 1` and `go depth DEPTH` from FEN, and prints
the nodes and the instructions a node of the difference (start-up cancels out).

usage: tools/callgrind_node.py BINARY DEPTH [FEN]
"""
import re
import subprocess
import sys

binary, depth = sys.argv[1], sys.argv[2]
fen = sys.argv[3] if len(sys.argv) > 3 else "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP3PPP/R2QKB1R w KQ - 0 8"


def run(d):
    p = subprocess.Popen(["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", binary],
                         stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    p.stdin.write(f"uci\nposition fen {fen}\ngo depth {d}\n")
    p.stdin.flush()
    nodes = None
    for line in p.stdout:
        m = re.search(r" nodes (\d+)", line)
        if m:
            nodes = int(m.group(1))
        if line.startswith("bestmove"):
            break
    p.stdin.write("quit\n")
    p.stdin.flush()
    err = p.communicate()[1]
    return int(re.search(r"Collected : (\d+)", err).group(1)), nodes


i1, _ = run(1)
i2, n2 = run(depth)
print(f"{binary}: depth {depth}: {n2} nodes, {(i2 - i1) / n2:.1f} instructions a node")
