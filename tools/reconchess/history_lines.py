#!/usr/bin/env python3
"""Writes what one side of a saved reconchess game (a GameHistory JSON) observed as the
`rbc-*` lines of protocol.md section 4, with an `rbc-truth FEN` line (the referee's true board)
after each sense result and each own move: a fixture that replays the game into a belief
without reconchess (tests/rbc_games/). Lines starting with '#' are comments.

Usage: history_lines.py HISTORY.json white|black > FILE
"""
import sys

import chess
from reconchess import GameHistory


def name(sq):
    return chess.square_name(sq) if sq is not None else "none"


def main():
    if len(sys.argv) != 3 or sys.argv[2] not in ("white", "black"):
        sys.exit(__doc__)
    h = GameHistory.from_file(sys.argv[1])
    color = sys.argv[2] == "white"
    print(f"# {sys.argv[1].split('/')[-1]}, as {sys.argv[2]} saw it")
    print(f"rbc-color {sys.argv[2]}")
    for t in h.turns(color):
        first = color == chess.WHITE and t.turn_number == 0
        cap = None if first else h.capture_square(t.previous)
        print(f"rbc-opp {name(cap)}")
        if not h.has_sense(t):
            break
        result = h.sense_result(t)
        if result:
            words = [f"{chess.square_name(sq)}:{p.symbol() if p is not None else '.'}" for sq, p in result]
            print("rbc-seen " + " ".join(words))
        print(f"rbc-truth {h.truth_fen_before_move(t)}")
        if not h.has_move(t):
            break
        req, taken, cap = h.move_result(t)
        print(f"rbc-result {req.uci() if req else 'pass'} {taken.uci() if taken else 'pass'} {name(cap)}")
        after = h.truth_fen_after_move(t)
        if chess.Board(after).king(chess.WHITE) is not None and chess.Board(after).king(chess.BLACK) is not None:
            print(f"rbc-truth {after}")  # not after a king capture: the game is over


if __name__ == "__main__":
    main()
