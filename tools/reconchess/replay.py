#!/usr/bin/env python3
"""Replays one side of a saved reconchess game (a GameHistory JSON, as rc-bot-match or
`match.py --save` write) into Menagerie: every observation that side had is fed in as its
`rbc-*` line, and at each of its turns the engine is asked again what it would sense and
move. Prints, per turn, the engine's choices next to what was played, and whether its belief
holds the true board. With MENAGERIE_RBC_DEBUG=1 the engine also explains each decision on
stderr. For studying lost games; decisions may differ from the game's (sampling is random).

Usage: replay.py HISTORY.json white|black
"""
import os
import sys

import chess
from reconchess import GameHistory

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from menagerie_player import MenageriePlayer  # noqa: E402


def main():
    if len(sys.argv) != 3 or sys.argv[2] not in ("white", "black"):
        sys.exit(__doc__)
    h = GameHistory.from_file(sys.argv[1])
    color = sys.argv[2] == "white"
    me = MenageriePlayer()
    me.handle_game_start(color, chess.Board(), "replay")

    def name(sq):
        return chess.square_name(sq) if sq is not None else "none"

    for t in h.turns(color):
        first = color == chess.WHITE and t.turn_number == 0
        cap = None if first else h.capture_square(t.previous)
        me.handle_opponent_move_result(cap is not None, cap)
        print(f"turn {t.turn_number}: true board {h.truth_fen_before_move(t)}")
        if not h.has_sense(t):
            break
        sense = me.expect_reply("rbc-sense 900", "sense ")
        print(f"  sense: engine {sense.split()[1] if sense else '?'}, played {name(h.sense(t))}")
        me.handle_sense_result(h.sense_result(t))
        truth = me.expect_reply(f"rbc-truth {h.truth_fen_before_move(t)}", "truth ")
        print(f"  belief after the sense: {truth}; {me.expect_reply('rbc-stats', 'stats ')}")
        if not h.has_move(t):
            break
        move = me.expect_reply("rbc-go 900", "move ")
        req, taken, cap = h.move_result(t)
        print(f"  move: engine {move.split()[1] if move else '?'}, played {req.uci() if req else 'pass'}"
              f" (taken {taken.uci() if taken else 'none'}, capture {name(cap)})")
        me.handle_move_result(req, taken, cap is not None, cap)
    me.send("quit")


if __name__ == "__main__":
    main()
