#!/usr/bin/env python3
"""Drives Menagerie with python-chess (chess.engine) over UCI and over XBoard/CECP.

Checks play, analysis, take-backs and fractional time controls; every move the engine
returns must be legal on python-chess's own board. Exit code 0 when everything passed.
Usage: python_chess_check.py PATH_TO_MENAGERIE
"""
import io
import os
import random
import subprocess
import sys
import tempfile
import time

import chess
import chess.engine

ENGINE = sys.argv[1] if len(sys.argv) > 1 else "target/release/menagerie"
failures = []


def check(cond, what):
    if not cond:
        failures.append(what)
        print("FAIL:", what, flush=True)


def play_some(engine, board, limit, plies, label):
    for _ in range(plies):
        if board.is_game_over():
            return
        result = engine.play(board, limit)
        check(result.move is not None and result.move in board.legal_moves,
              f"{label}: illegal or missing move {result.move} in {board.fen()}")
        if result.move is None:
            return
        board.push(result.move)


def exercise(engine, label):
    board = chess.Board()
    # Fixed time per move, fractional seconds.
    play_some(engine, board, chess.engine.Limit(time=0.05), 6, f"{label} time=0.05")
    # Clock with fractional increment (CECP: level 0 0:10 0.1 + time/otim; UCI: wtime/winc).
    clock = chess.engine.Limit(white_clock=10, black_clock=10, white_inc=0.1, black_inc=0.1)
    play_some(engine, board, clock, 4, f"{label} clock")
    # Take back two plies and a different continuation: python-chess rewinds with undo/remove.
    board.pop()
    board.pop()
    board.push(next(iter(board.legal_moves)))
    play_some(engine, board, chess.engine.Limit(depth=4), 3, f"{label} after take-back")
    # Analysis.
    info = engine.analyse(board, chess.engine.Limit(depth=6))
    check("score" in info, f"{label}: analysis without score")
    pv = info.get("pv") or []
    check(len(pv) > 0 and pv[0] in board.legal_moves, f"{label}: analysis PV {pv} not legal")
    # Analysis by time, stopped by the client.
    info = engine.analyse(board, chess.engine.Limit(time=0.3))
    check("pv" in info, f"{label}: timed analysis without pv")
    # A position from FEN: mate in one must be found.
    mate = chess.Board("6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1")
    result = engine.play(mate, chess.engine.Limit(depth=4))
    check(result.move == chess.Move.from_uci("d1d8"), f"{label}: mate in one missed ({result.move})")


def exercise_chess960(engine, label):
    """Chess960 games from several arrays: every move legal on python-chess's Chess960 board
    (castling as king takes rook over UCI, O-O / O-O-O over XBoard), and the mate that only
    castling gives."""
    castled = 0
    for n in (0, 518, 959, 100, 355, 707):
        board = chess.Board.from_chess960_pos(n)
        for _ in range(40):
            if board.is_game_over():
                break
            result = engine.play(board, chess.engine.Limit(depth=3))
            ok = result.move is not None and result.move in board.legal_moves
            check(ok, f"{label} 960 #{n}: illegal or missing move {result.move} in {board.fen()}")
            if not ok:
                break
            castled += board.is_castling(result.move)
            board.push(result.move)
    print(f"{label} Chess960: {castled} castlings by the engine in six games", flush=True)
    mate = chess.Board("2rkr3/2p1p3/8/8/8/8/8/RK6 w A - 0 1", chess960=True)
    result = engine.play(mate, chess.engine.Limit(depth=3))
    check(result.move == chess.Move.from_uci("b1a1"), f"{label}: mate by castling missed ({result.move})")


def exercise_uci_analysis_and_ponder(engine):
    """MultiPV, searchmoves (python-chess's root_moves) and a game with pondering on clocks."""
    board = chess.Board("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1")
    infos = engine.analyse(board, chess.engine.Limit(depth=6), multipv=3)
    check(len(infos) == 3, f"UCI MultiPV 3: {len(infos)} lines")
    firsts = {i["pv"][0] for i in infos if i.get("pv")}
    check(len(firsts) == 3 and firsts <= set(board.legal_moves), f"UCI MultiPV 3: first moves {firsts}")
    check(all("score" in i for i in infos), "UCI MultiPV 3: a line without a score")
    check([i.get("multipv") for i in infos] == [1, 2, 3], "UCI MultiPV 3: lines not numbered 1, 2, 3")
    scores = [i["score"].white().score(mate_score=100000) for i in infos if "score" in i]
    check(scores == sorted(scores, reverse=True), f"UCI MultiPV 3: not best first {scores}")
    only = [chess.Move.from_uci("a2a3"), chess.Move.from_uci("g2g3")]
    info = engine.analyse(board, chess.engine.Limit(depth=5), root_moves=only)
    check((info.get("pv") or [None])[0] in only, f"UCI searchmoves: PV {info.get('pv')} outside {only}")
    # A game at 5+0.1 in which the engine ponders after each move (python-chess stops the
    # ponder search with the next command): every move legal, no clock below zero.
    board, clocks, inc = chess.Board(), [5.0, 5.0], 0.1
    for _ in range(30):
        if board.is_game_over():
            break
        side = 0 if board.turn == chess.WHITE else 1
        limit = chess.engine.Limit(white_clock=clocks[0], black_clock=clocks[1], white_inc=inc, black_inc=inc)
        start = time.monotonic()
        result = engine.play(board, limit, ponder=True)
        clocks[side] -= time.monotonic() - start
        check(clocks[side] > 0, f"UCI ponder game: out of time at ply {board.ply()} ({clocks[side]:.2f} s)")
        clocks[side] += inc
        ok = result.move is not None and result.move in board.legal_moves
        check(ok, f"UCI ponder game: illegal or missing move {result.move} in {board.fen()}")
        if not ok:
            break
        board.push(result.move)
    print(f"UCI ponder game: {board.ply()} plies, clocks {clocks[0]:.2f} s and {clocks[1]:.2f} s", flush=True)
    # A strength level: the options as python-chess sends them, a legal move within its budget.
    check(engine.options["UCI_Elo"].min == 800 and engine.options["UCI_Elo"].max == 2400,
          "UCI_Elo: not offered as 800..2400")
    engine.configure({"UCI_LimitStrength": True, "UCI_Elo": 1200})
    board = chess.Board()
    for _ in range(8):
        result = engine.play(board, chess.engine.Limit(time=5), info=chess.engine.INFO_BASIC)
        ok = result.move in board.legal_moves
        check(ok, f"UCI_Elo 1200: illegal move {result.move}")
        check(result.info.get("nodes", 0) <= 3500, f"UCI_Elo 1200: {result.info.get('nodes')} nodes")
        if not ok:
            break
        board.push(result.move)
    engine.configure({"UCI_LimitStrength": False})
    print(f"UCI_Elo 1200: {board.ply()} plies, every move legal", flush=True)


def exercise_pgn():
    """PGN both ways: games written by `menagerie pgn write` (SAN) are read by python-chess to
    the same position, and python-chess's own PGN is read back by `menagerie pgn read`."""
    import chess.pgn
    rng = random.Random(5)
    for variant, n in [("chess", 6), ("chess960", 6)]:
        for g in range(n):
            if variant == "chess960":
                board = chess.Board.from_chess960_pos(rng.randrange(960))
            else:
                board = chess.Board()
            start = board.fen()
            for _ in range(rng.randrange(20, 120)):
                if board.is_game_over():
                    break
                board.push(rng.choice(list(board.legal_moves)))
            uci = [m.uci() for m in board.move_stack]
            if variant == "chess960":
                # Our MMN for Chess960 castling is the king taking its rook, as python-chess's
                # chess960 UCI is.
                b = chess.Board(start, chess960=True)
                uci = []
                for m in board.move_stack:
                    uci.append(b.uci(m, chess960=True))
                    b.push(m)
            out = subprocess.run([ENGINE, "pgn", "write", variant, "--fen", start, *uci],
                                 capture_output=True, text=True)
            check(out.returncode == 0, f"pgn write {variant}: {out.stderr.strip()}")
            if out.returncode != 0:
                continue
            game = chess.pgn.read_game(io.StringIO(out.stdout))
            check(game is not None and not game.errors, f"pgn {variant}: python-chess errors {game and game.errors}")
            if game is None:
                continue
            end = game.end().board()
            check(end.fen() == board.fen(), f"pgn {variant} #{g}: python-chess read {end.fen()}, want {board.fen()}")
            # And back: python-chess's PGN of the same game, read by us.
            exporter = chess.pgn.StringExporter(headers=True)
            theirs = chess.pgn.Game.from_board(board).accept(exporter)
            with tempfile.NamedTemporaryFile("w", suffix=".pgn", delete=False) as f:
                f.write(theirs)
            back = subprocess.run([ENGINE, "pgn", "read", f.name], capture_output=True, text=True)
            os.unlink(f.name)
            got = back.stdout.strip().split(" ", 1)[-1]
            check(back.returncode == 0 and got.split()[:4] == board.fen().split()[:4],
                  f"pgn read {variant} #{g}: {back.stdout.strip()} {back.stderr.strip()}, want {board.fen()}")
    print("PGN: written and read both ways for chess and Chess960", flush=True)


def main():
    with chess.engine.SimpleEngine.popen_uci([ENGINE]) as uci:
        check("UCI_Variant" in uci.options, "UCI: no UCI_Variant option")
        check("UCI_Chess960" in uci.options, "UCI: no UCI_Chess960 option")
        check("MultiPV" in uci.options and "Ponder" in uci.options, "UCI: no MultiPV or Ponder option")
        exercise(uci, "UCI")
        exercise_uci_analysis_and_ponder(uci)
        exercise_chess960(uci, "UCI")
    exercise_pgn()
    with chess.engine.SimpleEngine.popen_xboard([ENGINE]) as xb:
        exercise(xb, "XBoard")
        exercise_chess960(xb, "XBoard")
    if failures:
        print(f"python-chess check: {len(failures)} failed")
        return 1
    print("python-chess check: UCI and XBoard passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
