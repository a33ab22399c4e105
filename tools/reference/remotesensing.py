#!/usr/bin/env python3
"""
Independent reference move generator / perft counter for the chess variant
"Remote Sensing with On & Off-Board Detection" (G. K. Gifford, 2006).

Written from the rules file /work/shared/rules/remote-sensing.md ALONE.
It shares no code with the Rust engine and was written without reading the
engine's sources or tests. Its job is to produce numbers that check the engine,
so it aims at being simple and obviously correct, not fast: a 9x9 board
held as a list of lists, moves kept in plain lists, and every move made on a
copy of the position. Python 3 standard library only.

Conventions (the "Decision for this project" block and sections 3-5 of the rules):
  * Board 9x9, files a-i, ranks 1-9. A square is DARK when (file + rank) is even,
    counting a=1 and rank 1=1 (so a1 is dark); otherwise it is LIGHT.
  * Letters (upper case White, lower case Black):
      K King I, D King II: both move as a king, both are royal, and both count as
        type K for sensors and for the bins.
      R N B as in FIDE.
      P pawn: one step forward without capturing, one step diagonally forward to
        capture. No double step, no en passant.
      F E M on-board sensors (Friendly / Enemy / Mega).
      U V W off-board sensors (Friendly / Enemy / Mega).
  * FEN: BOARD[wl/wd/bl/bd] side castling ep halfmove fullmove. The four bins are
    White pieces captured on light squares, White on dark, Black on light,
    Black on dark. Each is a set of letters from KRNBP, or '-'. The bracket may
    also be the last field, or be missing (then all bins are empty). Castling and
    ep are always '-'. Output writes the bins right after the board, letters in the
    order K R N B P.
  * No check. Every pseudo-legal move is legal. Kings may move into attack and be
    captured.
  * A sensor on square s collects piece TYPES (K R N B P, never sensors) and moves
    as any of them from s, with normal blocking, capturing any enemy piece (kings
    and sensors included). The colour that counts is the colour of s.
      F: types of own non-sensor pieces on squares of s's colour.
      E: types of enemy non-sensor pieces on squares of s's colour.
      M: both.
      U: the bin of own pieces captured on s's colour.
      V: the bin of enemy pieces captured on s's colour.
      W: both bins.
    If the set is empty, the sensor cannot move. Moves of several types to the same
    square count once (one move per destination). A mimicked pawn never double-steps,
    and a sensor never promotes.
    Direction of a mimicked pawn: an OWN pawn type (from own pieces or own bin)
    moves in the sensor owner's forward direction. An ENEMY pawn type (from enemy
    pieces or enemy bin) moves in the ENEMY's forward direction ("literal", the
    default). With --enemy-pawn own it moves in the owner's forward direction too.
  * Captures: a captured R, N, B, P, K or D adds its type (D counts as K) to the bin
    (owner = the captured piece's colour, colour = the colour of the destination
    square). Bins are sets. Captured sensors are never binned. A promoted piece is
    binned as its current type.
    Capturing King I (K/k) removes at once every on-board sensor (F, E, M) of the
    victim's colour from the board. Capturing King II (D/d) removes every
    off-board sensor (U, V, W) of the victim's colour. Removed sensors are not binned.
  * A side with no king (neither K nor D) on the board has no moves (it has lost).
    Perft: perft(pos, 0) = 1; perft(pos, d) = sum over moves of perft(child, d-1).
  * Promotion: a pawn arriving on its owner's 7th rank (White rank 7, Black rank 3)
    must promote, by a plain move or a capture, to one of R N B F E M U V W
    (9 choices). Nothing else promotes.
  * No castling, no en passant, no double step.
  * Halfmove clock: reset by a capture or by a move of a real pawn, otherwise +1.
    Fullmove number: +1 after Black's move. (Neither affects perft.)

Usage:
  python3 remotesensing.py [--enemy-pawn literal|own] "FEN" DEPTH
      prints "depth N nodes X" for N = 1..DEPTH
  python3 remotesensing.py [--enemy-pawn ...] --divide "FEN" DEPTH
      prints "MOVE COUNT" for every top-level move, then the total.
      Moves are written from-to plus the lower-case promotion letter, e.g. d6d7f.
  python3 remotesensing.py [--enemy-pawn ...] --fen-after MOVE "FEN"
      prints the FEN after MOVE
  python3 remotesensing.py [--enemy-pawn ...] --random-walk SEED PLIES "FEN"
      plays PLIES uniformly random moves with random.Random(SEED).choice over the
      list of move strings sorted alphabetically (stops early when the side to move
      has no move) and prints the resulting FEN.
"""

import argparse
import random
import sys
import time

SIZE = 9
FILES = "abcdefghi"
WHITE, BLACK = "w", "b"
EMPTY = "."
SENSORS = "FEMUVW"
NON_SENSORS = "KDRNBP"
PROMOTIONS = "RNBFEMUVW"
BIN_ORDER = "KRNBP"

# "literal" or "own": how a mimicked ENEMY pawn type moves (set from the command line).
ENEMY_PAWN = "literal"

KING_STEPS = [(-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1)]
KNIGHT_JUMPS = [(1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2)]
ROOK_DIRS = [(1, 0), (-1, 0), (0, 1), (0, -1)]
BISHOP_DIRS = [(1, 1), (1, -1), (-1, 1), (-1, -1)]


# ---------------------------------------------------------------- small helpers

def other(colour):
    return BLACK if colour == WHITE else WHITE


def colour_of(piece):
    return WHITE if piece.isupper() else BLACK


def on_board(f, r):
    return 0 <= f < SIZE and 0 <= r < SIZE


def shade(f, r):
    """'dark' or 'light' for 0-based file f and rank r (a1 is dark)."""
    return "dark" if ((f + 1) + (r + 1)) % 2 == 0 else "light"


def piece_type(piece):
    """Type of a non-sensor piece for sensors and bins: K, R, N, B or P (D counts as K)."""
    u = piece.upper()
    return "K" if u == "D" else u


def forward(colour):
    return 1 if colour == WHITE else -1


def promotion_rank(colour):
    """0-based rank on which a pawn of this colour promotes (its owner's 7th rank)."""
    return 6 if colour == WHITE else SIZE - 7   # White rank 7, Black rank 3


def square_name(f, r):
    return FILES[f] + str(r + 1)


def parse_square(text):
    f = FILES.index(text[0])
    r = int(text[1:]) - 1
    if not on_board(f, r):
        raise ValueError("bad square " + text)
    return f, r


def move_string(move):
    (ff, fr), (tf, tr), promo = move
    s = square_name(ff, fr) + square_name(tf, tr)
    if promo:
        s += promo.lower()
    return s


# ---------------------------------------------------------------- position

class Position:
    def __init__(self):
        self.board = [[EMPTY] * SIZE for _ in range(SIZE)]   # board[rank][file]
        self.side = WHITE
        # bins[(owner colour, 'light'|'dark')] = set of types from KRNBP
        self.bins = {(c, s): set() for c in (WHITE, BLACK) for s in ("light", "dark")}
        self.halfmove = 0
        self.fullmove = 1

    def copy(self):
        p = Position()
        p.board = [row[:] for row in self.board]
        p.side = self.side
        p.bins = {k: set(v) for k, v in self.bins.items()}
        p.halfmove = self.halfmove
        p.fullmove = self.fullmove
        return p


def parse_fen(fen):
    text = fen.strip()
    bins_text = None
    if "[" in text:
        i = text.index("[")
        j = text.index("]", i)
        bins_text = text[i + 1:j]
        text = text[:i] + " " + text[j + 1:]
    fields = text.split()
    if not fields:
        raise ValueError("empty FEN")
    pos = Position()

    rows = fields[0].split("/")
    if len(rows) != SIZE:
        raise ValueError("need %d ranks, got %d" % (SIZE, len(rows)))
    for i, row in enumerate(rows):
        r = SIZE - 1 - i
        f = 0
        for ch in row:
            if ch.isdigit():
                f += int(ch)
            elif ch.upper() in NON_SENSORS + SENSORS:
                if f >= SIZE:
                    raise ValueError("rank too long: " + row)
                pos.board[r][f] = ch
                f += 1
            else:
                raise ValueError("bad piece letter " + ch)
        if f != SIZE:
            raise ValueError("rank has wrong length: " + row)

    if len(fields) > 1:
        if fields[1] not in (WHITE, BLACK):
            raise ValueError("bad side " + fields[1])
        pos.side = fields[1]
    # fields[2] castling and fields[3] ep are always '-' in this variant: ignored.
    if len(fields) > 4:
        pos.halfmove = int(fields[4])
    if len(fields) > 5:
        pos.fullmove = int(fields[5])

    if bins_text is not None:
        parts = bins_text.split("/")
        if len(parts) != 4:
            raise ValueError("need 4 bins, got " + bins_text)
        keys = [(WHITE, "light"), (WHITE, "dark"), (BLACK, "light"), (BLACK, "dark")]
        for key, part in zip(keys, parts):
            if part == "-" or part == "":
                continue
            for ch in part.upper():
                if ch not in BIN_ORDER:
                    raise ValueError("bad bin letter " + ch)
                pos.bins[key].add(ch)
    return pos


def to_fen(pos):
    rows = []
    for r in range(SIZE - 1, -1, -1):
        row = ""
        run = 0
        for f in range(SIZE):
            p = pos.board[r][f]
            if p == EMPTY:
                run += 1
            else:
                if run:
                    row += str(run)
                    run = 0
                row += p
        if run:
            row += str(run)
        rows.append(row)
    bins = []
    for key in [(WHITE, "light"), (WHITE, "dark"), (BLACK, "light"), (BLACK, "dark")]:
        letters = "".join(t for t in BIN_ORDER if t in pos.bins[key])
        bins.append(letters or "-")
    return "%s[%s] %s - - %d %d" % ("/".join(rows), "/".join(bins), pos.side,
                                    pos.halfmove, pos.fullmove)


# ---------------------------------------------------------------- move generation

def has_king(pos, colour):
    for r in range(SIZE):
        for f in range(SIZE):
            p = pos.board[r][f]
            if p != EMPTY and colour_of(p) == colour and p.upper() in "KD":
                return True
    return False


def board_types(pos):
    """types[(colour, 'light'|'dark')] = set of types of that colour's NON-SENSOR
    pieces standing on squares of that shade."""
    types = {(c, s): set() for c in (WHITE, BLACK) for s in ("light", "dark")}
    for r in range(SIZE):
        for f in range(SIZE):
            p = pos.board[r][f]
            if p != EMPTY and p.upper() in NON_SENSORS:
                types[(colour_of(p), shade(f, r))].add(piece_type(p))
    return types


def destinations(pos, f, r, mover, us):
    """Squares a piece of colour `us` on (f, r) can reach when it moves as `mover`.
    mover is 'K', 'N', 'R', 'B', or ('P', direction) with direction +1 or -1.
    Returns a list of (file, rank)."""
    result = []

    def free_or_enemy(tf, tr):
        t = pos.board[tr][tf]
        return t == EMPTY or colour_of(t) != us

    if mover == "K" or mover == "N":
        for df, dr in (KING_STEPS if mover == "K" else KNIGHT_JUMPS):
            tf, tr = f + df, r + dr
            if on_board(tf, tr) and free_or_enemy(tf, tr):
                result.append((tf, tr))
    elif mover == "R" or mover == "B":
        for df, dr in (ROOK_DIRS if mover == "R" else BISHOP_DIRS):
            tf, tr = f + df, r + dr
            while on_board(tf, tr):
                t = pos.board[tr][tf]
                if t == EMPTY:
                    result.append((tf, tr))
                else:
                    if colour_of(t) != us:
                        result.append((tf, tr))
                    break
                tf, tr = tf + df, tr + dr
    else:
        kind, d = mover
        assert kind == "P"
        # one step forward, only onto an empty square
        tf, tr = f, r + d
        if on_board(tf, tr) and pos.board[tr][tf] == EMPTY:
            result.append((tf, tr))
        # diagonal forward, only to capture
        for df in (-1, 1):
            tf, tr = f + df, r + d
            if on_board(tf, tr):
                t = pos.board[tr][tf]
                if t != EMPTY and colour_of(t) != us:
                    result.append((tf, tr))
    return result


def sensor_movers(pos, f, r, letter, us, types):
    """The set of movers ('K','R','N','B',('P',dir)) a sensor of kind `letter`
    (upper case) belonging to `us` on (f, r) has now."""
    them = other(us)
    s = shade(f, r)
    own_types = set()
    enemy_types = set()
    if letter in "FM":
        own_types |= types[(us, s)]
    if letter in "EM":
        enemy_types |= types[(them, s)]
    if letter in "UW":
        own_types |= pos.bins[(us, s)]
    if letter in "VW":
        enemy_types |= pos.bins[(them, s)]

    movers = set()
    for t in own_types:
        movers.add(("P", forward(us)) if t == "P" else t)
    for t in enemy_types:
        if t == "P":
            d = forward(them) if ENEMY_PAWN == "literal" else forward(us)
            movers.add(("P", d))
        else:
            movers.add(t)
    return movers


def generate_moves(pos):
    """All legal (= pseudo-legal) moves as tuples ((ff, fr), (tf, tr), promo)."""
    us = pos.side
    if not has_king(pos, us):
        return []
    types = board_types(pos)
    moves = []
    for r in range(SIZE):
        for f in range(SIZE):
            p = pos.board[r][f]
            if p == EMPTY or colour_of(p) != us:
                continue
            k = p.upper()
            if k in "KD":
                for to in destinations(pos, f, r, "K", us):
                    moves.append(((f, r), to, None))
            elif k in "RNB":
                for to in destinations(pos, f, r, k, us):
                    moves.append(((f, r), to, None))
            elif k == "P":
                for to in destinations(pos, f, r, ("P", forward(us)), us):
                    if to[1] == promotion_rank(us):
                        for promo in PROMOTIONS:
                            moves.append(((f, r), to, promo))
                    else:
                        moves.append(((f, r), to, None))
            else:   # sensor
                dests = set()
                for mover in sensor_movers(pos, f, r, k, us, types):
                    dests.update(destinations(pos, f, r, mover, us))
                for to in sorted(dests):
                    moves.append(((f, r), to, None))
    return moves


def make_move(pos, move):
    """Return a NEW position with `move` played (pos is not changed)."""
    (ff, fr), (tf, tr), promo = move
    new = pos.copy()
    us = pos.side
    piece = new.board[fr][ff]
    victim = new.board[tr][tf]
    new.board[fr][ff] = EMPTY
    if promo:
        piece_after = promo.upper() if us == WHITE else promo.lower()
    else:
        piece_after = piece
    new.board[tr][tf] = piece_after

    if victim != EMPTY:
        vc = colour_of(victim)
        vk = victim.upper()
        if vk in NON_SENSORS:
            new.bins[(vc, shade(tf, tr))].add(piece_type(victim))
        if vk in "KD":
            removed = "FEM" if vk == "K" else "UVW"
            for r in range(SIZE):
                for f in range(SIZE):
                    q = new.board[r][f]
                    if q != EMPTY and colour_of(q) == vc and q.upper() in removed:
                        new.board[r][f] = EMPTY

    if victim != EMPTY or piece.upper() == "P":
        new.halfmove = 0
    else:
        new.halfmove = pos.halfmove + 1
    if us == BLACK:
        new.fullmove = pos.fullmove + 1
    new.side = other(us)
    return new


# ---------------------------------------------------------------- perft & tools

def perft(pos, depth):
    if depth == 0:
        return 1
    moves = generate_moves(pos)
    if depth == 1:
        return len(moves)
    total = 0
    for m in moves:
        total += perft(make_move(pos, m), depth - 1)
    return total


def find_move(pos, text):
    for m in generate_moves(pos):
        if move_string(m) == text:
            return m
    raise SystemExit("move %s is not legal in %s" % (text, to_fen(pos)))


def main(argv):
    global ENEMY_PAWN
    ap = argparse.ArgumentParser(description="Remote Sensing reference perft")
    ap.add_argument("--enemy-pawn", choices=["literal", "own"], default="literal")
    ap.add_argument("--divide", action="store_true")
    ap.add_argument("--fen-after", metavar="MOVE")
    ap.add_argument("--random-walk", nargs=2, type=int, metavar=("SEED", "PLIES"))
    ap.add_argument("--time", action="store_true", help="print seconds per depth on stderr")
    ap.add_argument("fen")
    ap.add_argument("depth", type=int, nargs="?", default=1)
    args = ap.parse_args(argv)
    ENEMY_PAWN = args.enemy_pawn
    pos = parse_fen(args.fen)

    if args.fen_after:
        print(to_fen(make_move(pos, find_move(pos, args.fen_after))))
        return
    if args.random_walk:
        seed, plies = args.random_walk
        rng = random.Random(seed)
        played = []
        for _ in range(plies):
            moves = sorted(generate_moves(pos), key=move_string)
            if not moves:
                break
            m = rng.choice(moves)
            played.append(move_string(m))
            pos = make_move(pos, m)
        print("moves " + " ".join(played))
        print("plies %d" % len(played))
        print(to_fen(pos))
        return
    if args.divide:
        total = 0
        for m in sorted(generate_moves(pos), key=move_string):
            n = perft(make_move(pos, m), args.depth - 1)
            total += n
            print("%s %d" % (move_string(m), n))
        print("moves %d" % len(generate_moves(pos)))
        print("total %d" % total)
        return
    for d in range(1, args.depth + 1):
        t0 = time.time()
        n = perft(pos, d)
        print("depth %d nodes %d" % (d, n), flush=True)
        if args.time:
            print("depth %d took %.1fs" % (d, time.time() - t0), file=sys.stderr, flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
