#!/usr/bin/env bash
# Calibration of the strength levels (UCI_LimitStrength + UCI_Elo, issue 32): chess matches at
# TC (default 5+0.05) from the balanced openings, each opening twice with colours swapped, of every level
# against Fairy-Max (Debian's /usr/games/fairymax), against the full engine, and against the
# level LADDER below it. One line per match goes to target/strength/levels.txt (cutechess-cli's
# score and Elo difference with its error), the games to target/strength/*.pgn, progress to
# target/strength/progress.log.
#
# usage: TC=5+0.05 tools/strength_levels.sh [GAMES] [LADDER] [CONCURRENCY] LEVEL...
#   GAMES per match (default 20), LADDER in Elo (default 400; 0: no ladder matches),
#   CONCURRENCY 2 (nothing else may run on this 2-core machine meanwhile).
# Needs Debian's fairymax and libqt5core5a (apt-get install -y fairymax libqt5core5a).
set -euo pipefail
cd "$(dirname "$0")/.."
games=${1:-20}
ladder=${2:-400}
conc=${3:-2}
tc=${TC:-5+0.05}
shift 3 || true
levels=("$@")
[ ${#levels[@]} -gt 0 ] || levels=(800 1200 1600 2000 2400)
out=target/strength
mkdir -p "$out"
exe=$PWD/$out/menagerie
cp target/release/menagerie "$exe"
rounds=$(( (games + 1) / 2 ))

level() { echo "cmd=$exe proto=uci name=L$1 option.UCI_LimitStrength=true option.UCI_Elo=$1 option.Hash=16"; }
full="cmd=$exe proto=uci name=full option.Hash=16"
fairymax="cmd=/usr/games/fairymax proto=xboard name=fairymax"

match() { # NAME ENGINE1 ENGINE2
    local name=$1
    echo "$(date +%T) $name at $tc" >>"$out/progress.log"
    # shellcheck disable=SC2086
    ../shared/peers/cutechess-cli -engine $2 -engine $3 -each tc="$tc" -variant standard \
        -openings file=tools/openings/chess.epd format=epd order=random -games 2 -rounds "$rounds" \
        -repeat -recover -concurrency "$conc" -pgnout "$out/$name.pgn" >"$out/$name.log" 2>&1
    local score elo
    score=$(grep "^Score of" "$out/$name.log" | tail -1 | sed 's/^Score of //')
    elo=$(grep "^Elo difference" "$out/$name.log" | tail -1 | sed 's/^Elo difference: //')
    echo "$name | $score | $elo" | tee -a "$out/levels.txt"
}

for l in "${levels[@]}"; do
    match "L$l-fairymax" "$(level "$l")" "$fairymax"
    match "L$l-full" "$(level "$l")" "$full"
    if [ "$ladder" -gt 0 ] && [ "$((l - ladder))" -ge 800 ]; then
        match "L$l-L$((l - ladder))" "$(level "$l")" "$(level $((l - ladder)))"
    fi
done
echo "$(date +%T) done" >>"$out/progress.log"
