#!/usr/bin/env python3
"""A UCI match runner with an SPRT, for variants cutechess-cli does not know (Chess 911; any
variant in engine.ini). Two UCI engines play pairs of games from an EPD opening file (each
opening twice, colours swapped); a Menagerie process referees: it checks every move and says
when a game is over by rule (UCI `d` prints `info string result ...`). A game longer than
--max-plies is a draw; an illegal move, a crash or a flag loses.

Statistics are pentanomial (the score of each pair of games): Elo with its 95 % error in the
logistic model, and a GSPRT of elo0 against elo1 (normal approximation, alpha = beta = 0.05),
stopped when it decides or at --games. Progress goes to stdout, one line per pair.

Example (the working tree's engine against a base build, Chess 911, two games at once):
    tools/uci_match.py --first target/sprt/test-menagerie --second target/sprt/base/menagerie \\
        --variant chess911 --openings tools/openings/chess911.epd --tc 1+0.01 --concurrency 2
"""
import argparse
import math
import random
import subprocess
import sys
import threading
import time


class Engine:
    """A UCI engine process."""

    def __init__(self, cmd, variant, options):
        self.proc = subprocess.Popen(cmd.split(), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.DEVNULL, text=True, bufsize=1)
        self.send("uci")
        self.wait_for("uciok")
        for name, value in options:
            self.send(f"setoption name {name} value {value}")
        if variant:
            self.send(f"setoption name UCI_Variant value {variant}")
        self.ready()

    def send(self, line):
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()

    def read(self):
        line = self.proc.stdout.readline()
        if not line:
            raise EOFError("engine ended")
        return line.strip()

    def wait_for(self, prefix):
        lines = []
        while True:
            line = self.read()
            lines.append(line)
            if line.startswith(prefix):
                return lines

    def ready(self):
        self.send("isready")
        return self.wait_for("readyok")

    def quit(self):
        try:
            self.send("quit")
            self.proc.wait(timeout=5)
        except Exception:
            self.proc.kill()


def referee(judge, fen, moves):
    """(fen, result or None, illegal text or None) after `moves` from `fen`."""
    judge.send(f"position fen {fen}" + (" moves " + " ".join(moves) if moves else ""))
    judge.send("d")
    lines = judge.ready()
    illegal = next((l for l in lines if "illegal" in l or "bad" in l), None)
    now = next((l[len("info string fen "):] for l in lines if l.startswith("info string fen ")), None)
    result = next((l.split()[3] for l in lines if l.startswith("info string result ")), None)
    return now, result, illegal


def play_game(args, white_first, opening, log):
    """One game of the first engine against the second; returns the first engine's score."""
    first, second, judge = (Engine(args.first, args.variant, args.first_option),
                            Engine(args.second, args.variant, args.second_option),
                            Engine(args.referee, args.variant, []))
    engines = [first, second] if white_first else [second, first]
    base, inc = (float(x) for x in args.tc.split("+"))
    clock = [base * 1000.0, base * 1000.0]
    moves, result, reason = [], None, ""
    try:
        for e in engines:
            e.send("ucinewgame")
            e.ready()
        _, result, illegal = referee(judge, opening, [])
        if illegal:
            raise ValueError(f"opening {opening}: {illegal}")
        side = 0 if " w " in opening else 1
        while result is None:
            if len(moves) >= args.max_plies:
                result, reason = "1/2-1/2", "move cap"
                break
            e = engines[side]
            e.send(f"position fen {opening}" + (" moves " + " ".join(moves) if moves else ""))
            e.send(f"go wtime {int(clock[0])} btime {int(clock[1])} winc {int(inc * 1000)} "
                   f"binc {int(inc * 1000)}")
            start = time.monotonic()
            try:
                best = e.wait_for("bestmove")[-1].split()
            except EOFError:
                result, reason = ("0-1" if side == 0 else "1-0"), "crash"
                break
            used = (time.monotonic() - start) * 1000.0
            clock[side] -= used
            if clock[side] < 0:
                result, reason = ("0-1" if side == 0 else "1-0"), "time forfeit"
                break
            clock[side] += inc * 1000.0
            mv = best[1] if len(best) > 1 else "0000"
            _, res, illegal = referee(judge, opening, moves + [mv])
            if illegal or mv == "0000":
                result, reason = ("0-1" if side == 0 else "1-0"), f"illegal move {mv}"
                break
            moves.append(mv)
            result, reason = res, "by rule"
            side = 1 - side
    finally:
        for e in (first, second, judge):
            e.quit()
    white_score = {"1-0": 1.0, "0-1": 0.0}.get(result, 0.5)
    score = white_score if white_first else 1.0 - white_score
    if reason in ("time forfeit", "crash") or reason.startswith("illegal"):
        log(f"  game: {result} {reason} ({'first' if white_first else 'second'} had White) {opening}")
    return score


def stats(pairs):
    """(mean, variance, count) of pair scores in [0, 1] (steps of 1/4)."""
    n = len(pairs)
    mean = sum(pairs) / n
    var = sum((p - mean) ** 2 for p in pairs) / n
    return mean, var, n


def logistic(elo):
    return 1.0 / (1.0 + 10 ** (-elo / 400.0))


def elo_of(score):
    score = min(max(score, 1e-6), 1 - 1e-6)
    return -400.0 * math.log10(1.0 / score - 1.0)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--first", required=True, help="command of the engine under test")
    ap.add_argument("--second", required=True, help="command of the base engine")
    ap.add_argument("--referee", default="target/release/menagerie")
    ap.add_argument("--variant", default="chess911", help="UCI_Variant value")
    ap.add_argument("--openings", required=True, help="EPD or FEN file, one position per line")
    ap.add_argument("--tc", default="1+0.01", help="seconds+increment")
    ap.add_argument("--games", type=int, default=2000, help="most games")
    ap.add_argument("--elo0", type=float, default=0.0)
    ap.add_argument("--elo1", type=float, default=10.0)
    ap.add_argument("--max-plies", type=int, default=400)
    ap.add_argument("--concurrency", type=int, default=1)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--hash", type=int, default=16)
    a = ap.parse_args()
    a.first_option = [("Hash", a.hash)]
    a.second_option = [("Hash", a.hash)]
    openings = []
    for line in open(a.openings):
        f = line.split()
        if len(f) >= 4 and not line.startswith("#"):
            openings.append(" ".join(f[:4]) + " 0 1")
    rng = random.Random(a.seed)
    rng.shuffle(openings)
    lock = threading.Lock()
    pairs, wins, losses, draws = [], 0, 0, 0
    next_pair = [0]
    done = threading.Event()
    lower, upper = math.log(0.05 / 0.95), math.log(0.95 / 0.05)

    def log(text):
        with lock:
            print(text, flush=True)

    def worker():
        nonlocal wins, losses, draws
        while not done.is_set():
            with lock:
                i = next_pair[0]
                next_pair[0] += 1
            if 2 * i >= a.games:
                return
            opening = openings[i % len(openings)]
            s1 = play_game(a, True, opening, log)
            s2 = play_game(a, False, opening, log)
            with lock:
                for s in (s1, s2):
                    wins += s == 1.0
                    losses += s == 0.0
                    draws += s == 0.5
                pairs.append((s1 + s2) / 2)
                mean, var, n = stats(pairs)
                elo = elo_of(mean)
                spread = "+/- 0.0"
                llr = 0.0
                if var > 0:
                    half = 1.96 * math.sqrt(var / n)
                    if 0 < mean - half and mean + half < 1:
                        spread = f"+/- {(elo_of(mean + half) - elo_of(mean - half)) / 2:.1f}"
                    else:
                        # The 95 % interval reaches a score of 0 or 1: its ends, not a half-width.
                        lo = f"{elo_of(mean - half):+.1f}" if mean - half > 0 else "-inf"
                        hi = f"{elo_of(mean + half):+.1f}" if mean + half < 1 else "+inf"
                        spread = f"(95 %: {lo} to {hi})"
                    s0, s1_ = logistic(a.elo0), logistic(a.elo1)
                    llr = n * (s1_ - s0) * (2 * mean - s0 - s1_) / (2 * var)
                line = (f"games {2 * n}: +{wins} -{losses} ={draws}  Elo {elo:+.1f} {spread}  "
                        f"LLR {llr:.2f} ({lower:.2f}, {upper:.2f})")
                if llr >= upper:
                    line += "  H1 accepted"
                    done.set()
                elif llr <= lower:
                    line += "  H0 accepted"
                    done.set()
                print(line, flush=True)

    threads = [threading.Thread(target=worker) for _ in range(a.concurrency)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()


if __name__ == "__main__":
    sys.exit(main())
