#!/usr/bin/env python3
"""Cross-checks Menagerie's Tensor Chess against the independent reference generator
(tensor.py in this folder) along random games.

For each game (seeds S, S+1, ...), the reference plays uniformly random legal moves from the
start position (random.Random(seed).choice over the sorted MMN tokens). At every ply the engine,
over UCI, must list exactly the reference's legal moves (`position startpos moves ...`,
`go perft 1`) and write the same FEN (`d` -> `info string fen FEN`); every tenth ply (ply 0, 10,
20, ...) the `go perft 2` count of every move must agree too.

Usage: crosscheck_tensor.py ENGINE [--games N] [--plies N] [--seed S] [--variant NAME]
                            [--queen-propel all|mode] [--no-ep] [--timeout SECONDS]
--queen-propel / --no-ep set the reference's readings. The engine gets the same readings
through a copy of the repository's engine.ini with a variant `tensor-check` (a child of
`tensor` with rules.queen_propel / rules.en_passant set), loaded with `--ini`; --variant
names another engine variant instead.

Exit status: 0 when everything agrees (a summary line is printed), 1 on the first
disagreement (the position, the moves so far and the difference are printed), 2 when the
engine fails (dies, times out, or reports an error).
"""
import argparse
import os
import queue
import random
import subprocess
import sys
import threading

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import tensor as ref  # noqa: E402


class EngineError(Exception):
    pass


class Engine:
    def __init__(self, path, variant, timeout, args=()):
        self.timeout = timeout
        try:
            self.p = subprocess.Popen([path, *args], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                      stderr=subprocess.DEVNULL, text=True, bufsize=1)
        except OSError as e:
            raise EngineError(f"cannot start {path}: {e}") from None
        self.lines = queue.Queue()
        threading.Thread(target=self._reader, daemon=True).start()
        self.send("uci")
        self.wait("uciok")
        self.send(f"setoption name UCI_Variant value {variant}")
        self.send("isready")
        for line in self.wait("readyok"):
            if "unknown" in line.lower() or "error" in line.lower():
                raise EngineError(f"engine refused variant {variant}: {line}")

    def _reader(self):
        for line in self.p.stdout:
            self.lines.put(line.rstrip("\r\n"))
        self.lines.put(None)

    def send(self, line):
        try:
            self.p.stdin.write(line + "\n")
            self.p.stdin.flush()
        except (BrokenPipeError, OSError):
            raise EngineError(f"engine closed its input (sending {line!r})") from None

    def wait(self, token):
        """Lines up to and including the first one starting with token."""
        got = []
        while True:
            try:
                line = self.lines.get(timeout=self.timeout)
            except queue.Empty:
                raise EngineError(f"no {token!r} within {self.timeout}s; last lines: "
                                  + " | ".join(got[-5:])) from None
            if line is None:
                raise EngineError("engine ended; last lines: " + " | ".join(got[-5:]))
            line = line.strip()
            got.append(line)
            if line.startswith(token):
                return got

    def set_position(self, moves):
        self.send("position startpos" + (" moves " + " ".join(moves) if moves else ""))

    def divide(self, moves, depth):
        self.set_position(moves)
        self.send(f"go perft {depth}")
        out = {}
        for line in self.wait("Nodes searched"):
            low = line.lower()
            if line.startswith("info"):
                if "illegal" in low or "error" in low or "unknown" in low or "invalid" in low:
                    raise EngineError(line)
                continue
            if ": " in line and not line.startswith("Nodes"):
                m, n = line.split(": ", 1)
                try:
                    out[m.strip()] = int(n)
                except ValueError:
                    raise EngineError(f"bad perft line {line!r}") from None
        return out

    def fen(self):
        self.send("d")
        return self.wait("info string fen")[-1][len("info string fen"):].strip()

    def quit(self):
        try:
            self.send("quit")
            self.p.wait(timeout=10)
        except (EngineError, subprocess.TimeoutExpired):
            self.p.kill()


def ref_divide(pos, depth):
    return ref.divide(pos, depth)


KINDS = (("beastcapture", "captures by beasts"), ("propel", "propels"), ("bounce", "bounces"),
         ("castle", "castlings"), ("promotion", "promotions"))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("engine")
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("--plies", type=int, default=120)
    ap.add_argument("--seed", type=int, default=1, help="seed of the first game (then +1 per game)")
    ap.add_argument("--variant", default="tensor", help="UCI_Variant value (default tensor)")
    ap.add_argument("--queen-propel", choices=["all", "mode"], default="all")
    ap.add_argument("--no-ep", action="store_true", help="reference without en passant")
    ap.add_argument("--timeout", type=float, default=120.0, help="seconds to wait for an engine reply")
    a = ap.parse_args()
    ref.set_options(queen_propel=a.queen_propel, en_passant=not a.no_ep)

    args = []
    if (a.queen_propel != "all" or a.no_ep) and a.variant == "tensor":
        import tempfile
        root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
        text = open(os.path.join(root, "engine.ini")).read()
        text += (f"\n[tensor-check:tensor]\nrules.queen_propel = {a.queen_propel}\n"
                 f"rules.en_passant = {'false' if a.no_ep else 'true'}\naliases =\n")
        ini = tempfile.NamedTemporaryFile("w", suffix=".ini", delete=False)
        ini.write(text)
        ini.close()
        args = ["--ini", ini.name]
        a.variant = "tensor-check"
    try:
        eng = Engine(a.engine, a.variant, a.timeout, args)
    except EngineError as e:
        print(f"ENGINE ERROR: {e}")
        return 2
    start = ref.parse_fen(ref.START_FEN)
    positions = 0
    seen = {k: 0 for k, _ in KINDS}      # moves of each kind in the compared move lists
    played = {k: 0 for k, _ in KINDS}    # moves of each kind actually played
    try:
        for game in range(a.games):
            seed = a.seed + game
            rng = random.Random(seed)
            pos, moves_so_far = start, []
            for ply in range(a.plies + 1):
                depth = 2 if ply % 10 == 0 else 1
                legal = {m.text: m for m in ref.legal_moves(pos)}
                if depth == 1:
                    want = {t: 1 for t in legal}
                else:
                    want = ref_divide(pos, 2)
                got = eng.divide(moves_so_far, depth)
                fen_ref, fen_eng = ref.to_fen(pos), eng.fen()
                if got != want or fen_ref != fen_eng:
                    print(f"DISAGREE (variant {a.variant}, game {game + 1}, seed {seed}, ply {ply}, "
                          f"go perft {depth})")
                    print(f"  moves: {' '.join(moves_so_far) or '(none)'}")
                    print(f"  reference FEN {fen_ref}")
                    print(f"  engine    FEN {fen_eng}" + ("" if fen_ref == fen_eng else "   <-- differs"))
                    only_eng = sorted(set(got) - set(want))
                    only_ref = sorted(set(want) - set(got))
                    if only_eng:
                        print(f"  only in engine ({len(only_eng)}): {' '.join(only_eng)}")
                    if only_ref:
                        print(f"  only in reference ({len(only_ref)}): {' '.join(only_ref)}")
                    for m in sorted(set(want) & set(got)):
                        if want[m] != got[m]:
                            print(f"  {m}: reference {want[m]}, engine {got[m]}")
                    eng.quit()
                    return 1
                positions += 1
                for m in legal.values():
                    if m.kind in seen:
                        seen[m.kind] += 1
                if not legal:
                    break
                text = rng.choice(sorted(legal))
                m = legal[text]
                if m.kind in played:
                    played[m.kind] += 1
                moves_so_far.append(text)
                pos = ref.make_move(pos, m)
    except EngineError as e:
        print(f"ENGINE ERROR: {e}")
        print(f"  moves: {' '.join(moves_so_far) or '(none)'}")
        eng.quit()
        return 2
    eng.quit()
    print(f"tensor crosscheck ({a.variant}, queen-propel {a.queen_propel}, "
          f"en passant {'off' if a.no_ep else 'on'}): {a.games} games, {positions} positions agree; "
          "seen in move lists / played: "
          + ", ".join(f"{label} {seen[k]}/{played[k]}" for k, label in KINDS))
    return 0


if __name__ == "__main__":
    sys.exit(main())
