#!/usr/bin/env python3
"""Plays `menagerie serve`'s page by clicks and drags in a real browser: Debian's Chromium driven
by chromedriver through PyPI selenium (no download at run time). It plays a legal chess game
against the engine to its end by drag and drop (then browses its move list in SAN, and reads its
PGN back with python-chess), a Tensor propel by dragging each step and a beast's hop capture by
clicks, the chess and Chess 911 boards at a phone's 390 px without sideways scrolling and a king
in check marked, Chess 911's
Rendezvous, Remote Sensing's bins, an RBC sense and move, two windows on one seat (the second
is told, then takes over), two people on one board (an invitation, a take-back asked and
accepted, a resignation, each confirmed), a round of every table game, and a playtest's
pictures. Screenshots go to the output folder.

The API (docs/serve.md) is read only to choose what to click and to check the result; every
move and action goes through the page.

usage: check.py BINARY [--out DIR] [--seed N]
"""

import argparse
import json
import os
import random
import re
import subprocess
import sys
import tempfile
import time
import urllib.request

from selenium import webdriver
from selenium.common.exceptions import StaleElementReferenceException, WebDriverException
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

CHROMIUM = "/usr/bin/chromium"
CHROMEDRIVER = "/usr/bin/chromedriver"


def fen_cells(fen):
    """A FEN's pieces: square -> letter (files a.., the top rank first)."""
    rows = fen.split()[0].split("/")
    out = {}
    for i, row in enumerate(rows):
        rank = len(rows) - i
        f = 0
        for run in re.findall(r"\d+|.", row):
            if run.isdigit():
                f += int(run)
            elif run.isalpha():
                out[f"{chr(97 + f)}{rank}"] = run
                f += 1
            elif run == "*":
                f += 1
    return out


class Check:
    def __init__(self, binary, out, seed):
        self.out = out
        self.rng = random.Random(seed)
        os.makedirs(out, exist_ok=True)
        self.server = subprocess.Popen([binary, "serve", "--port", "0"], stdout=subprocess.PIPE, text=True)
        line = self.server.stdout.readline().strip()
        prefix = "menagerie serve: open "
        if not line.startswith(prefix):
            raise SystemExit(f"unexpected first line from serve: {line!r}")
        self.url = line[len(prefix):].rstrip("/")
        opts = webdriver.ChromeOptions()
        opts.binary_location = CHROMIUM
        self.profile = tempfile.mkdtemp(prefix="menagerie-chromium-")
        for a in ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                  "--disable-background-networking", "--disable-component-update", "--disable-sync",
                  "--disable-dev-shm-usage", f"--user-data-dir={self.profile}", "--window-size=1280,900"]:
            opts.add_argument(a)
        self.downloads = os.path.abspath(os.path.join(out, "downloads"))
        os.makedirs(self.downloads, exist_ok=True)
        opts.add_experimental_option("prefs", {"download.default_directory": self.downloads,
                                               "download.prompt_for_download": False})
        self.d = webdriver.Chrome(service=Service(CHROMEDRIVER), options=opts)
        self.d.set_window_size(1280, 900)

    def close(self):
        try:
            self.d.quit()
        finally:
            self.server.kill()

    # -- helpers -------------------------------------------------------------------------

    def api(self, path):
        with urllib.request.urlopen(self.url + path, timeout=30) as r:
            return json.loads(r.read().decode())

    def wait(self, what, cond, timeout=60.0):
        end = time.time() + timeout
        while True:
            try:
                v = cond()
                if v:
                    return v
            except (StaleElementReferenceException, WebDriverException, IndexError):  # not drawn yet
                pass
            if time.time() > end:
                self.shot("timeout-" + what.replace(" ", "-"))
                raise AssertionError(f"timed out waiting for {what}")
            time.sleep(0.05)

    def shot(self, name):
        path = os.path.join(self.out, name + ".png")
        self.d.save_screenshot(path)
        return path

    def find(self, css):
        return self.d.find_elements(By.CSS_SELECTOR, css)

    def click(self, css):
        """Clicks the first element matching css, found again if the page redrew it."""
        def attempt():
            found = self.find(css)
            if not found:
                return False  # not drawn yet (a page redrawn after a hash change)
            el = found[0]
            self.d.execute_script("arguments[0].scrollIntoView({block: 'center'});", el)
            el.click()
            return True
        self.wait("click " + css, attempt)

    def square(self, sq):
        self.click(f'#board [data-square="{sq}"]')

    def lobby(self):
        self.d.get(self.url + "/#/")
        self.wait("lobby", lambda: self.find("#new-board") and self.find("#new-variant option"))

    def set_value(self, css, value):
        el = self.wait(css, lambda: self.find(css))[0]
        if el.tag_name == "select":
            Select(el).select_by_value(value)
        else:
            el.clear()
            el.send_keys(str(value))

    def new_board(self, variant, white, black, engine_ms=50, fen="", level=""):
        self.lobby()
        self.set_value("#new-variant", variant)
        if fen:
            self.set_value("#new-fen", fen)
        self.set_value("#new-white", white)
        self.set_value("#new-black", black)
        self.set_value("#new-engine-ms", engine_ms)
        if level:
            self.wait("levels", lambda: self.find(f'#new-engine-level option[value="{level}"]'))
            self.set_value("#new-engine-level", level)
        self.click("#new-board")
        self.wait("board page", lambda: "#/board/" in self.d.current_url and self.find("#board [data-square]"))
        return self.d.current_url.split("#/board/")[1]

    def drag(self, a, b):
        """Drags the piece on square a to square b with the mouse (pointer events): pressed,
        moved a little (the drag starts and the board is redrawn with the targets), then on."""
        def centre(sq):
            r = self.d.execute_script(
                "const e = document.querySelector(arguments[0]); e.scrollIntoView({block: 'nearest'});"
                "const r = e.getBoundingClientRect(); return [r.left + r.width / 2, r.top + r.height / 2];",
                f'#board [data-square="{sq}"]')
            return r
        def attempt():
            # The page redraws the board when the game changes: a square found just before
            # may be stale when the actions run (they then do nothing), so look again.
            self.wait("square " + a, lambda: self.find(f'#board [data-square="{a}"]'))
            (ax, ay), (bx, by) = centre(a), centre(b)
            src = self.find(f'#board [data-square="{a}"]')[0]
            chain = ActionChains(self.d, duration=20).move_to_element(src).click_and_hold()
            chain.move_by_offset(8, 0).move_by_offset(int(round(bx - ax)) - 8, int(round(by - ay))).release()
            chain.perform()
            return True
        self.wait("the drag " + a + b, attempt)

    def play_drags(self, move):
        """Drags a move's pieces step by step (MMN: each square to the next), then clicks its
        promotion in the chooser."""
        squares = re.findall(r"[>x]?([a-p][0-9]+)", move)
        for a, b in zip(squares, squares[1:]):
            self.drag(a, b)
        tail = re.sub(r"^.*[0-9]", "", move)
        if tail:
            self.click(f'[data-promo="{tail}"]')

    def board_cells(self):
        """The board's pieces as drawn: square -> letter."""
        return self.d.execute_script(
            "const out = {}; for (const p of document.querySelectorAll('#board [data-square] .piece'))"
            " out[p.closest('[data-square]').dataset.square] = p.dataset.piece; return out;")

    def no_sideways_scroll(self):
        return self.d.execute_script(
            "return document.documentElement.scrollWidth <= window.innerWidth + 1"
            " && document.querySelector('#board').getBoundingClientRect().right <= window.innerWidth + 1;")

    def play_clicks(self, move):
        """Clicks a move's squares in order (MMN), then its promotion in the chooser."""
        for sq in re.findall(r"[>x]?([a-p][0-9]+)", move):
            self.square(sq)
        tail = re.sub(r"^.*[0-9]", "", move)
        if tail:
            self.click(f'[data-promo="{tail}"]')

    # -- scenarios -----------------------------------------------------------------------

    def chess_game(self):
        # The engine plays at a strength level chosen in the lobby, and the board says so.
        bid = self.new_board("chess", "person", "engine", level="1200")
        self.wait("your turn in the title", lambda: self.d.title.startswith("\u25cf Your turn"))
        assert self.api(f"/api/boards/{bid}")["engine_level"] == 1200
        self.wait("the level shown", lambda: "level 1200" in self.find("#players")[0].text)
        plies = 0
        while True:
            b = self.api(f"/api/boards/{bid}")
            if b["result"]:
                break
            if b["side"] != "white" or b["thinking"]:
                time.sleep(0.05)
                continue
            assert plies < 400, "no end after 400 plies"
            n = len(b["moves"])
            move = self.rng.choice(b["legal"])
            self.play_drags(move)
            self.wait("the move " + move, lambda: len(self.api(f"/api/boards/{bid}")["moves"]) > n)
            got = self.api(f"/api/boards/{bid}")["moves"][n]
            assert got == move, f"dragged {move}, the game has {got}"
            plies += 2
        text = self.wait("the result shown", lambda: self.find("#result") and self.find("#result")[0].text.strip())
        print(f"chess against the engine: {b['result']['result']} {b['result']['reason']} "
              f"after {len(b['moves'])} plies; the page says: {text!r}")
        self.shot("chess-game-end")
        assert int(self.d.execute_script("return document.body.dataset.sounds || 0")) > 0, "no move sound"
        # The move list in SAN; a click on the first move shows the position after it, the
        # arrow keys step on and back, End returns to the game.
        history = b["history"]
        shown = self.wait("the move list", lambda: [e.text for e in self.find("#moves .mv")])
        assert shown == [h["move"] for h in history], (shown[:6], history[:3])
        self.click('#moves .mv[data-ply="1"]')
        self.wait("the browsed position", lambda: self.find("#board.browsing") and self.find("#browse-now"))
        self.wait("the position after move 1", lambda: self.board_cells() == fen_cells(history[0]["fen"]))
        ActionChains(self.d).send_keys("\ue014").perform()  # the right arrow
        self.wait("a move on", lambda: "Move 2 of" in self.find("#browsing")[0].text)
        self.wait("the position after move 2", lambda: self.board_cells() == fen_cells(history[1]["fen"]))
        ActionChains(self.d).send_keys("\ue012").perform()  # the left arrow
        self.wait("a move back", lambda: "Move 1 of" in self.find("#browsing")[0].text)
        self.click("#browse-last")
        self.wait("the game again", lambda: not self.find("#board.browsing"))
        print(f"move list: {len(history)} moves in SAN ({' '.join(h['move'] for h in history[:6])} ...), browsed")
        # Save PGN: a file with the game's result and its moves in SAN.
        for old in os.listdir(self.downloads):
            os.remove(os.path.join(self.downloads, old))
        self.click("#save-pgn")
        self.wait("the PGN download", lambda: [f for f in os.listdir(self.downloads) if f.endswith(".pgn")])
        name = os.path.join(self.downloads, next(f for f in os.listdir(self.downloads) if f.endswith(".pgn")))
        self.wait("the PGN written", lambda: os.path.getsize(name) > 0)
        with open(name) as f:
            pgn = f.read()
        assert f'[Result "{b["result"]["result"]}"]' in pgn and "\n1. " in pgn, pgn[:400]
        # python-chess reads the file to the game's last position.
        import io
        import chess.pgn
        game = chess.pgn.read_game(io.StringIO(pgn))
        end = game.end().board()
        ours = b["fen"].split()
        theirs = end.fen().split()
        assert theirs[:3] == ours[:3], (theirs, ours)
        assert len(list(game.mainline_moves())) == len(b["moves"])
        print(f"Save PGN: {name}, {len(pgn)} bytes; python-chess reads it to {end.fen()}")
        # New game from PGN: the position after its moves, White (the person) to move.
        self.set_value("#pgn-input", "1. e4 {typed} e5 2. Nf3 *")
        self.click("#pgn-send")
        self.wait("the PGN's moves", lambda: self.api(f"/api/boards/{bid}")["moves"][:3] == ["e2e4", "e7e5", "g1f3"])
        print("New game from PGN: 1. e4 e5 2. Nf3 on the board")

    def invitation(self):
        """Two people on one board: the creator plays White and sees Black's invitation; the
        invitation opens Black's side once; a take-back asked by Black and accepted by White,
        each confirmed in the browser's dialog; a resignation confirmed; the plain link only
        watches."""
        bid = self.new_board("chess", "person", "person")
        board_id, white_token = bid.split("/")
        invite = self.wait("the invitation", lambda: self.find("#invitations a.invite-link"))[0].get_attribute("href")
        self.play_clicks("e2e4")
        self.wait("e2e4", lambda: self.api(f"/api/boards/{bid}")["moves"] == ["e2e4"])
        self.d.get(invite)
        self.wait("Black's page", lambda: "#/board/" in self.d.current_url and self.find("#you")
                  and "black" in self.find("#you")[0].text)
        black = self.d.current_url.split("#/board/")[1]
        assert black.split("/")[1] != white_token
        self.play_clicks("e7e5")
        self.wait("e7e5", lambda: self.api(f"/api/boards/{bid}")["moves"] == ["e2e4", "e7e5"])
        # The invitation is spent.
        self.d.get(invite)
        self.wait("the spent invitation", lambda: self.find("#error") and "used" in self.find("#error")[0].text)
        # Black asks to take back (confirmed), White accepts (confirmed).
        self.d.get(self.url + "/#/board/" + black)
        self.wait("Black's board", lambda: self.find("#undo"))
        self.click("#undo")
        self.d.switch_to.alert.accept()
        self.wait("the request", lambda: self.api(f"/api/boards/{bid}")["takeback"] == "black")
        self.d.get(self.url + "/#/board/" + bid)
        self.click("#accept-takeback")
        self.d.switch_to.alert.accept()
        self.wait("the take-back", lambda: self.api(f"/api/boards/{bid}")["moves"] == ["e2e4"])
        # A resignation dismissed does nothing; confirmed, it ends the game.
        self.click("#resign")
        self.d.switch_to.alert.dismiss()
        time.sleep(0.3)
        assert self.api(f"/api/boards/{bid}")["result"] is None
        self.click("#resign")
        self.d.switch_to.alert.accept()
        self.wait("the resignation", lambda: self.api(f"/api/boards/{bid}")["result"])
        # The plain link watches: no move input, no buttons of a player.
        self.d.get(self.url + "/#/board/" + board_id)
        self.wait("the spectator's page", lambda: self.find("#you") and "watching" in self.find("#you")[0].text)
        assert not self.find("#undo")[0].is_displayed()
        self.shot("board-spectator")
        print("invitation: Black joined by its link once; take-back asked and accepted; resigned; spectator watches")

    def tensor_propel(self):
        bid = self.new_board("tensor", "person", "person")
        # The rook on a1 propels the beast on b1 back to a1 (protocol.md section 3): the rook
        # dragged onto the beast, then the beast dragged on.
        self.play_drags("a1b1>a1")
        self.wait("the propel", lambda: self.api(f"/api/boards/{bid}")["moves"] == ["a1b1>a1"])
        fen = self.api(f"/api/boards/{bid}")["fen"]
        assert fen.split()[0].endswith("/TRNBQKBNTR"), fen
        self.wait("the move list", lambda: self.find('#moves [data-move="a1b1>a1"]'))
        self.shot("tensor-propel")
        print("tensor: propel a1b1>a1 by two drags:", fen)

    def fairy_pieces(self):
        """The fairy pieces are drawn (our SVG set), each named on hover."""
        seen = []
        for variant, letters in [("capablanca", "AC"), ("chess911", "SF"), ("tensor", "T"),
                                 ("remotesensing", "D")]:
            self.new_board(variant, "person", "person")
            for ch in letters + letters.lower():
                css = f'#board [data-piece="{ch}"]'
                piece = self.wait(f"{variant}: {ch} drawn", lambda: self.find(css + " svg") and self.find(css))[0]
                title = piece.get_attribute("title")
                assert title.startswith("white " if ch.isupper() else "black "), title
                seen.append(title)
            self.shot(f"pieces-{variant}")
        fen = "rnbfkebnr/2umdwv2/ppppppppp/9/9/9/PPPPPPPPP/2UMDWV2/RNBFKEBNR[-/-/-/-] w - - 0 1"
        self.new_board("remotesensing", "person", "person", fen=fen)
        for ch in "FEMUVW":
            self.wait(f"sensor {ch} drawn", lambda: self.find(f'#board [data-piece="{ch}"] svg'))
        self.shot("pieces-remotesensing-sensors")
        print("fairy pieces drawn:", ", ".join(sorted(set(t.split()[1] for t in seen))), "and six sensors")

    def narrow(self):
        """At a phone's width (390 px) the chess and Chess 911 boards fit without sideways
        scrolling; a king in check is marked."""
        self.d.set_window_size(390, 844)
        try:
            width = self.d.execute_script("return window.innerWidth")
            for variant, fen, king in [("chess", "4k3/8/8/8/8/8/4r3/4K3 w - - 0 1", "e1"),
                                       ("chess911", "", None)]:
                self.new_board(variant, "person", "person", fen=fen)
                self.wait(f"{variant} fits {width} px", lambda: self.no_sideways_scroll())
                if king:
                    self.wait("the king in check marked", lambda: self.find(f'#board [data-square="{king}"].check'))
                self.shot(f"narrow-{variant}")
            print(f"narrow: chess and chess911 boards fit a {width} px window; the checked king is marked")
        finally:
            self.d.set_window_size(1280, 900)

    def rendezvous(self):
        bid = self.new_board("chess911", "person", "person")
        self.square("g2")
        self.square("h2")
        self.wait("the Rendezvous", lambda: self.api(f"/api/boards/{bid}")["moves"] == ["g2h2"])
        fen = self.api(f"/api/boards/{bid}")["fen"]
        assert "RNBQKBSNR" in fen.split()[0].split("/")[-2], fen
        self.shot("chess911-rendezvous")
        print("chess 911: Rendezvous g2h2 by two clicks:", fen.split()[0])

    def tensor_hop(self):
        # The white beast on c2 hops over the black beast on d3 to e4 and captures it.
        bid = self.new_board("tensor", "person", "person", fen="4k5/10/10/10/10/3t6/2T7/4K5 w - - 0 1")
        for sq in ["c2", "d3", "e4"]:
            self.square(sq)
        self.wait("the hop capture", lambda: self.api(f"/api/boards/{bid}")["moves"] == ["c2xd3e4"])
        fen = self.api(f"/api/boards/{bid}")["fen"]
        assert fen.startswith("4k5/10/10/10/4T5/10/10/4K5 b"), fen
        self.shot("tensor-hop-capture")
        print("tensor: beast hop capture c2xd3e4 by three clicks:", fen)

    def bins(self):
        fen = "rnbfkebnr/2umdwv2/ppppppppp/9/9/9/PPPPPPPPP/2UMDWV2/RNBFKEBNR[N/R/-/p] w - - 0 1"
        self.new_board("remotesensing", "person", "person", fen=fen)
        self.wait("White's light bin", lambda: self.find('#bins [data-bin="0"] [data-piece="N"]'))
        self.wait("Black's dark bin", lambda: self.find('#bins [data-bin="3"] [data-piece="p"]'))
        assert self.find('#board [data-square="e1"] [data-piece="K"]'), "the king on e1"
        self.shot("remotesensing-bins")
        print("remote sensing: 9x9 board with its four holding bins drawn")

    def two_windows(self):
        tid, token = self.new_table("rbc")
        link = self.d.current_url
        self.wait("the sense question", lambda: self.find("#ask"))
        self.square("d7")
        self.wait("the sense taken", lambda: self.seat_view(tid, token)["fields"][3]["text"] == "move")
        first = self.d.current_window_handle
        self.d.switch_to.new_window("tab")
        self.d.get(link)
        self.wait("the second window's board", lambda: self.find("#ask"))
        self.square("e2")
        self.square("e4")
        self.wait("the other window's message", lambda: "another window" in self.find("#error")[0].text)
        assert self.seat_view(tid, token)["fields"][6]["text"] == "-", "the refused move was played"
        self.shot("two-windows-refused")
        self.click("#claim")
        self.wait("taken over", lambda: not self.find("#claim"))
        self.square("e2")
        self.square("e4")
        self.wait("the move after the take-over",
                  lambda: self.seat_view(tid, token)["fields"][6]["text"] == "e2e4>e2e4")
        self.d.close()
        self.d.switch_to.window(first)
        print("two windows on one seat: the second is told, takes over, then plays")

    def new_table(self, game, persons=(0,), seed=1):
        self.lobby()
        self.set_value("#table-game", game)
        self.set_value("#table-seed", seed)
        self.wait("seat selects", lambda: self.find('[data-seat-select="0"]'))
        info = self.api(f"/api/table-info?game={game}")
        self.wait("seat selects", lambda: len(self.find("[data-seat-select]")) == info["seats"])
        for i in range(info["seats"]):
            self.set_value(f'[data-seat-select="{i}"]', "person" if i in persons else "engine")
        self.click("#new-table")
        link = self.wait("seat link", lambda: self.find('a.seat-link[data-seat="0"]'))[0]
        href = link.get_attribute("href")
        self.d.get(href)
        self.wait("table page", lambda: self.find("#board [data-square]") or self.find("#actions"))
        tid, token = href.split("#/table/")[1].split("/")
        return tid, token

    def seat_view(self, tid, token):
        return self.api(f"/api/tables/{tid}/seat/{token}")

    def rbc(self):
        tid, token = self.new_table("rbc")
        self.wait("the sense question", lambda: self.find("#ask"), timeout=60)
        # The pointer over e7 previews the window about to be sensed.
        ActionChains(self.d).move_to_element(self.find('#board [data-square="e7"]')[0]).perform()
        self.wait("the window previewed", lambda: len(self.find("#board .sq.preview")) == 9)
        assert self.find('#board [data-square="d8"].preview') and self.find('#board [data-square="f6"].preview')
        self.shot("rbc-sense-preview")
        self.square("e7")
        self.wait("the sense result", lambda: self.seat_view(tid, token)["fields"][3]["text"] == "move")
        self.wait("the sensed pawn drawn", lambda: self.find('#board [data-square="e7"] [data-piece="p"]'))
        # The window is outlined, the unseen empty squares are in fog, own pieces are not.
        self.wait("the window seen", lambda: len(self.find("#board .sq.seen")) == 9)
        assert self.find('#board [data-square="e4"].fog') and not self.find('#board [data-square="e2"].fog')
        assert not self.find('#board [data-square="e6"].fog'), "e6 was seen"
        self.shot("rbc-sense")
        self.square("e2")
        self.square("e4")
        self.wait("the move's result", lambda: self.seat_view(tid, token)["fields"][6]["text"] == "e2e4>e2e4")
        self.wait("the engine's turn done", lambda: len(self.seat_view(tid, token)["events"]) >= 4, timeout=120)
        # What the sense showed stays on the board, faded, until the next sense.
        self.wait("the sensed pawn kept", lambda: self.find('#board [data-square="e7"].stale [data-piece="p"]'))
        self.shot("rbc-move")
        # A window over the seat's own pieces: the pawn that then moves is not left behind.
        self.wait("the second sense question", lambda: self.seat_view(tid, token)["ask"])
        self.square("d2")
        self.wait("the second sense", lambda: self.seat_view(tid, token)["fields"][3]["text"] == "move")
        self.square("d2")
        self.square("d4")
        self.wait("the second move", lambda: self.seat_view(tid, token)["fields"][6]["text"].startswith("d2d4>"))
        self.wait("d4 drawn", lambda: self.find('#board [data-square="d4"] [data-piece="P"]'))
        assert not self.find('#board [data-square="d2"] .piece'), "the moved pawn left a ghost on d2"
        print("rbc: sensed e7 and moved e2e4 by clicks; events:", self.seat_view(tid, token)["events"])

    def card_and_add(self):
        """Telepathy's card played by clicking the card in the hand; Gravity's add by clicking a
        square of the top rank."""
        tid, token = self.new_table("telepathy", seed=5)
        v = self.wait("telepathy: seat 0 asked", lambda: (lambda v: v if v["ask"] else None)(self.seat_view(tid, token)),
                      timeout=120)
        n = len(v["events"])
        chip = self.wait("a playable card", lambda: self.find(".cards-field .chip.playable"))[0]
        action = chip.get_attribute("data-action")
        assert action in v["ask"]["actions"], (action, v["ask"])
        self.click(".cards-field .chip.playable")
        self.wait("the card played", lambda: len(self.seat_view(tid, token)["events"]) > n)
        self.shot("telepathy-card-clicked")
        tid, token = self.new_table("gravity", seed=5)
        v = self.wait("gravity: seat 0 asked", lambda: (lambda v: v if v["ask"] else None)(self.seat_view(tid, token)),
                      timeout=120)
        adds = [a for a in v["ask"]["actions"] if a.startswith("add ")]
        assert adds, v["ask"]
        n = len(v["events"])
        square = adds[0].split()[-1]
        self.square(square)
        self.wait("the add", lambda: len(self.seat_view(tid, token)["events"]) > n)
        self.shot("gravity-add-clicked")
        print(f"telepathy: {action} by clicking its card; gravity: {adds[0]} by clicking {square}")

    def tabletop(self):
        """The table drawn as a table: Cloak's checker numbers on the pieces and its assignment
        chosen by arranging pieces, Split-Brain's mark as a ring placed by clicking a square,
        Telepathy's marker on its track."""
        tid, token = self.new_table("cloak", seed=3)
        v = self.wait("cloak: seat 0 asked", lambda: (lambda v: v if v["ask"] else None)(self.seat_view(tid, token)),
                      timeout=120)
        legal = {a.split()[1] for a in v["ask"]["actions"]}
        self.wait("the arranger", lambda: self.find("#arranger:not([hidden]) .arrange-piece"))
        badges = self.wait("checker numbers on the pieces", lambda: self.find("#board .sq .badge"))
        assert len(badges) == 16, f"{len(badges)} checker badges"
        assert self.find('#board [data-square="c1"] .badge[data-badge="3"]'), "c1 carries checker 3"
        word = lambda: "".join(b.get_attribute("data-letter") for b in self.find("#arranger .arrange-piece"))
        start = word()
        assert start in legal, (start, sorted(legal)[:5])
        # Swapping a and h, then b and g: the row follows, and the button says whether it is allowed.
        for i, j in ((0, 7), (1, 6)):
            before = word()
            self.click(f'#arranger [data-slot="{i}"]')
            self.click(f'#arranger [data-slot="{j}"]')
            w = list(before)
            w[i], w[j] = w[j], w[i]
            self.wait("the swap drawn", lambda: word() == "".join(w))
            button = self.find("#arrange-play")[0]
            assert (button.get_attribute("disabled") is None) == (word() in legal), (word(), button.get_attribute("disabled"))
        chosen = word()
        if chosen not in legal:  # swap back to the start
            self.click('#arranger [data-slot="1"]')
            self.click('#arranger [data-slot="6"]')
            self.click('#arranger [data-slot="0"]')
            self.click('#arranger [data-slot="7"]')
            self.wait("the start again", lambda: word() == start)
            chosen = start
        self.shot("cloak-arrange")
        self.click("#arrange-play")
        self.wait("the assignment", lambda: fen_cells(self.seat_view(tid, token)["fields"][0]["text"])["a1"] == chosen[0])
        cells = fen_cells(self.seat_view(tid, token)["fields"][0]["text"])
        assert "".join(cells[f + "1"] for f in "abcdefgh") == chosen, (cells, chosen)
        self.wait("the arranger gone", lambda: not self.find("#arranger:not([hidden])"))
        print(f"cloak: assigned {chosen} by arranging (start {start}); 16 checker numbers drawn")

        tid, token = self.new_table("splitbrain", persons=(0, 1, 2, 3), seed="")
        self.wait("split-brain: seat 0 asked", lambda: self.seat_view(tid, token)["ask"], timeout=60)
        self.wait("no ring yet", lambda: self.find('.rings-field [data-mark="piece"]')[0].text == "not yet")
        self.square("b2")
        self.wait("the piece mark as a ring", lambda: self.find('#board [data-square="b2"] .ring.ring-0'))
        assert self.find('.rings-field [data-mark="piece"]')[0].text == "b2"
        assert len(self.find("#board .ring")) == 1
        self.shot("splitbrain-ring")
        print("splitbrain: the piece mark on b2 drawn as a ring")

        tid, token = self.new_table("telepathy", seed=5)
        self.wait("the marker track", lambda: len(self.find(".track-field .track-place")) == 3)
        here = self.find(".track-place.here")
        assert len(here) == 1 and here[0].get_attribute("data-place") == "0", "the marker starts in the middle"
        assert self.find("#table-things .cards-field"), "the cards lie on the table beside the board"
        self.shot("telepathy-track")
        print("telepathy: the marker drawn on its track at 0")

        # Only the seat's own hand plays a card: not the discard, the line or the other hand.
        tid, token = self.new_table("coop2", seed=2)
        v = self.wait("coop2: seat 0 asked to play", lambda: (lambda v: v if v["ask"] and v["ask"]["kind"] == "play" else None)(
            self.seat_view(tid, token)), timeout=120)
        self.wait("playable cards", lambda: self.find(".cards-field .chip.playable"))
        where = self.d.execute_script("""return [...document.querySelectorAll('.cards-field .chip.playable')].map((c) =>
            c.closest('.cards-field').querySelector('.field-label').textContent + '/' +
            (c.closest('.card-group').querySelector('.group-label') || {}).textContent);""")
        assert where and all(w == "hands/white" for w in where), where
        print("coop2: playable cards only in white's hand:", where)

        # The solitaires' moves by clicking the piece, then its square (Neighbour's place by
        # clicking the square).
        for game in ("parade", "neighbour"):
            tid, token = self.new_table(game, seed=4)
            clicked = []
            for _ in range(40):
                v = self.wait(f"{game}: asked", lambda: (lambda v: v if v["ask"] or v["outcome"] else None)(
                    self.seat_view(tid, token)), timeout=60)
                if v["outcome"] or len(clicked) >= 3:
                    break
                acts = v["ask"]["actions"]
                n = len(v["events"])
                self.wait("the page asks", lambda: self.find("#ask"))
                squares = [re.findall(r"[a-h][1-8]", a) for a in acts]
                pick = next((a for a, sq in zip(acts, squares) if sq), None)
                if pick:  # a move (its piece, then its square) or a place (its square)
                    for sq in re.findall(r"[a-h][1-8]", pick):
                        self.square(sq)
                    clicked.append(pick)
                else:
                    pick = acts[0]
                    self.click(f'#actions [data-action="{pick}"]')
                self.wait(f"{game}: {pick} taken", lambda: len(self.seat_view(tid, token)["events"]) > n
                          or self.seat_view(tid, token)["outcome"])
            assert len(clicked) >= 2, f"{game}: {clicked}"
            print(f"{game}: {clicked} by clicking squares")

    def table_round(self, game):
        tid, token = self.new_table(game, seed=self.rng.randrange(1000))
        acts = 0
        solitaire = self.seat_view(tid, token)["seats"] == 1
        while acts < (6 if solitaire else 3):
            v = self.wait(f"{game}: seat 0 asked", lambda: (lambda v: v if v["ask"] or v["outcome"] else None)(
                self.seat_view(tid, token)), timeout=180)
            if v["outcome"]:
                break
            self.wait(f"{game}: the page shows the question", lambda: self.find("#ask"))
            n = len(v["events"])
            if solitaire:
                self.click("#hint")
                label = self.wait(f"{game}: a hint",
                                  lambda: [e.get_attribute("data-hint-action") for e in self.find("#hint-play")])[0]
                self.click("#hint-play")
            else:
                labels = self.wait(f"{game}: action buttons",
                                   lambda: [b.get_attribute("data-action") for b in self.find("#actions [data-action]")])
                label = self.rng.choice(labels)
                self.click(f'#actions [data-action="{label}"]')
            self.wait(f"{game}: the action {label} taken",
                      lambda: len(self.seat_view(tid, token)["events"]) > n or self.seat_view(tid, token)["outcome"])
            acts += 1
        v = self.seat_view(tid, token)
        others = [p for p in v["players"][1:]]
        self.d.set_window_size(1280, 1250)  # the whole table in the picture
        self.shot(f"table-{game}")
        self.d.set_window_size(1280, 900)
        print(f"{game}: seat 0 acted {acts} times by clicks; {len(v['events'])} events; "
              f"other seats {others}; outcome {v['outcome'] and v['outcome']['result']}")
        assert acts > 0, f"{game}: seat 0 never acted"

    def playtest(self):
        self.lobby()
        # The table form's settings: a select per setting, written into the settings text.
        self.set_value("#table-game", "telepathy")
        limit = self.wait("telepathy's settings", lambda: self.find("#table-settings-limit"))[0]
        assert Select(limit).first_selected_option.get_attribute("value") == "600", "limit's default"
        self.set_value("#table-settings-limit", "200")
        text = self.find("#table-settings")[0].get_attribute("value")
        assert text == "limit=200", f"the settings text says {text!r}"
        self.set_value("#pt-game", "parade")
        self.wait("parade's settings", lambda: self.find("#pt-settings-open"))
        self.set_value("#pt-settings-open", "on")
        text = self.find("#pt-settings")[0].get_attribute("value")
        assert text == "open=on", f"the playtest's settings text says {text!r}"
        self.set_value("#pt-games", 30)
        self.set_value("#pt-seed", 1)
        self.click("#new-playtest")
        self.wait("playtest page", lambda: "#/playtest/" in self.d.current_url)
        pid = self.d.current_url.split("#/playtest/")[1]
        self.wait("playtest finished", lambda: self.api(f"/api/playtests/{pid}")["finished"], timeout=300)
        self.wait("the pictures", lambda: len(self.find("#charts svg.chart")) >= 2)
        self.wait("the progress", lambda: "30 / 30" in self.find("#pt-progress")[0].text)
        # The design questions with their 95 % intervals, and the report page they come from.
        rows = self.wait("the questions", lambda: self.find("#pt-questions-table tbody tr"))
        first = rows[0].text
        assert "What does the player score?" in first and "\u00b1" in first, first
        assert "open=on" in self.find("h2")[0].text, self.find("h2")[0].text
        href = self.find("#pt-report")[0].get_attribute("href")
        with urllib.request.urlopen(href, timeout=30) as r:
            page = r.read().decode()
        assert "design report" in page and "What does the player score?" in page and "open=on" in page, page[:300]
        self.shot("playtest-parade")
        print("playtest: parade open=on 30 games drawn:", len(self.find("#charts svg.chart")), "charts,",
              len(rows), "questions; the report page", len(page), "bytes")

def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("binary")
    ap.add_argument("--out", default="target/browser")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--only", default="", help="comma-separated scenario names")
    a = ap.parse_args()
    c = Check(a.binary, a.out, a.seed)
    failed = []
    try:
        tables = [t["name"] for t in c.api("/api/catalog")["tables"] if t["name"] != "rbc"]
        scenarios = [("tensor", c.tensor_propel), ("hop", c.tensor_hop), ("rendezvous", c.rendezvous),
                     ("bins", c.bins), ("rbc", c.rbc), ("windows", c.two_windows),
                     ("invitation", c.invitation), ("narrow", c.narrow), ("pieces", c.fairy_pieces),
                     ("cards", c.card_and_add), ("tabletop", c.tabletop), ("chess", c.chess_game), ("playtest", c.playtest)]
        scenarios += [(t, (lambda t=t: c.table_round(t))) for t in tables]
        only = [s for s in a.only.split(",") if s]
        for name, run in scenarios:
            if only and name not in only:
                continue
            start = time.time()
            try:
                run()
                print(f"ok {name} ({time.time() - start:.1f} s)", flush=True)
            except Exception as e:  # a failed scenario is reported; the others still run
                failed.append(name)
                c.shot("failed-" + name)
                print(f"FAILED {name}: {e!r}", flush=True)
    finally:
        c.close()
    if failed:
        print("browser check failed:", ", ".join(failed))
        sys.exit(1)
    print("browser check: all scenarios passed; screenshots in", a.out)


if __name__ == "__main__":
    main()
