#!/usr/bin/env python3
"""
Independent reference move generator / perft counter for Tensor Chess
(Richard Spurgeon), as specified for the Menagerie project.

Written from /work/shared/rules/tensor.md (the rulebook, with its (R)
resolutions) and /work/shared/protocol.md section 3 (move notation, MMN)
ALONE. It shares no code with the Rust engine and was written without
reading the engine's sources, tests or engine.ini. Its job is to produce
numbers that check the engine, so it aims at being plainly correct first and
reasonably fast second. Python 3 standard library only.

Board and pieces
  * 10 files a-j x 8 ranks 1-8; square index = rank * 10 + file (a1 = 0).
  * K Q R B N P as usual, T = Tensor beast; upper case White, lower case Black.
  * Start: rtnbqkbntr/pppppppppp/10/10/10/10/PPPPPPPPPP/RTNBQKBNTR w KQkq - 0 1

Readings (all of tensor.md with its (R) resolutions; where the file leaves a
detail open, the choice made here is listed):
  * Beast: one step onto an EMPTY square, or an orthogonal hop chain, or a
    diagonal hop chain (never mixed). A hop jumps any adjacent piece in the
    chain's mode and lands on the empty square behind it; direction may change,
    squares may be revisited; the beast's origin counts as empty during the
    chain. Jumping an enemy beast may capture it (optional); a capture ends the
    move. A non-capturing chain may not end on the origin; a capturing one may.
    Moves are identified by (from, dest) or (from, victim, dest).
  * B/R/Q slide through any number of OWN beasts; enemy beasts block and
    cannot be captured; no non-beast ever lands on a beast except as the pivot
    of a bounce or propel on an own beast.
  * Bounce: B (perpendicular diagonal), R (perpendicular line), Q (perpendicular
    line of the mode it arrived in), N (second knight leap, never back to its
    own start square). Once per move; the second leg follows slide rules
    (through own beasts, stops at pieces, may capture an enemy non-beast).
    Identity (from, to): a bounce equal to a direct move, or to another bounce,
    is one move.
  * Propel: N/B/R/Q moves onto an own beast (reached like a bounce pivot) and
    stays; the beast then slides like a B (4 diagonals), R (4 orthogonals),
    Q (8 directions; with queen_propel="mode" only the 4 of the mode the queen
    arrived by) blocked by EVERY piece, own beasts included, the propeller's
    vacated square counting as empty; N-propel: one knight leap to any empty
    square (the knight's vacated square included). The beast must move at
    least one square and land on an empty square. Identity (from, beast
    square, beast destination). A propel never captures.
  * Pawn: as FIDE; on its first move (start rank) also a double step over an
    own beast (pass-through) and a propel (pawn steps onto the own beast
    directly in front, the beast steps one square straight on to an empty
    square). Pawns never capture beasts and never pass enemy beasts.
    Promotion on the last rank to Q, R, B, N or T, compulsory.
  * En passant as in FIDE, but only after a double step over an EMPTY square
    (en_passant=False switches it off; then the FEN en-passant field is
    always "-").
  * Castling (section 4.3): K f1->h1 + R j1->g1, K f1->i1 + R j1->h1,
    K f1->c1 + R a1->d1, K f1->b1 + R a1->c1 (rank 8 for Black). Every square
    the king or the rook crosses (strictly between its origin and its
    destination) is empty or holds an own beast; the king's and the rook's
    destination squares are empty. The king is not in check; every square the
    king crosses is unattacked unless it holds an own beast; the king's
    destination is unattacked. (Attacks tested on the board before the move;
    the general legality test after the move is applied as well.)
    Castling rights: lost when anything moves from or to f1/a1/j1 (f8/a8/j8);
    a propel counts as a move from the propeller's origin, to the pivot, from
    the pivot and to the beast's destination.
  * Attacks (section 4.2): by every non-beast piece that could capture onto the
    square: pawns, kings, knights, knight bounces off the attacker's own
    beasts, slides (through the attacker's own beasts) and slider bounces off
    the attacker's own beasts. Beasts never attack; propels never attack.
    A move may not leave the mover's king attacked. A side without a king is
    never in check (only possible in hand-made FENs).
  * A side with no legal move has no moves: perft counts 0 below it.

FEN
  * Output en-passant square only when the last move was a double step over an
    empty square and a pawn of the side to move stands diagonally behind it
    (could capture onto it, pins ignored); otherwise "-".
  * Halfmove clock resets on every pawn move (incl. pawn propel and pawn
    pass-through) and every capture (incl. beast captures and e.p.).
  * Fullmove number increments after Black's move.

Move text (MMN, protocol.md section 3):
  ordinary / bounce / pass-through / double step: c1g5, promotion a7a8q / a7a8t;
  propel a1d4>g7 (a1b1>a1); beast move b1d3; beast capture c2xd4c4 (d4xc4d4);
  castling = king's from-to, f1i1.

Usage
  python3 tensor.py perft [--fen FEN] [--divide] [--queen-propel all|mode] [--no-ep] DEPTH
  python3 tensor.py moves [--fen FEN] [--queen-propel all|mode] [--no-ep]
Importable: parse_fen, to_fen, legal_moves, legal_move_texts, make_move,
perft, divide, set_options.
"""

import argparse
import sys

FILES = 10
RANKS = 8
NSQ = FILES * RANKS
START_FEN = "rtnbqkbntr/pppppppppp/10/10/10/10/PPPPPPPPPP/RTNBQKBNTR w KQkq - 0 1"

# Options (see module docstring). Change them with set_options().
QUEEN_PROPEL = "all"    # "all" or "mode"
EN_PASSANT = True


def set_options(queen_propel=None, en_passant=None):
    global QUEEN_PROPEL, EN_PASSANT
    if queen_propel is not None:
        if queen_propel not in ("all", "mode"):
            raise ValueError("queen_propel must be 'all' or 'mode'")
        QUEEN_PROPEL = queen_propel
    if en_passant is not None:
        EN_PASSANT = bool(en_passant)


# ---------------------------------------------------------------- geometry
FILE_CHARS = "abcdefghij"
NAMES = [FILE_CHARS[s % FILES] + str(s // FILES + 1) for s in range(NSQ)]
SQUARE = {n: i for i, n in enumerate(NAMES)}

# Directions 0-3 orthogonal (N E S W), 4-7 diagonal (NE SE SW NW).
DIRS = [(0, 1), (1, 0), (0, -1), (-1, 0), (1, 1), (1, -1), (-1, -1), (-1, 1)]
ORTHO = (0, 1, 2, 3)
DIAG = (4, 5, 6, 7)
ALL8 = tuple(range(8))
# Perpendicular directions within the same mode.
PERP = [((d + 1) % 4 + (d // 4) * 4, (d + 3) % 4 + (d // 4) * 4) for d in range(8)]
KNIGHT_VECTORS = [(1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2)]


def _on(f, r):
    return 0 <= f < FILES and 0 <= r < RANKS


RAYS = []     # RAYS[s][d] = squares along direction d from s (s excluded)
STEP = []     # STEP[s][d] = neighbour in direction d, or -1
KNIGHT = []   # KNIGHT[s] = knight targets
KING = []     # KING[s] = king targets
for _s in range(NSQ):
    _f, _r = _s % FILES, _s // FILES
    rays, steps = [], []
    for (_df, _dr) in DIRS:
        ray = []
        f, r = _f + _df, _r + _dr
        while _on(f, r):
            ray.append(r * FILES + f)
            f += _df
            r += _dr
        rays.append(tuple(ray))
        steps.append(ray[0] if ray else -1)
    RAYS.append(tuple(rays))
    STEP.append(tuple(steps))
    KNIGHT.append(tuple((_r + dr) * FILES + _f + df for df, dr in KNIGHT_VECTORS if _on(_f + df, _r + dr)))
    KING.append(tuple(t for t in steps if t >= 0))

# Castling geometry: right letter -> (rook origin, [(king dest, rook dest)], king origin)
CASTLE = {}
for _c, _rank in (("K", 0), ("Q", 0), ("k", 7), ("q", 7)):
    _b = _rank * FILES
    if _c in "Kk":
        CASTLE[_c] = (_b + 5, _b + 9, ((_b + 7, _b + 6), (_b + 8, _b + 7)))
    else:
        CASTLE[_c] = (_b + 5, _b + 0, ((_b + 2, _b + 3), (_b + 1, _b + 2)))
# Rights lost when something moves from or to these squares.
RIGHTS_OF_SQUARE = {5: "KQ", 0: "Q", 9: "K", 75: "kq", 70: "q", 79: "k"}


def _between(a, b):
    """Squares strictly between a and b on the same rank."""
    lo, hi = min(a, b), max(a, b)
    return list(range(lo + 1, hi))


# Per-colour piece letters.
class Side:
    def __init__(self, white):
        self.white = white
        up = (lambda c: c.upper()) if white else (lambda c: c.lower())
        dn = (lambda c: c.lower()) if white else (lambda c: c.upper())
        self.K, self.Q, self.R, self.B, self.N, self.P, self.T = (up(c) for c in "KQRBNPT")
        self.own = "".join(up(c) for c in "KQRBNPT")
        self.enemy_nb = "".join(dn(c) for c in "KQRBNP")   # capturable by non-beasts
        self.EB = dn("T")
        self.fwd = FILES if white else -FILES
        self.start_rank = 1 if white else RANKS - 2
        self.last_rank = RANKS - 1 if white else 0
        self.promos = [up(c) for c in "QRBNT"]


WHITE = Side(True)
BLACK = Side(False)


# ---------------------------------------------------------------- moves
class Move:
    """A move: its MMN text, the square assignments it makes (applied in order),
    the squares it moves from/to (castling bookkeeping), the e.p. square it
    creates (-1 if none), whether it resets the halfmove clock, and its kind
    (normal, capture, bounce, propel, beast, beastcapture, castle, promotion,
    enpassant, double, passthrough)."""
    __slots__ = ("text", "changes", "touched", "ep", "reset", "kind")

    def __init__(self, text, changes, touched, ep=-1, reset=False, kind="normal"):
        self.text = text
        self.changes = changes
        self.touched = touched
        self.ep = ep
        self.reset = reset
        self.kind = kind

    def __str__(self):
        return self.text

    def __repr__(self):
        return "Move(%s,%s)" % (self.text, self.kind)


def move_text(m):
    return m.text if isinstance(m, Move) else str(m)


# ---------------------------------------------------------------- attacks
def attacked(board, s, by):
    """Is square s attacked by side `by` (a Side)? Beasts never attack."""
    K, Q, R, B, N, P, T = by.K, by.Q, by.R, by.B, by.N, by.P, by.T
    # pawns: a pawn of `by` stands one rank behind s (from by's view), one file aside
    f = s % FILES
    ps = s - by.fwd
    if 0 <= ps < NSQ:
        if f > 0 and board[ps - 1] == P:
            return True
        if f < FILES - 1 and board[ps + 1] == P:
            return True
    for t in KING[s]:
        if board[t] == K:
            return True
    for t in KNIGHT[s]:
        c = board[t]
        if c == N:
            return True
        if c == T:                      # knight bounce off by's own beast on t
            for n in KNIGHT[t]:
                if n != s and board[n] == N:
                    return True
    for d in ALL8:
        straight = R if d < 4 else B
        for t in RAYS[s][d]:
            c = board[t]
            if c == ".":
                continue
            if c == T:
                # t may be a bounce pivot: the attacker arrived along a line
                # perpendicular to d (same mode), then slid from t to s.
                for e in PERP[d]:
                    for u in RAYS[t][e]:
                        x = board[u]
                        if x == "." or x == T:
                            continue
                        if x == Q or x == straight:
                            return True
                        break
                continue                # pass-through own beast
            if c == Q or c == straight:
                return True
            break
    return False


def king_square(board, side):
    try:
        return board.index(side.K)
    except ValueError:
        return -1


# ---------------------------------------------------------------- generation
def pseudo_moves(board, white, castling, ep):
    """All pseudo-legal moves (castling already checked for attacks), as a dict
    text -> Move, one entry per move identity."""
    me = WHITE if white else BLACK
    opp = BLACK if white else WHITE
    OB, EB = me.T, me.EB
    enemy_nb = me.enemy_nb
    out = {}

    def add(m):
        if m.text not in out:
            out[m.text] = m

    def plain(s, t, pc, kind):
        # s -> t by a non-pawn non-beast piece (direct or bounce)
        cap = board[t] != "."
        text = NAMES[s] + NAMES[t]
        if text in out:
            return
        k = kind if kind != "normal" or not cap else "capture"
        out[text] = Move(text, ((s, "."), (t, pc)), (s, t), -1, cap, k)

    def propel(s, t, u, pc):
        text = NAMES[s] + NAMES[t] + ">" + NAMES[u]
        if text not in out:
            out[text] = Move(text, ((s, "."), (t, pc), (u, OB)), (s, t, u), -1, pc == me.P, "propel")

    for s in range(NSQ):
        pc = board[s]
        if pc == "." or pc not in me.own:
            continue
        if pc == me.P:
            _gen_pawn(board, s, me, opp, ep, out, propel)
        elif pc == OB:
            _gen_beast(board, s, me, out)
        elif pc == me.N:
            pivots = []
            for t in KNIGHT[s]:
                c = board[t]
                if c == "." or c in enemy_nb:
                    plain(s, t, pc, "normal")
                elif c == OB:
                    pivots.append(t)
            for t in pivots:
                for u in KNIGHT[t]:
                    if u == s:
                        continue            # bounce may not return to its start
                    c = board[u]
                    if c == "." or c in enemy_nb:
                        plain(s, u, pc, "bounce")
                for u in KNIGHT[t]:
                    if u == s or board[u] == ".":
                        propel(s, t, u, pc)
        elif pc == me.K:
            for t in KING[s]:
                c = board[t]
                if c == "." or c in enemy_nb:
                    plain(s, t, pc, "normal")
            _gen_castling(board, s, me, opp, castling, out)
        else:   # B, R, Q
            dirs = DIAG if pc == me.B else ORTHO if pc == me.R else ALL8
            pivots = []
            for d in dirs:
                for t in RAYS[s][d]:
                    c = board[t]
                    if c == ".":
                        plain(s, t, pc, "normal")
                        continue
                    if c == OB:
                        pivots.append((t, d))
                        continue            # pass through own beast
                    if c in enemy_nb:
                        plain(s, t, pc, "normal")
                    break                   # own piece, enemy beast or capture
            for t, d in pivots:
                # bounce: perpendicular line of the same mode
                for e in PERP[d]:
                    for u in RAYS[t][e]:
                        c = board[u]
                        if c == ".":
                            plain(s, u, pc, "bounce")
                            continue
                        if c == OB:
                            continue
                        if c in enemy_nb:
                            plain(s, u, pc, "bounce")
                        break
                # propel: the beast slides from t, blocked by every piece; s is empty now
                if pc == me.B:
                    pdirs = DIAG
                elif pc == me.R:
                    pdirs = ORTHO
                elif QUEEN_PROPEL == "all":
                    pdirs = ALL8
                else:
                    pdirs = ORTHO if d < 4 else DIAG
                for e in pdirs:
                    for u in RAYS[t][e]:
                        if u == s or board[u] == ".":
                            propel(s, t, u, pc)
                            continue
                        break
    return out


def _gen_pawn(board, s, me, opp, ep, out, propel):
    P, OB = me.P, me.T
    fwd = me.fwd
    rank = s // FILES
    f = s % FILES

    def push(t, cap, kind, extra=()):
        base = NAMES[s] + NAMES[t]
        if t // FILES == me.last_rank:
            for q in me.promos:
                text = base + q.lower()
                out[text] = Move(text, ((s, "."), (t, q)) + extra, (s, t), -1, True, "promotion")
        else:
            out[base] = Move(base, ((s, "."), (t, P)) + extra, (s, t), -1, True, kind)

    t = s + fwd
    if 0 <= t < NSQ:
        c = board[t]
        if c == ".":
            push(t, False, "normal")
            if rank == me.start_rank:
                t2 = t + fwd
                if board[t2] == ".":
                    text = NAMES[s] + NAMES[t2]
                    out[text] = Move(text, ((s, "."), (t2, P)), (s, t2), t, True, "double")
        elif c == OB and rank == me.start_rank:
            t2 = t + fwd
            if board[t2] == ".":
                text = NAMES[s] + NAMES[t2]     # pass-through double step: no e.p.
                out[text] = Move(text, ((s, "."), (t2, P)), (s, t2), -1, True, "passthrough")
                propel(s, t, t2, P)             # pawn onto the beast, beast one step on
        for df in (-1, 1):
            if 0 <= f + df < FILES:
                u = t + df
                c = board[u]
                if c != "." and c in me.enemy_nb:
                    push(u, True, "capture")
                elif EN_PASSANT and u == ep and c == ".":
                    victim = s + df
                    if board[victim] == opp.P:
                        text = NAMES[s] + NAMES[u]
                        out[text] = Move(text, ((s, "."), (u, P), (victim, ".")), (s, u), -1, True,
                                         "enpassant")


def _gen_beast(board, s, me, out):
    OB, EB = me.T, me.EB
    for t in KING[s]:
        if board[t] == ".":
            text = NAMES[s] + NAMES[t]
            out[text] = Move(text, ((s, "."), (t, OB)), (s, t), -1, False, "beast")
    for mode in (ORTHO, DIAG):
        reached = {s}
        todo = [s]
        while todo:
            x = todo.pop()
            for d in mode:
                m = STEP[x][d]
                if m < 0 or m == s or board[m] == ".":
                    continue                    # nothing to hop over (origin counts empty)
                lnd = STEP[m][d]
                if lnd < 0 or (lnd != s and board[lnd] != "."):
                    continue
                if board[m] == EB:
                    text = NAMES[s] + "x" + NAMES[m] + NAMES[lnd]
                    if text not in out:
                        out[text] = Move(text, ((s, "."), (m, "."), (lnd, OB)), (s, lnd), -1, True,
                                         "beastcapture")
                if lnd not in reached:
                    reached.add(lnd)
                    todo.append(lnd)
        for t in reached:
            if t != s:
                text = NAMES[s] + NAMES[t]
                if text not in out:
                    out[text] = Move(text, ((s, "."), (t, OB)), (s, t), -1, False, "beast")


def _gen_castling(board, ks, me, opp, castling, out):
    for right in ((("K", "Q") if me.white else ("k", "q"))):
        if right not in castling:
            continue
        korig, rorig, options = CASTLE[right]
        if ks != korig or board[rorig] != me.R:
            continue
        if attacked(board, ks, opp):
            return                              # in check: no castling at all
        for kdest, rdest in options:
            kcross = _between(korig, kdest)
            rcross = _between(rorig, rdest)
            if board[kdest] != "." or board[rdest] != ".":
                continue
            if any(board[x] not in (".", me.T) for x in kcross + rcross):
                continue
            if any(board[x] == "." and attacked(board, x, opp) for x in kcross):
                continue
            if attacked(board, kdest, opp):
                continue
            text = NAMES[korig] + NAMES[kdest]
            out[text] = Move(text, ((korig, "."), (rorig, "."), (kdest, me.K), (rdest, me.R)),
                             (korig, rorig, kdest, rdest), -1, False, "castle")


def legal(board, white, castling, ep):
    """Legal moves (list of Move), in generation order."""
    me = WHITE if white else BLACK
    opp = BLACK if white else WHITE
    res = []
    K = me.K
    for m in pseudo_moves(board, white, castling, ep).values():
        undo = []
        for sq, pc in m.changes:
            undo.append((sq, board[sq]))
            board[sq] = pc
        try:
            ks = board.index(K)
        except ValueError:
            ks = -1
        ok = ks < 0 or not attacked(board, ks, opp)
        for sq, pc in reversed(undo):
            board[sq] = pc
        if ok:
            res.append(m)
    return res


def _new_castling(castling, m):
    for sq in m.touched:
        lost = RIGHTS_OF_SQUARE.get(sq)
        if lost:
            castling = "".join(c for c in castling if c not in lost)
    return castling


# ---------------------------------------------------------------- position
class Position:
    __slots__ = ("board", "white", "castling", "ep", "halfmove", "fullmove")

    def __init__(self, board, white, castling, ep, halfmove, fullmove):
        self.board = board
        self.white = white
        self.castling = castling
        self.ep = ep
        self.halfmove = halfmove
        self.fullmove = fullmove

    def copy(self):
        return Position(self.board[:], self.white, self.castling, self.ep, self.halfmove, self.fullmove)


def parse_fen(fen):
    """Parse a 10x8 FEN. Raises ValueError with a readable message."""
    if not isinstance(fen, str):
        raise ValueError("bad FEN: not a string")
    parts = fen.split()
    if len(parts) < 2 or len(parts) > 6:
        raise ValueError("bad FEN %r: expected 2 to 6 fields, got %d" % (fen, len(parts)))
    rows = parts[0].split("/")
    if len(rows) != RANKS:
        raise ValueError("bad FEN %r: expected %d ranks, got %d" % (fen, RANKS, len(rows)))
    board = ["."] * NSQ
    for i, row in enumerate(rows):
        r = RANKS - 1 - i
        f = 0
        j = 0
        while j < len(row):
            c = row[j]
            if c.isdigit():
                k = j
                while k < len(row) and row[k].isdigit():
                    k += 1
                n = int(row[j:k])
                if n == 0:
                    raise ValueError("bad FEN %r: empty-square count 0 in rank %d" % (fen, r + 1))
                f += n
                j = k
                continue
            if c not in "KQRBNPTkqrbnpt":
                raise ValueError("bad FEN %r: unknown piece letter %r" % (fen, c))
            if f >= FILES:
                raise ValueError("bad FEN %r: rank %d has more than %d files" % (fen, r + 1, FILES))
            if c in "Pp" and r in (0, RANKS - 1):
                raise ValueError("bad FEN %r: pawn on rank %d" % (fen, r + 1))
            board[r * FILES + f] = c
            f += 1
            j += 1
        if f != FILES:
            raise ValueError("bad FEN %r: rank %d has %d files, expected %d" % (fen, r + 1, f, FILES))
    for k in "Kk":
        if board.count(k) > 1:
            raise ValueError("bad FEN %r: more than one %s king" % (fen, "white" if k == "K" else "black"))
    side = parts[1]
    if side not in ("w", "b"):
        raise ValueError("bad FEN %r: side to move must be w or b, got %r" % (fen, side))
    castling = parts[2] if len(parts) > 2 else "-"
    if castling != "-":
        if not castling or any(c not in "KQkq" for c in castling) or len(set(castling)) != len(castling):
            raise ValueError("bad FEN %r: castling field %r is not a subset of KQkq or '-'" % (fen, castling))
    castling = "".join(c for c in "KQkq" if c in castling)
    epf = parts[3] if len(parts) > 3 else "-"
    if epf == "-":
        ep = -1
    else:
        if epf not in SQUARE:
            raise ValueError("bad FEN %r: en-passant field %r is not a square" % (fen, epf))
        ep = SQUARE[epf]
        if ep // FILES != (5 if side == "w" else 2):
            raise ValueError("bad FEN %r: en-passant square %s on the wrong rank" % (fen, epf))
    try:
        half = int(parts[4]) if len(parts) > 4 else 0
        full = int(parts[5]) if len(parts) > 5 else 1
    except ValueError:
        raise ValueError("bad FEN %r: move counters must be integers" % fen) from None
    if half < 0 or full < 1:
        raise ValueError("bad FEN %r: move counters out of range" % fen)
    return Position(board, side == "w", castling, ep, half, full)


def _ep_visible(pos):
    """The en-passant square to write, or -1 (see module docstring)."""
    if not EN_PASSANT or pos.ep < 0:
        return -1
    me = WHITE if pos.white else BLACK
    ep = pos.ep
    f = ep % FILES
    ps = ep - me.fwd       # the square the capturing pawn would move from is ps +- 1
    for df in (-1, 1):
        if 0 <= f + df < FILES and pos.board[ps + df] == me.P:
            return ep
    return -1


def to_fen(pos):
    rows = []
    for r in range(RANKS - 1, -1, -1):
        row, empty = "", 0
        for f in range(FILES):
            c = pos.board[r * FILES + f]
            if c == ".":
                empty += 1
            else:
                if empty:
                    row += str(empty)
                    empty = 0
                row += c
        if empty:
            row += str(empty)
        rows.append(row)
    ep = _ep_visible(pos)
    return "%s %s %s %s %d %d" % ("/".join(rows), "w" if pos.white else "b", pos.castling or "-",
                                  NAMES[ep] if ep >= 0 else "-", pos.halfmove, pos.fullmove)


def legal_moves(pos):
    """Legal moves of the position as Move objects (.text is the MMN token)."""
    return legal(pos.board[:], pos.white, pos.castling, pos.ep)


def legal_move_texts(pos):
    return sorted(m.text for m in legal_moves(pos))


def find_move(pos, text):
    for m in legal_moves(pos):
        if m.text == text:
            return m
    raise ValueError("illegal move %r in %s" % (text, to_fen(pos)))


def make_move(pos, move):
    """Return the position after `move` (a Move from legal_moves, or its MMN text)."""
    if not isinstance(move, Move):
        move = find_move(pos, move)
    new = pos.copy()
    for sq, pc in move.changes:
        new.board[sq] = pc
    new.castling = _new_castling(pos.castling, move)
    new.ep = move.ep
    new.halfmove = 0 if move.reset else pos.halfmove + 1
    if not pos.white:
        new.fullmove += 1
    new.white = not pos.white
    return new


def _perft(board, white, castling, ep, depth):
    moves = legal(board, white, castling, ep)
    if depth == 1:
        return len(moves)
    total = 0
    for m in moves:
        undo = []
        for sq, pc in m.changes:
            undo.append((sq, board[sq]))
            board[sq] = pc
        total += _perft(board, not white, _new_castling(castling, m), m.ep, depth - 1)
        for sq, pc in reversed(undo):
            board[sq] = pc
    return total


def perft(pos, depth):
    if depth <= 0:
        return 1
    return _perft(pos.board[:], pos.white, pos.castling, pos.ep, depth)


def divide(pos, depth):
    """dict MMN text -> perft(depth - 1) of the child, for depth >= 1."""
    return {m.text: perft(make_move(pos, m), depth - 1) for m in legal_moves(pos)}


# ---------------------------------------------------------------- CLI
def main(argv=None):
    ap = argparse.ArgumentParser(description="Tensor Chess reference move generator (from rules/tensor.md)")
    sub = ap.add_subparsers(dest="cmd", required=True)
    for name in ("perft", "moves"):
        p = sub.add_parser(name)
        p.add_argument("--fen", default=START_FEN)
        p.add_argument("--queen-propel", choices=["all", "mode"], default="all")
        p.add_argument("--no-ep", action="store_true", help="no en passant")
        if name == "perft":
            p.add_argument("--divide", action="store_true")
            p.add_argument("depth", type=int)
    a = ap.parse_args(argv)
    set_options(queen_propel=a.queen_propel, en_passant=not a.no_ep)
    try:
        pos = parse_fen(a.fen)
    except ValueError as e:
        print("error: %s" % e, file=sys.stderr)
        return 2
    if a.cmd == "moves":
        for t in legal_move_texts(pos):
            print(t)
        return 0
    if a.depth < 0:
        print("error: depth must be >= 0", file=sys.stderr)
        return 2
    if a.divide:
        if a.depth == 0:
            print("\nNodes searched: 1")
            return 0
        d = divide(pos, a.depth)
        for t in sorted(d):
            print("%s: %d" % (t, d[t]))
        print()
        print("Nodes searched: %d" % sum(d.values()))
    else:
        print(perft(pos, a.depth))
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except KeyboardInterrupt:
        sys.exit(130)
