#!/usr/bin/env python3
"""Differential test of Menagerie's RBC referee against reconchess 1.6.9 itself.

Plays random RBC games on a python-chess board with reconchess's own referee functions
(`move_actions`, `add_pawn_queen_promotion`, `revise_move`, `capture_square_of_move`, passes as
null moves) and, at every turn, asks `menagerie rbc-referee` for the same: the set of
requestable moves, the taken move and capture square of the same request, the true board's
FEN afterwards (python-chess `fen(en_passant="xfen")`, which writes the en-passant square only
when a pseudo-legal capture exists, as Menagerie does) and the end of the game (king capture,
100 half-moves). Requests are chosen to exercise revision: mostly random requestable moves
(which often fail or shorten on the hidden board), sometimes passes.

Usage: referee_check.py ENGINE [--games N] [--seed S]
Needs reconchess (pip install reconchess==1.6.9). Exit 1 on the first disagreement.
"""
import argparse
import random
import subprocess
import sys

import chess
from reconchess.utilities import (add_pawn_queen_promotion, capture_square_of_move,
                                  move_actions, revise_move)


class Referee:
    def __init__(self, path):
        self.p = subprocess.Popen([path, "rbc-referee"], stdin=subprocess.PIPE,
                                  stdout=subprocess.PIPE, text=True, bufsize=1)

    def ask(self, line):
        self.p.stdin.write(line + "\n")
        self.p.stdin.flush()
        reply = self.p.stdout.readline()
        if not reply:
            raise SystemExit(f"engine ended after '{line}'")
        return reply.strip()


def fail(msg, board, history):
    print(f"DISAGREE: {msg}\n  before: {board.fen(en_passant='xfen')}\n  requests: {' '.join(history)}")
    sys.exit(1)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("engine")
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args()
    rng = random.Random(a.seed)
    ref = Referee(a.engine)
    turns = shortened = failed = captures = passes = 0
    ends = {}
    for game in range(a.games):
        # Every fifth game mostly passes, so that the 100-half-move draw comes too.
        pass_rate = 0.9 if game % 5 == 4 else 0.08
        board = chess.Board()
        assert ref.ask("fen " + board.fen()) == "ok"
        history = []
        while True:
            end = "none"
            if board.king(chess.WHITE) is None:
                end = "king black"
            elif board.king(chess.BLACK) is None:
                end = "king white"
            elif board.halfmove_clock >= 100:
                end = "movelimit"
            got = ref.ask("end")
            if got != end:
                fail(f"end: engine '{got}', reconchess '{end}'", board, history)
            if end != "none":
                ends[end.split()[0]] = ends.get(end.split()[0], 0) + 1
                break
            acts = move_actions(board)
            want = " ".join(sorted({m.uci() for m in acts}))
            got = ref.ask("actions")
            if got != want:
                e, r = set(got.split()), set(want.split())
                fail(f"actions: only engine {sorted(e - r)}, only reconchess {sorted(r - e)}", board, history)
            if rng.random() < pass_rate or not acts:
                req = None
            else:
                req = rng.choice(acts)  # last-rank pawn moves without a piece come too
            text = "pass" if req is None else req.uci()
            if req is None:
                taken, cap = None, None
                passes += 1
            else:
                full = add_pawn_queen_promotion(board, req)
                taken = revise_move(board, full)
                cap = capture_square_of_move(board, taken)
                if taken is None:
                    failed += 1
                elif taken != full:
                    shortened += 1
            want = f"taken {taken.uci() if taken else 'none'} capture {chess.square_name(cap) if cap is not None else '-'}"
            got = ref.ask("play " + text)
            if got != want:
                fail(f"play {text}: engine '{got}', reconchess '{want}'", board, history)
            history.append(text)
            board.push(taken if taken is not None else chess.Move.null())
            if cap is not None:
                captures += 1
            turns += 1
            got = ref.ask("fen")
            want = board.fen(en_passant="xfen")
            if got != want:
                fail(f"fen after {text}: engine '{got}', reconchess '{want}'", board, history)
    ref.p.stdin.write("quit\n")
    ref.p.stdin.close()
    ref.p.wait(timeout=10)
    print(f"rbc referee check: {a.games} games, {turns} turns agree with reconchess "
          f"({failed} failed requests, {shortened} revised, {captures} captures, {passes} passes; "
          f"ends: {ends})")


if __name__ == "__main__":
    main()
