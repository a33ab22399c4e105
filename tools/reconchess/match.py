#!/usr/bin/env python3
"""Plays N Reconnaissance Blind Chess games between Menagerie (tools/reconchess/
menagerie_player.py) and a reconchess bot with reconchess's own referee (`LocalGame`, the
same as rc-bot-match: 5 s increment, 100-half-move draw), colours alternating. Prints one line
per game, the score, how games ended, Menagerie's average belief size (boards after its own
move, from `rbc-stats`) and its average time per decision (sense + move).

Usage: match.py BOT [--games N] [--seconds S]
BOT: reconchess.bots.random_bot, reconchess.bots.attacker_bot, a file such as
../shared/rbc/sturdy_trout_bot.py (needs STOCKFISH_EXECUTABLE), ...
Exit status 1 when a game ended in an error of Menagerie's (for example a request outside
move_actions); a game the opponent bot aborts (TroutBot can request a move outside
move_actions) is reported as void and not scored.
"""
import argparse
import os
import sys
import time

import chess
from reconchess import LocalGame, load_player, play_local_game

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from menagerie_player import MenageriePlayer  # noqa: E402


class Measured(MenageriePlayer):
    """MenageriePlayer that records decision times and belief sizes."""

    def __init__(self):
        super().__init__()
        self.times, self.sizes = [], []
        self.last_request = None

    def choose_sense(self, *a):
        t = time.time()
        r = super().choose_sense(*a)
        self.times.append(time.time() - t)
        return r

    def choose_move(self, *a):
        t = time.time()
        r = super().choose_move(*a)
        self.times.append(time.time() - t)
        self.last_request = r
        return r

    def handle_move_result(self, *a):
        super().handle_move_result(*a)
        reply = self.expect_reply("rbc-stats", "stats ")
        if reply:
            self.sizes.append(int(reply.split()[2]))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("bot")
    ap.add_argument("--games", type=int, default=50)
    ap.add_argument("--seconds", type=float, default=900, help="seconds per player (+5 s per turn)")
    ap.add_argument("--save", default=None, help="directory for the histories of lost games")
    a = ap.parse_args()
    _, bot_cls = load_player(a.bot)
    wins = losses = draws = errors = void = 0
    reasons = {}
    times, sizes = [], []
    for g in range(a.games):
        me_white = g % 2 == 0
        me = Measured()
        other = bot_cls()
        t0 = time.time()
        try:
            white, black = (me, other) if me_white else (other, me)
            winner, reason, history = play_local_game(white, black, game=LocalGame(seconds_per_player=a.seconds))
        except Exception as e:  # an exception aborts the game: whose was it?
            ours = me.last_request is not None and me.last_request.uci() in str(e)
            if ours:
                errors += 1
            else:
                void += 1
            print(f"game {g + 1}: {'ERROR (Menagerie)' if ours else 'void, the opponent failed'}: {e}", flush=True)
            if me.proc.poll() is None:
                me.proc.kill()
            continue
        name = getattr(reason, "name", str(reason))
        reasons[name] = reasons.get(name, 0) + 1
        mine = chess.WHITE if me_white else chess.BLACK
        if winner is None:
            draws += 1
            res = "draw"
        elif winner == mine:
            wins += 1
            res = "win"
        else:
            losses += 1
            res = "loss"
            if a.save:
                os.makedirs(a.save, exist_ok=True)
                history.save(os.path.join(a.save, f"loss-{g + 1}.json"))
        times += me.times
        sizes += me.sizes
        turns = len(history._taken_moves[mine]) if hasattr(history, "_taken_moves") else "?"
        print(f"game {g + 1:3d}: Menagerie {'white' if me_white else 'black'} {res:4s} {name} "
              f"({turns} own turns, {time.time() - t0:.0f} s)", flush=True)
    n = wins + losses + draws
    print(f"Menagerie vs {a.bot}: +{wins} ={draws} -{losses} of {n} "
          f"({100 * (wins + draws / 2) / max(n, 1):.1f} %), errors {errors}, void (opponent failed) {void}; "
          f"ends: {reasons}")
    if times:
        print(f"average belief size after own move {sum(sizes) / max(len(sizes), 1):.0f} boards "
              f"(max {max(sizes) if sizes else 0}); average time per decision {sum(times) / len(times):.2f} s")
    sys.exit(1 if errors else 0)


if __name__ == "__main__":
    main()
