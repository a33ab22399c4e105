#!/usr/bin/env python3
"""Checks that MenageriePlayer (menagerie_player.py, unchanged) plays through reconchess's
remote code path, offline.

Per game, a small HTTP server on 127.0.0.1 (free port) serves one reconchess `LocalGame` behind
the endpoints `reconchess.game.RemoteGame` calls (`/api/games/<id>/<endpoint>`, players told
apart by the HTTP basic-auth user name, "white" or "black"). Two threads then run reconchess's
own `play_remote_game(server_url, game_id, auth, player)`: one with `MenageriePlayer()`, one
with a reconchess bot; Menagerie's colour alternates. A game passes when the server recorded a
winner or a draw reason and both clients received that result and a game history equal to
the server's. Any exception in a client thread, a server fault or the per-game timeout fails
the run (exit status 1, stopping at the first failed game).

Usage (any venv with reconchess 1.6.9; run it from a scratch directory, bots may write files):
    /path/to/venv/python tools/reconchess/remote_check.py --games 2 \
        [--seconds 900] [--bot reconchess.bots.random_bot] [--timeout 600]
The engine binary is $MENAGERIE_ENGINE, or target/release/menagerie of this repository.
"""
import argparse
import base64
import os
import sys
import threading
import time
import traceback
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import chess
from reconchess import LocalGame, load_player, play_remote_game
from reconchess.history import GameHistoryEncoder
from reconchess.utilities import ChessJSONDecoder, json  # the json module reconchess itself uses

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from menagerie_player import MenageriePlayer  # noqa: E402

GAME_ID = "1"
PASSWORD = "rbc"
USERS = {"white": chess.WHITE, "black": chess.BLACK}
PER_TURN = {"sense_actions", "move_actions", "opponent_move_results", "sense", "move", "end_turn"}
ENDPOINTS = {"GET": {"color", "starting_board", "opponent_name", "seconds_left", "is_my_turn",
                     "game_status", "winner_color", "win_reason", "game_history",
                     "sense_actions", "move_actions", "opponent_move_results"},
             "POST": {"ready", "sense", "move", "end_turn"}}


class HttpError(Exception):
    def __init__(self, status, message):
        super().__init__(message)
        self.status = status


class OneGame:
    """A LocalGame served to two remote players; every request runs under one lock."""

    def __init__(self, seconds, names):
        self.lock = threading.Lock()
        self.game = LocalGame(seconds_per_player=seconds)
        self.game.store_players(names[chess.WHITE], names[chess.BLACK])
        self.names = names
        self.ready = set()
        self.phase = "sense"  # next action of the player to move: sense, move, end_turn
        self.ended = False
        self.aborted = None  # reason, once the checker gave up on this game
        self.fault = None  # traceback of an unexpected server exception

    def my_turn(self, color):
        return len(self.ready) == 2 and not self.ended and self.game.turn == color

    def abort(self, reason):
        with self.lock:
            self.aborted = reason

    def handle(self, method, endpoint, color, body):
        with self.lock:
            if self.aborted:
                raise HttpError(400, f"game aborted: {self.aborted}")
            g = self.game
            if len(self.ready) == 2 and not self.ended and g.is_over():
                g.end()  # exactly once: records the result in the history
                self.ended = True
            if endpoint in PER_TURN:
                if self.ended:  # e.g. the clock ran out mid-turn: let the client reach is_over
                    return {"sense_actions": {"sense_actions": []}, "move_actions": {"move_actions": []},
                            "opponent_move_results": {"opponent_move_results": None},
                            "sense": {"sense_result": []}, "end_turn": {},
                            "move": {"move_result": [body.get("requested_move"), None, None]}}[endpoint]
                if len(self.ready) < 2:
                    raise HttpError(400, f"{endpoint}: the game has not started (both players post ready)")
                if not self.my_turn(color):
                    raise HttpError(400, f"{endpoint}: not {chess.COLOR_NAMES[color]}'s turn")
                return self.turn_action(endpoint, body)
            if endpoint == "color":
                return {"color": color}
            if endpoint == "starting_board":
                return {"board": chess.Board()}
            if endpoint == "opponent_name":
                return {"opponent_name": self.names[not color]}
            if endpoint == "seconds_left":  # the running clock if it is this player's turn
                left = g.get_seconds_left() if color == g.turn else g.seconds_left_by_color[color]
                return {"seconds_left": left}
            if endpoint == "is_my_turn":
                return {"is_my_turn": self.my_turn(color)}
            if endpoint == "game_status":
                return {"is_over": self.ended, "is_my_turn": self.my_turn(color)}
            if endpoint == "ready":
                self.ready.add(color)
                if len(self.ready) == 2 and g.current_turn_start_time is None:
                    g.start()  # white's clock runs from here
                return {}
            if not self.ended:
                raise HttpError(400, f"{endpoint}: the game is not over")
            return {"winner_color": {"winner_color": g.get_winner_color()},
                    "win_reason": {"win_reason": g.get_win_reason()},
                    "game_history": {"game_history": g.get_game_history()}}[endpoint]

    def turn_action(self, endpoint, body):
        g = self.game
        if endpoint == "sense_actions":
            return {"sense_actions": g.sense_actions()}
        if endpoint == "move_actions":
            return {"move_actions": g.move_actions()}
        if endpoint == "opponent_move_results":
            return {"opponent_move_results": g.opponent_move_results()}
        if endpoint != self.phase:
            raise HttpError(400, f"{endpoint}: out of order, expected {self.phase}")
        try:
            if endpoint == "sense":
                reply, self.phase = {"sense_result": g.sense(body["square"])}, "move"
            elif endpoint == "move":
                reply, self.phase = {"move_result": list(g.move(body["requested_move"]))}, "end_turn"
            else:
                g.end_turn()
                reply, self.phase = {}, "sense"
        except (KeyError, ValueError) as e:  # LocalGame rejects bad squares and moves first
            raise HttpError(400, f"{endpoint}: {e!r}")
        return reply


class Handler(BaseHTTPRequestHandler):
    def log_message(self, *args):
        pass

    def do_GET(self):
        self.serve("GET")

    def do_POST(self):
        self.serve("POST")

    def serve(self, method):
        game = self.server.game
        try:
            body = {}
            if method == "POST":
                raw = self.rfile.read(int(self.headers.get("Content-Length") or 0))
                try:
                    body = json.loads(raw, cls=ChessJSONDecoder) if raw else {}
                except ValueError as e:
                    raise HttpError(400, f"bad JSON body: {e}")
            user, _, password = self.basic_auth().partition(":")
            if user not in USERS or password != PASSWORD:
                raise HttpError(401, "unknown user or wrong password")
            parts = self.path.strip("/").split("/")
            if len(parts) != 4 or parts[:3] != ["api", "games", GAME_ID] or parts[3] not in ENDPOINTS[method]:
                raise HttpError(404, f"no endpoint {method} {self.path}")
            reply = game.handle(method, parts[3], USERS[user], body)
            self.send(200, json.dumps(reply, cls=GameHistoryEncoder), "application/json")
        except HttpError as e:
            self.send(e.status, str(e), "text/plain")
        except Exception:  # a bug here: RemoteGame would retry a 500 forever, so fail the run
            game.fault = traceback.format_exc()
            self.send(500, "server fault", "text/plain")

    def basic_auth(self):
        kind, _, token = (self.headers.get("Authorization") or "").partition(" ")
        try:
            return base64.b64decode(token).decode() if kind == "Basic" else ""
        except ValueError:
            return ""

    def send(self, status, text, content_type):
        data = text.encode()
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)


def client(user, make_player, url, out):
    """One remote player, exactly as a reconchess client runs it."""
    try:
        out["player"] = make_player()
        out["result"] = play_remote_game(url, GAME_ID, (user, PASSWORD), out["player"])
    except BaseException as e:
        out["error"] = f"{type(e).__name__}: {e}"
        out["trace"] = traceback.format_exc()


def play_game(menagerie_color, bot_cls, seconds, timeout):
    """Plays one game; returns (None, (winner, reason, turns)) or (failure message, None)."""
    makers = {menagerie_color: MenageriePlayer, not menagerie_color: bot_cls}
    names = {c: makers[c].__name__ for c in makers}
    game = OneGame(seconds, names)
    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.game = game
    threading.Thread(target=server.serve_forever, daemon=True).start()
    url = f"http://127.0.0.1:{server.server_address[1]}"
    outs = {c: {} for c in makers}
    threads = [threading.Thread(target=client, args=(chess.COLOR_NAMES[c], makers[c], url, outs[c]),
                                daemon=True) for c in makers]
    for t in threads:
        t.start()

    def client_error():
        return next((f"{names[c]} ({chess.COLOR_NAMES[c]}) client raised {o['error']}\n{o['trace']}"
                     for c, o in outs.items() if "error" in o), None)

    deadline, failure = time.monotonic() + timeout, None
    while failure is None and any(t.is_alive() for t in threads):
        time.sleep(0.2)
        if game.fault:
            failure = f"server fault:\n{game.fault}"
        elif time.monotonic() > deadline:
            failure = f"no result within {timeout:.0f} s"
        else:
            failure = client_error()
    failure = failure or client_error()
    if failure is not None:
        game.abort(failure.splitlines()[0])  # the other client's next request gets a 400 and ends it
        player = outs[menagerie_color].get("player")
        if player is not None and player.proc.poll() is None:
            player.proc.kill()
        for t in threads:
            t.join(timeout=5)
    server.shutdown()
    server.server_close()
    if failure is not None:
        return failure, None
    # The server's result must be complete and exactly what both clients were given.
    g = game.game
    winner, reason, history = g.get_winner_color(), g.get_win_reason(), g.get_game_history()
    if not game.ended or reason is None or history is None:
        return "the server recorded no winner and no draw reason", None
    for c, o in outs.items():
        w, r, h = o["result"]
        if (w, r) != (winner, reason):
            return f"{names[c]} received result {w}, {r}; the server has {winner}, {reason}", None
        if h is None or not h == history:
            return f"{names[c]}'s game history differs from the server's", None
    return None, (winner, reason, history.num_turns())


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=2)
    ap.add_argument("--seconds", type=float, default=900, help="seconds per player (+5 s per turn)")
    ap.add_argument("--bot", default="reconchess.bots.random_bot", help="module or file of a reconchess bot")
    ap.add_argument("--timeout", type=float, default=600, help="seconds allowed per game")
    a = ap.parse_args()
    _, bot_cls = load_player(a.bot)
    score = {"won": 0, "lost": 0, "drawn": 0}
    for i in range(a.games):
        mine = chess.WHITE if i % 2 == 0 else chess.BLACK
        start = time.monotonic()
        failure, result = play_game(mine, bot_cls, a.seconds, a.timeout)
        if failure is not None:
            print(f"FAIL game {i + 1} (menagerie {chess.COLOR_NAMES[mine]}): {failure}", file=sys.stderr)
            print(f"remote check FAILED after {i} good game(s)", file=sys.stderr)
            return 1
        winner, reason, turns = result
        score["drawn" if winner is None else "won" if winner == mine else "lost"] += 1
        print(f"game {i + 1}: menagerie {chess.COLOR_NAMES[mine]}, winner "
              f"{'none' if winner is None else chess.COLOR_NAMES[winner]}, {reason.name}, "
              f"{turns} turns, {time.monotonic() - start:.0f} s", flush=True)
    print(f"remote check OK: {a.games} game(s) vs {bot_cls.__name__} through play_remote_game; "
          f"menagerie won {score['won']}, lost {score['lost']}, drew {score['drawn']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
