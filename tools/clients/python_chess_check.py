#!/usr/bin/env python3
"""Drives Menagerie with python-chess (chess.engine) over UCI and over XBoard/CECP.

Checks play, analysis, take-backs and fractional time controls; every move the engine
returns must be legal on python-chess's own board. Exit code 0 when everything passed.
Usage: python_chess_check.py PATH_TO_MENAGERIE
"""
import sys

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


def main():
    with chess.engine.SimpleEngine.popen_uci([ENGINE]) as uci:
        check("UCI_Variant" in uci.options, "UCI: no UCI_Variant option")
        check("UCI_Chess960" in uci.options, "UCI: no UCI_Chess960 option")
        exercise(uci, "UCI")
        exercise_chess960(uci, "UCI")
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
