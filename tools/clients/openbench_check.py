#!/usr/bin/env python3
"""What an OpenBench worker does with Menagerie: `make EXE=PATH`, then `PATH bench` twice.

Each run must finish within 60 s, and its last line must hold what a worker reads (from the
last line up, the first `N nodes` and the first `N nps`, punctuation dropped, case ignored).
The two runs must report the same node count. Exit 1 with the reason otherwise.
Usage: openbench_check.py [EXE_PATH]   (default target/openbench/menagerie)
"""
import os
import re
import subprocess
import sys
import time


def read_bench(text):
    """The node count and speed as a worker reads them, or None where a figure is missing."""
    nodes = nps = None
    for line in reversed(text.strip().splitlines()):
        line = re.sub(r"[^a-zA-Z0-9 ]+", " ", line).upper()
        if nps is None:
            m = re.search(r"([0-9]+) NPS|NPS +([0-9]+)", line)
            nps = m and int(m.group(1) or m.group(2))
        if nodes is None:
            m = re.search(r"([0-9]+) NODES|NODES +([0-9]+)", line)
            nodes = m and int(m.group(1) or m.group(2))
    return nodes, nps


def main():
    root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
    exe = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else os.path.join(root, "target", "openbench", "menagerie"))
    os.makedirs(os.path.dirname(exe), exist_ok=True)
    if os.path.exists(exe):
        os.remove(exe)
    subprocess.run(["make", f"EXE={exe}"], cwd=root, check=True)
    if not os.access(exe, os.X_OK):
        sys.exit(f"make EXE={exe} left no executable there")
    runs = []
    for i in range(2):
        start = time.monotonic()
        out = subprocess.run([exe, "bench"], capture_output=True, text=True, timeout=120, check=True).stdout
        secs = time.monotonic() - start
        nodes, nps = read_bench(out)
        print(f"bench run {i + 1}: {nodes} nodes, {nps} nps, {secs:.1f} s")
        last = out.strip().splitlines()[-1]
        if nodes is None or nps is None or read_bench(last) != (nodes, nps):
            # A worker reads whatever matches first from the bottom: both figures must come
            # from the last line, or a perft line's "2.3 Mnps 6k3/..." is read as 6 nps.
            sys.exit(f"bench's last line {last!r} does not give both figures (read: {nodes} nodes, {nps} nps)")
        if secs >= 60:
            sys.exit(f"bench took {secs:.1f} s; OpenBench wants under 60 s")
        runs.append(nodes)
    if runs[0] != runs[1]:
        sys.exit(f"bench node counts differ between runs: {runs}")
    print(f"ok: make EXE=PATH builds; bench signature {runs[0]} in both runs")


if __name__ == "__main__":
    main()
