#!/usr/bin/env python3
"""Plays N Reconnaissance Blind Chess games between Menagerie (tools/reconchess/
menagerie_player.py) and a reconchess bot with reconchess's own referee (`LocalGame`, the
same as rc-bot-match: 5 s increment, 100-half-move draw), colours alternating. Prints one line
per game, the score, how games ended, Menagerie's average belief size (boards after its own
move, from `rbc-stats`) and its average time per decision (sense + move).

Usage: match.py BOT [--games N] [--seconds S] [--first white|black] [--save DIR] [--check-belief]
BOT: reconchess.bots.random_bot, reconchess.bots.attacker_bot, a file such as
../shared/rbc/sturdy_trout_bot.py (needs STOCKFISH_EXECUTABLE), ...
With --check-belief, after every sense result and every own move the true board (from
reconchess's referee) is sent to the engine (`rbc-truth FEN`), which says whether its belief
holds it; a true board missing from a belief that was never sampled down is an error.
Exit status 1 when a game ended in an error of Menagerie's (for example a request outside
move_actions); a game the opponent bot aborts (TroutBot can request a move outside
move_actions) is reported as void, not scored, and replayed with the same colours: N counts
scored games.
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
        self.counters = {}
        self.last_request = None
        self.referee = None  # the LocalGame, when the belief is to be checked
        self.truth = {"in": 0, "out": 0, "out unsampled": 0}

    def check_truth(self):
        board = self.referee.board if self.referee is not None else None
        if board is None or board.king(chess.WHITE) is None or board.king(chess.BLACK) is None:
            return
        reply = self.expect_reply(f"rbc-truth {board.fen()}", "truth ")
        if reply:
            words = reply.split()
            if words[1] == "in":
                self.truth["in"] += 1
            else:
                self.truth["out"] += 1
                if words[3] == "0":
                    self.truth["out unsampled"] += 1
                    print(f"true board missing from an unsampled belief: {board.fen()}", file=sys.stderr)

    def handle_sense_result(self, *a):
        super().handle_sense_result(*a)
        self.check_truth()

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
            f = reply.split()
            self.sizes.append(int(f[2]))
            # The belief's counters so far this game (the last reply holds the game's totals).
            self.counters = {k: int(v) for k, v in zip(f[3::2], f[4::2])}
        self.check_truth()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("bot")
    ap.add_argument("--games", type=int, default=50)
    ap.add_argument("--seconds", type=float, default=900, help="seconds per player (+5 s per turn)")
    ap.add_argument("--first", choices=["white", "black"], default="white",
                    help="Menagerie's colour in the first game (a series split over runs stays balanced)")
    ap.add_argument("--save", default=None, help="directory for the histories of games not won")
    ap.add_argument("--check-belief", action="store_true", help="ask after every observation whether "
                    "the belief holds the true board")
    a = ap.parse_args()
    _, bot_cls = load_player(a.bot)
    wins = losses = draws = errors = void = 0
    reasons = {}
    times, sizes = [], []
    counters = {}
    truth = {"in": 0, "out": 0, "out unsampled": 0}
    g = -1
    while wins + losses + draws + errors < a.games:
        g += 1
        # A void game is replayed with the same colours.
        me_white = (wins + losses + draws + errors + (a.first == "black")) % 2 == 0
        me = Measured()
        other = bot_cls()
        t0 = time.time()
        try:
            white, black = (me, other) if me_white else (other, me)
            game = LocalGame(seconds_per_player=a.seconds)
            if a.check_belief:
                me.referee = game
            winner, reason, history = play_local_game(white, black, game=game)
        except Exception as e:  # an exception aborts the game: whose was it?
            # Ours: a request outside move_actions, or the engine silent or gone (the adapter's
            # errors start with "menagerie").
            ours = (me.last_request is not None and me.last_request.uci() in str(e)) or str(e).startswith("menagerie")
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
        if a.save and res != "win":
            os.makedirs(a.save, exist_ok=True)
            history.save(os.path.join(a.save, f"{res}-{g + 1}.json"))
        times += me.times
        sizes += me.sizes
        for k, v in me.counters.items():
            counters[k] = counters.get(k, 0) + v
        for k in truth:
            truth[k] += me.truth[k]
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
    if counters:
        print("belief counters over the games: " + ", ".join(f"{k} {v}" for k, v in counters.items()))
    if a.check_belief:
        print(f"true board in the belief: {truth['in']} of {truth['in'] + truth['out']} checks; "
              f"missing from a sampled belief {truth['out'] - truth['out unsampled']}, "
              f"from an unsampled one {truth['out unsampled']}")
    sys.stdout.flush()
    sys.stderr.flush()
    # os._exit: a bot may leave engine threads behind (TroutBot after its engine died) that
    # would keep the interpreter alive.
    os._exit(1 if errors or truth["out unsampled"] else 0)


if __name__ == "__main__":
    main()
