#!/usr/bin/env python3
"""Match runner for strength tests: N games between two engines in XBoard's match mode
(headless, under xvfb-run), from varied openings, each opening played twice with colours
reversed. Prints the score of the first engine, the Elo difference with a 95% error bar, and
every forfeit, illegal move or time loss.

Engines speak CECP; add --uci-first/--uci-second for UCI engines (XBoard then needs Debian's
polyglot). Openings are random legal move sequences produced by Menagerie itself (UCI
`go perft 1`), so they work for every variant in engine.ini.

Example (Menagerie against Fairy-Max, Los Alamos, 40 games at 5 s + 0.05 s):
    tools/match.py --variant los-alamos --games 40 --tc 0:05 --inc 0.05 \
        --first target/release/menagerie --second fairymax --out target/match-la
"""
import argparse
import math
import os
import random
import re
import subprocess
import sys


def legal_moves(proc, moves):
    proc.stdin.write("position startpos" + (" moves " + " ".join(moves) if moves else "") + "\n")
    proc.stdin.write("go perft 1\n")
    proc.stdin.flush()
    out = []
    while True:
        line = proc.stdout.readline()
        if not line:
            raise RuntimeError("menagerie ended while listing moves")
        line = line.strip()
        if line.startswith("Nodes searched"):
            return out
        if line.startswith("info string") and "variant" not in line:
            raise RuntimeError(line)
        if ":" in line:
            out.append(line.split(":")[0])


def make_openings(menagerie, variant, count, plies, seed):
    rng = random.Random(seed)
    proc = subprocess.Popen([menagerie], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    proc.stdin.write("uci\n")
    name = {"normal": "chess", "los-alamos": "losalamos"}.get(variant, variant)
    proc.stdin.write(f"setoption name UCI_Variant value {name}\n")
    proc.stdin.flush()
    openings = set()
    tries = 0
    while len(openings) < count and tries < count * 50:
        tries += 1
        moves = []
        for _ in range(plies):
            legal = legal_moves(proc, moves)
            if not legal:
                break
            moves.append(rng.choice(legal))
        if len(moves) == plies and legal_moves(proc, moves):
            openings.add(tuple(moves))
    proc.stdin.write("quit\n")
    proc.stdin.flush()
    proc.wait(timeout=10)
    return sorted(openings)


def write_pgn(path, variant, openings):
    with open(path, "w") as f:
        for i, moves in enumerate(openings):
            f.write(f'[Event "opening {i + 1}"]\n')
            if variant != "normal":
                f.write(f'[Variant "{variant}"]\n')
            f.write('[Result "*"]\n\n')
            text = []
            for j, m in enumerate(moves):
                if j % 2 == 0:
                    text.append(f"{j // 2 + 1}.")
                text.append(m)
            f.write(" ".join(text) + " *\n\n")


def parse_games(path):
    games = []
    text = open(path, errors="replace").read()
    for block in re.split(r"\n(?=\[Event )", text):
        if "[Result" not in block:
            continue
        tag = lambda t: (re.search(rf'\[{t} "([^"]*)"\]', block) or [None, ""])[1]
        tail = block.strip().splitlines()[-3:]
        games.append({"white": tag("White"), "black": tag("Black"), "result": tag("Result"),
                      "end": " ".join(tail)})
    return games


def elo(score, n):
    if n == 0:
        return 0.0, 0.0
    p = min(max(score / n, 1e-6), 1 - 1e-6)
    diff = -400 * math.log10(1 / p - 1)
    return diff, p


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--first", default="target/release/menagerie")
    ap.add_argument("--second", default="fairymax")
    ap.add_argument("--uci-first", action="store_true")
    ap.add_argument("--uci-second", action="store_true")
    ap.add_argument("--menagerie", default="target/release/menagerie", help="used to make openings")
    ap.add_argument("--variant", default="normal")
    ap.add_argument("--games", type=int, default=40)
    ap.add_argument("--tc", default="0:05", help="XBoard time control, minutes:seconds")
    ap.add_argument("--inc", default="0.05", help="increment in seconds")
    ap.add_argument("--plies", type=int, default=4, help="random opening plies")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--out", default="target/match")
    ap.add_argument("--no-legality", action="store_true", help="turn off XBoard's legality test")
    a = ap.parse_args()

    os.makedirs(a.out, exist_ok=True)
    # XBoard 4.9.1 cannot load games of engine-defined variants (it reads the file before the
    # engine's `setup` arrives), so those variants start from the initial position and get their
    # variety from timing and from Menagerie's random mode (its --random flag; CECP `random`).
    native = a.variant in ("normal", "capablanca")
    book = os.path.join(a.out, "openings.pgn")
    if native:
        openings = make_openings(os.path.abspath(a.menagerie), a.variant, (a.games + 1) // 2, a.plies, a.seed)
        write_pgn(book, a.variant, openings)
    games_pgn = os.path.join(a.out, "games.pgn")
    if os.path.exists(games_pgn):
        os.remove(games_pgn)
    env = dict(os.environ, PATH=os.environ.get("PATH", "") + ":/usr/games")
    first = os.path.abspath(a.first) if os.path.exists(a.first) else a.first
    second = os.path.abspath(a.second) if os.path.exists(a.second) else a.second
    cmd = ["xvfb-run", "-a", "xboard", "-variant", a.variant,
           "-fcp", first, "-firstComputerString", "", "-scp", second, "-secondComputerString", "",
           "-mg", str(a.games), "-tc", a.tc, "-inc", a.inc,
           "-sgf", games_pgn, "-debug", "-nameOfDebugFile", os.path.join(a.out, "xboard.log"),
           "-xexit", "-noGUI"]
    if native:
        cmd += ["-lgf", book, "-lgi", "-2"]
    else:
        # Menagerie's --random turns on its random mode; other engines vary with timing.
        if "menagerie" in os.path.basename(first):
            cmd[cmd.index(first)] = first + " --random"
    if a.uci_first:
        cmd += ["-fUCI"]
    if a.uci_second:
        cmd += ["-sUCI"]
    if a.no_legality:
        cmd += ["-testLegality", "false"]
    with open(os.path.join(a.out, "xboard.out"), "w") as log:
        subprocess.run(cmd, stdout=log, stderr=subprocess.STDOUT, env=env, check=False)

    games = parse_games(games_pgn) if os.path.exists(games_pgn) else []
    if not games:
        print("no games were played; see", os.path.join(a.out, "xboard.out"))
        return 1
    first_name = games[0]["white"]
    w = d = l = 0
    problems = []
    for i, g in enumerate(games):
        # XBoard's match mode alternates colours: the first engine has White in odd games.
        first_white = i % 2 == 0
        r = g["result"]
        if r == "1/2-1/2":
            d += 1
        elif (r == "1-0") == first_white and r in ("1-0", "0-1"):
            w += 1
        elif r in ("1-0", "0-1"):
            l += 1
        if re.search(r"forfeit|illegal|time|crash|disconnect", g["end"], re.I) or r not in ("1-0", "0-1", "1/2-1/2"):
            problems.append(f"game {i + 1}: {g['white']} - {g['black']} {r}: {g['end'][-120:]}")
    n = w + d + l
    score = w + d / 2
    diff, p = elo(score, n)
    # 95% error bar from the per-game score variance.
    var = (w * (1 - p) ** 2 + d * (0.5 - p) ** 2 + l * p ** 2) / max(n, 1)
    se = math.sqrt(var / max(n, 1))
    lo, _ = elo(max(p - 1.96 * se, 1e-6) * n, n)
    hi, _ = elo(min(p + 1.96 * se, 1 - 1e-6) * n, n)
    print(f"{a.variant}: {first_name} ({a.first}) vs {games[0]['black']} ({a.second}): {n} games, +{w} ={d} -{l}, "
          f"score {score}/{n} = {100 * p:.1f}%, Elo {diff:+.0f} (95% {lo:+.0f} .. {hi:+.0f})")
    print(f"forfeits, illegal moves and time losses: {len(problems)}")
    for pr in problems:
        print("  " + pr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
