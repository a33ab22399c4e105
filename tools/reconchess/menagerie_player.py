"""reconchess Player that is Menagerie: every callback becomes one line of the RBC protocol
(../shared/protocol.md section 4) sent to a `menagerie` process speaking CECP.

Use it wherever reconchess takes a bot: `rc-bot-match tools/reconchess/menagerie_player.py
reconchess.bots.random_bot`, `play_local_game(MenageriePlayer(), OtherBot())`, or reconchess's
remote play. The engine binary is $MENAGERIE_ENGINE, or target/release/menagerie of this
repository; $MENAGERIE_RBC_TURN, when set, is the most seconds a turn may take (`rbc-turn`).
Engine lines that answer nothing asked (`Error (...)` after a contradiction, debug
lines) go to stderr; the engine keeps a usable belief and the game goes on.
"""
import os
import queue
import subprocess
import sys
import threading

import chess
from reconchess import Player

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_ENGINE = os.path.join(HERE, "..", "..", "target", "release", "menagerie")


class MenageriePlayer(Player):
    """Menagerie over the `rbc-*` lines."""

    def __init__(self, engine=None, timeout=120.0):
        self.path = engine or os.environ.get("MENAGERIE_ENGINE", DEFAULT_ENGINE)
        self.timeout = timeout
        self.lines = queue.Queue()
        self.proc = subprocess.Popen([self.path], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     text=True, bufsize=1)
        threading.Thread(target=self._read, daemon=True).start()
        self.send("xboard")
        self.send("protover 2")
        self.expect("feature done=1")

    # --- plumbing
    def _read(self):
        for line in self.proc.stdout:
            self.lines.put(line.rstrip("\n"))
        self.lines.put(None)

    def send(self, line):
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()

    def expect(self, prefix):
        """The next line starting with `prefix`; other lines are reported on stderr."""
        while True:
            try:
                line = self.lines.get(timeout=self.timeout)
            except queue.Empty:
                raise RuntimeError(f"menagerie: no '{prefix}' within {self.timeout} s")
            if line is None:
                raise RuntimeError("menagerie ended")
            if line.startswith(prefix):
                return line
            if line.startswith("Error") or line.startswith("#"):
                print(f"menagerie: {line}", file=sys.stderr)

    def sync(self):
        """Waits until every line sent so far is handled (errors on the way go to stderr)."""
        self.send("ping 1")
        self.expect("pong 1")

    # --- reconchess callbacks
    def handle_game_start(self, color, board, opponent_name):
        self.send("new")
        self.send("variant rbc")
        if board.fen() != chess.STARTING_FEN:
            self.send(f"setboard {board.fen()}")
        turn = os.environ.get("MENAGERIE_RBC_TURN")
        if turn:  # most seconds a turn may take (0: fixed samples, fast)
            self.send(f"rbc-turn {turn}")
        self.send(f"rbc-color {'white' if color == chess.WHITE else 'black'}")
        self.sync()

    def handle_opponent_move_result(self, captured_my_piece, capture_square):
        sq = chess.square_name(capture_square) if captured_my_piece and capture_square is not None else "none"
        self.send(f"rbc-opp {sq}")

    def choose_sense(self, sense_actions, move_actions, seconds_left):
        reply = self.expect_reply(f"rbc-sense {seconds_left:.1f}", "sense ")
        word = reply.split()[1] if reply else "pass"
        if word == "pass":
            return None
        sq = chess.parse_square(word)
        return sq if sq in sense_actions else None

    def handle_sense_result(self, sense_result):
        words = [f"{chess.square_name(sq)}:{p.symbol() if p is not None else '.'}" for sq, p in sense_result]
        self.send("rbc-seen " + " ".join(words))

    def choose_move(self, move_actions, seconds_left):
        reply = self.expect_reply(f"rbc-go {seconds_left:.1f}", "move ")
        word = reply.split()[1] if reply else "pass"
        if word == "pass":
            return None
        move = chess.Move.from_uci(word)
        if move not in move_actions:
            print(f"menagerie: asked for {word}, not in move_actions; passing", file=sys.stderr)
            return None
        return move

    def handle_move_result(self, requested_move, taken_move, captured_opponent_piece, capture_square):
        req = requested_move.uci() if requested_move is not None else "pass"
        taken = taken_move.uci() if taken_move is not None else "pass"
        sq = chess.square_name(capture_square) if captured_opponent_piece and capture_square is not None else "none"
        self.send(f"rbc-result {req} {taken} {sq}")

    def handle_game_end(self, winner_color, win_reason, game_history):
        result = "1/2-1/2" if winner_color is None else ("1-0" if winner_color == chess.WHITE else "0-1")
        reason = getattr(win_reason, "name", str(win_reason))
        self.send(f"result {result} {{{reason}}}")
        self.send("quit")
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()

    def expect_reply(self, request, prefix):
        """Sends a request and returns its reply line (None after an error reply)."""
        self.send(request)
        self.send("ping 2")
        reply = None
        while True:
            line = self.expect("")
            if line.startswith(prefix):
                reply = line
            elif line == "pong 2":
                return reply
            elif line.startswith("Error"):
                print(f"menagerie: {line}", file=sys.stderr)
