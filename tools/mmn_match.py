#!/usr/bin/env python3
"""Match runner and referee for games that XBoard cannot play in full: two CECP engines,
moves in Menagerie move notation (MMN, ../shared/protocol.md section 3).

The runner speaks CECP to both engines itself and answers `accepted mmn`, so multi-step
moves (Tensor propels `a1d4>g7`, beast captures `c2xd4c4`) travel unchanged in
`usermove`/`move`. Every move is checked by an independent referee: the plain Python
reference generator of the variant (tools/reference/tensor.py for Tensor, written from the
rules file alone and sharing no code with Menagerie). The referee also ends the game: mate,
stalemate, the 50-move rule, threefold repetition, or a draw at --max-plies.

Each opening (random legal plies chosen by the referee, seeded) is played twice with colours
reversed. Prints one line per game, the score of the first engine with an Elo estimate, and
every illegal move, forfeit, time loss, crash and false result claim (a claim is checked
against the referee); writes the games in MMN to OUT/games.pgn and the engines' stderr to
OUT/stderr.log. Exit status 1 when any game had such a problem (a game ended by a false claim
is scored as a draw and marked `*`).

Example (Menagerie against itself, 50 Tensor games at 3 s + 0.05 s):
    tools/mmn_match.py --games 50 --tc 3 --inc 0.05 --out target/mmn-tensor
"""
import argparse
import math
import os
import queue
import random
import subprocess
import sys
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "reference"))


class Referee:
    """The rules of one variant, from its independent reference generator."""

    def __init__(self, variant, queen_propel="all", en_passant=True):
        if variant != "tensor":
            raise SystemExit(f"no independent referee for '{variant}' (have: tensor); "
                             "use tools/match.py for games XBoard can referee")
        import tensor as ref
        ref.set_options(queen_propel=queen_propel, en_passant=en_passant)
        self.ref = ref

    def start(self):
        return self.ref.parse_fen(self.ref.START_FEN)

    def legal(self, pos):
        return self.ref.legal_move_texts(pos)

    def play(self, pos, text):
        return self.ref.make_move(pos, text)

    def fen(self, pos):
        return self.ref.to_fen(pos)

    def key(self, pos):
        return " ".join(self.fen(pos).split()[:4])

    def in_check(self, pos):
        side = self.ref.WHITE if pos.white else self.ref.BLACK
        other = self.ref.BLACK if pos.white else self.ref.WHITE
        k = self.ref.king_square(pos.board, side)
        return k is not None and k >= 0 and self.ref.attacked(pos.board, k, other)

    def piece(self, pos, text):
        return pos.board[self.ref.SQUARE[text[:2]]]


class Engine:
    """One CECP engine process with a reader thread."""

    def __init__(self, cmd, name, stderr):
        self.name = name
        self.lines = queue.Queue()
        self.log = []
        self.pings = 0
        self.proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=stderr, text=True, bufsize=1)
        threading.Thread(target=self._read, daemon=True).start()
        self.features = {}
        self.in_force = True

    def _read(self):
        for line in self.proc.stdout:
            self.lines.put(line.rstrip("\n"))
        self.lines.put(None)

    def send(self, line):
        self.log.append("> " + line)
        try:
            self.proc.stdin.write(line + "\n")
            self.proc.stdin.flush()
        except (BrokenPipeError, OSError):
            pass

    def next_line(self, timeout):
        try:
            line = self.lines.get(timeout=max(timeout, 0.0))
        except queue.Empty:
            return "", False
        if line is None:
            return None, True
        self.log.append("< " + line)
        return line, True

    def handshake(self):
        self.send("xboard")
        self.send("protover 2")
        deadline = time.time() + 10
        while time.time() < deadline:
            line, ok = self.next_line(deadline - time.time())
            if line is None:
                raise RuntimeError(f"{self.name} ended during the handshake")
            if not ok or not line.startswith("feature "):
                continue
            for word in split_features(line[8:]):
                key, _, value = word.partition("=")
                self.features[key] = value.strip('"')
                if key == "done":
                    continue
                self.send(("rejected " if key == "debug" else "accepted ") + key)
            if self.features.get("done") == "1":
                return
        raise RuntimeError(f"{self.name}: no 'feature done=1' within 10 s")

    def sync(self, what):
        """Sends `ping` and waits for its `pong`; an error line before it is a failure."""
        self.pings += 1
        self.send(f"ping {self.pings}")
        deadline = time.time() + 10
        while time.time() < deadline:
            line, ok = self.next_line(deadline - time.time())
            if line is None:
                raise RuntimeError(f"{self.name} ended during {what}")
            if not ok:
                break
            if line.startswith(("Error", "Illegal move")):
                raise RuntimeError(f"{self.name} during {what}: {line}")
            if line == f"pong {self.pings}":
                return
        raise RuntimeError(f"{self.name}: no pong within 10 s during {what}")

    def quit(self):
        self.send("quit")
        try:
            self.proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self.proc.kill()


def split_features(text):
    out, cur, quoted = [], "", False
    for c in text:
        if c == '"':
            quoted = not quoted
        if c == " " and not quoted:
            if cur:
                out.append(cur)
            cur = ""
        else:
            cur += c
    if cur:
        out.append(cur)
    return out


def make_openings(referee, count, plies, seed):
    rng = random.Random(seed)
    seen, out = set(), []
    tries = 0
    while len(out) < count and tries < count * 50:
        tries += 1
        pos, moves = referee.start(), []
        for _ in range(plies):
            legal = referee.legal(pos)
            if not legal:
                break
            m = rng.choice(legal)
            moves.append(m)
            pos = referee.play(pos, m)
        if len(moves) == plies and referee.legal(pos) and tuple(moves) not in seen:
            seen.add(tuple(moves))
            out.append(moves)
    return out


def play_game(referee, cmds, names, opening, a):
    """Plays one game; returns (result, reason, moves, problems, stats)."""
    engines = [Engine(cmds[i], names[i], a.stderr) for i in range(2)]
    problems = []
    stats = {"propel": 0, "beast capture": 0, "castling": 0, "promotion": 0}
    moves = []
    try:
        for e in engines:
            e.handshake()
            if e.features.get("mmn") != "1":
                raise RuntimeError(f"{e.name} does not offer feature mmn=1")
            e.send("new")
            e.send(f"variant {a.variant}")
            e.send(f"level 0 {int(a.tc // 60)}:{int(a.tc % 60):02d} {a.inc}")
            e.send("force")
            e.sync("set-up")
        pos = referee.start()
        seen = {referee.key(pos): 1}
        for m in opening:
            for e in engines:
                e.send(f"usermove {m}")
            pos = referee.play(pos, m)
            moves.append(m)
            seen[referee.key(pos)] = seen.get(referee.key(pos), 0) + 1
        for e in engines:
            e.sync("the opening")
        clock = [a.tc, a.tc]
        side = 0 if pos.white else 1  # engines[0] plays White
        while True:
            legal = referee.legal(pos)
            if not legal:
                if referee.in_check(pos):
                    return ("0-1" if pos.white else "1-0"), "checkmate", moves, problems, stats
                return "1/2-1/2", "stalemate", moves, problems, stats
            if pos.halfmove >= 100:
                return "1/2-1/2", "50-move rule", moves, problems, stats
            if seen.get(referee.key(pos), 0) >= 3:
                return "1/2-1/2", "threefold repetition", moves, problems, stats
            if len(moves) >= a.max_plies:
                return "1/2-1/2", f"adjudicated at {a.max_plies} plies", moves, problems, stats
            e = engines[side]
            e.send(f"time {max(int(clock[side] * 100), 1)}")
            e.send(f"otim {max(int(clock[1 - side] * 100), 1)}")
            if e.in_force:
                e.send("go")  # it already has every move (force mode)
                e.in_force = False
            else:
                e.send(f"usermove {moves[-1]}")
            started = time.time()
            reply = None
            while reply is None:
                left = clock[side] + a.grace - (time.time() - started)
                line, ok = e.next_line(left)
                if line is None:
                    problems.append(f"{e.name} crashed")
                    return (("0-1" if side == 0 else "1-0"), f"{e.name} crashed", moves, problems, stats)
                if not ok:
                    problems.append(f"{e.name} lost on time")
                    return (("0-1" if side == 0 else "1-0"), f"{e.name} lost on time", moves, problems, stats)
                if line.startswith("move "):
                    reply = line.split()[1]
                elif line.split(" ", 1)[0] in ("1-0", "0-1", "1/2-1/2"):
                    # A claim before moving: the referee must agree that the game is over.
                    problems.append(f"{e.name} claimed '{line}' in a running game ({referee.fen(pos)})")
                    return "*", f"{e.name}: false claim", moves, problems, stats
                elif line.startswith("resign") or line.startswith("tellics resign"):
                    return (("0-1" if side == 0 else "1-0"), f"{e.name} resigns", moves, problems, stats)
                elif line.startswith("Illegal move") or line.startswith("Error"):
                    problems.append(f"{e.name}: {line}")
                    return (("0-1" if side == 0 else "1-0"), f"{e.name}: {line}", moves, problems, stats)
            used = time.time() - started
            clock[side] -= used
            if clock[side] < -a.grace:
                problems.append(f"{e.name} lost on time ({clock[side]:.2f} s left)")
                return (("0-1" if side == 0 else "1-0"), f"{e.name} lost on time", moves, problems, stats)
            clock[side] += a.inc
            claim = None
            while True:  # a claim may follow the move (the engine's view of the game's end)
                line, ok = e.next_line(0)
                if not ok or line is None:
                    break
                if line.split(" ", 1)[0] in ("1-0", "0-1", "1/2-1/2"):
                    claim = line
            if reply not in legal:
                problems.append(f"{e.name} played illegal {reply} in {referee.fen(pos)}")
                return (("0-1" if side == 0 else "1-0"), f"illegal move {reply}", moves, problems, stats)
            if ">" in reply:
                stats["propel"] += 1
            elif "x" in reply:
                stats["beast capture"] += 1
            elif referee.piece(pos, reply) in "Kk" and abs(ord(reply[0]) - ord(reply[2])) >= 2:
                stats["castling"] += 1
            if reply[-1].isalpha():
                stats["promotion"] += 1
            other = engines[1 - side]
            if other.in_force:
                other.send(f"usermove {reply}")
            pos = referee.play(pos, reply)
            moves.append(reply)
            k = referee.key(pos)
            seen[k] = seen.get(k, 0) + 1
            if claim is not None:
                over = (not referee.legal(pos)) or pos.halfmove >= 100 or seen[k] >= 3
                if not over:
                    problems.append(f"{e.name} claimed '{claim}' after {reply}, not over ({referee.fen(pos)})")
                    return "*", f"{e.name}: false claim", moves, problems, stats
            side = 1 - side
    finally:
        for e in engines:
            e.quit()
        if a.logs:
            with open(os.path.join(a.out, "engines.log"), "a") as f:
                for e in engines:
                    f.write(f"--- {e.name}\n" + "\n".join(e.log) + "\n")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--first", default="target/release/menagerie", help="first engine command")
    ap.add_argument("--second", default=None, help="second engine command (default: the first)")
    ap.add_argument("--variant", default="tensor")
    ap.add_argument("--games", type=int, default=50)
    ap.add_argument("--tc", type=float, default=3.0, help="seconds per side for the game")
    ap.add_argument("--inc", type=float, default=0.05, help="increment in seconds")
    ap.add_argument("--grace", type=float, default=1.0, help="seconds of lag allowed beyond the clock")
    ap.add_argument("--plies", type=int, default=4, help="random opening plies")
    ap.add_argument("--max-plies", type=int, default=400)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--random", action="store_true", help="start Menagerie engines with --random")
    ap.add_argument("--logs", action="store_true", help="write every protocol line to OUT/engines.log")
    ap.add_argument("--out", default="target/mmn-match")
    a = ap.parse_args()
    os.makedirs(a.out, exist_ok=True)
    a.stderr = open(os.path.join(a.out, "stderr.log"), "w")
    if a.logs:
        open(os.path.join(a.out, "engines.log"), "w").close()
    referee = Referee(a.variant)
    first = a.first.split() + (["--random"] if a.random else [])
    second = (a.second or a.first).split() + (["--random"] if a.random else [])
    openings = make_openings(referee, (a.games + 1) // 2, a.plies, a.seed)
    score, played, problems = 0.0, 0, []
    totals = {}
    pgn = open(os.path.join(a.out, "games.pgn"), "w")
    for g in range(a.games):
        opening = openings[g // 2 % len(openings)]
        swap = g % 2 == 1
        cmds = [second, first] if swap else [first, second]
        names = ["second", "first"] if swap else ["first", "second"]
        t0 = time.time()
        result, reason, moves, probs, stats = play_game(referee, cmds, names, opening, a)
        played += 1
        points = {"1-0": 1.0, "0-1": 0.0, "1/2-1/2": 0.5, "*": 0.5}[result]
        score += 1 - points if swap else points
        problems += [f"game {g + 1}: {p}" for p in probs]
        for k, v in stats.items():
            totals[k] = totals.get(k, 0) + v
        print(f"game {g + 1:3d}: {names[0]}-{names[1]} {result:7s} {reason} ({len(moves)} plies, "
              f"{time.time() - t0:.0f} s)", flush=True)
        pgn.write(f'[Event "mmn_match {g + 1}"]\n[Variant "{a.variant}"]\n[White "{names[0]}"]\n'
                  f'[Black "{names[1]}"]\n[Result "{result}"]\n[Termination "{reason}"]\n\n')
        text = []
        for i, m in enumerate(moves):
            if i % 2 == 0:
                text.append(f"{i // 2 + 1}.")
            text.append(m)
        pgn.write(" ".join(text) + f" {result}\n\n")
    pgn.close()
    p = min(max(score / max(played, 1), 1e-6), 1 - 1e-6)
    diff = -400 * math.log10(1 / p - 1)
    print(f"score of first: {score}/{played} ({100 * p:.1f} %), Elo {diff:+.0f}")
    print("moves seen: " + ", ".join(f"{k} {v}" for k, v in totals.items()))
    if problems:
        print(f"{len(problems)} problems:")
        for pr in problems:
            print("  " + pr)
        sys.exit(1)
    print("no illegal move, forfeit, time loss or crash")


if __name__ == "__main__":
    main()
