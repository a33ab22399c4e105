#!/usr/bin/env bash
# An SPRT of the working tree's engine against an earlier commit (issue 26): both built in
# release mode (the base in its own worktree and target folder), then cutechess-cli from
# ../shared/peers plays them from the balanced openings in tools/openings/ (each opening twice,
# colours swapped) until the SPRT decides. Progress and the result go to target/sprt/NAME.log,
# the games to target/sprt/NAME.pgn.
#
# usage: tools/sprt.sh BASE_REV [VARIANT] [TC] [ELO0] [ELO1] [CONCURRENCY]
#   BASE_REV: a commit, or `untuned`: the working tree's own engine with every `eval.*` line
#   taken out of engine.ini (`--ini target/sprt/untuned.ini`: the default weights), so that the
#   fitted weights are measured against the same code without them (issue 27).
#   VARIANT: chess (default), losalamos, capablanca, chess911, remotesensing or tensor (the
#   last three cutechess-cli does not know: tools/uci_match.py plays them, refereed by the
#   working tree's engine, with a pentanomial SPRT); TC: 1+0.01 (default); ELO0 0, ELO1 10;
#   CONCURRENCY: 2 (two games at once: nothing else may run on this 2-core machine meanwhile).
# Needs Debian's libqt5core5a for cutechess-cli (apt-get install -y libqt5core5a).
set -euo pipefail
cd "$(dirname "$0")/.."
base=${1:?usage: tools/sprt.sh BASE_REV [VARIANT] [TC] [ELO0] [ELO1] [CONCURRENCY]}
variant=${2:-chess}
tc=${3:-1+0.01}
elo0=${4:-0}
elo1=${5:-10}
conc=${6:-2}
case "$variant" in
    chess) cute=standard ;;
    losalamos) cute=losalamos ;;
    capablanca) cute=capablanca ;;
    chess911|remotesensing|tensor) cute= ;;
    *) echo "sprt.sh: variant '$variant': chess, losalamos, capablanca, chess911, remotesensing or tensor" >&2; exit 2 ;;
esac
peers=../shared/peers
mkdir -p target/sprt
cargo build --release -q
cp target/release/menagerie "target/sprt/test-menagerie"
if [ "$base" = untuned ]; then
    rev=untuned
    grep -v '^eval\.' engine.ini >target/sprt/untuned.ini
    base_cmd=target/sprt/untuned-menagerie
    cp target/release/menagerie target/sprt/untuned-engine
    printf '#!/bin/sh\nexec "%s/target/sprt/untuned-engine" --ini "%s/target/sprt/untuned.ini" "$@"\n' "$PWD" "$PWD" >"$base_cmd"
    chmod +x "$base_cmd"
else
rev=$(git rev-parse --short "$base")
src=target/sprt/base-$rev-v2
base_cmd="$src-target/release/menagerie"
if ! [ -x "$src-target/release/menagerie" ]; then
    rm -rf "$src"
    git worktree add -f --detach "$src" "$rev" >/dev/null
    # The CPU level of .cargo/config.toml, also for commits from before it existed: both
    # engines get the same code generation.
    (cd "$src" && RUSTFLAGS="-C target-cpu=x86-64-v2" CARGO_TARGET_DIR="../base-$rev-v2-target" cargo build --release -q)
    git worktree remove --force "$src"
fi
fi
name="$variant-$(date +%Y%m%d-%H%M%S)-vs-$rev"
if [ -z "$cute" ]; then
    echo "sprt: working tree (on $(git rev-parse --short HEAD)$(git diff --quiet || echo ', changed')) vs $rev, $variant, $tc, elo0=$elo0 elo1=$elo1; log target/sprt/$name.log"
    python3 tools/uci_match.py --first target/sprt/test-menagerie --second "$base_cmd" \
        --referee target/sprt/test-menagerie --variant "$variant" --openings "tools/openings/$variant.epd" \
        --tc "$tc" --elo0 "$elo0" --elo1 "$elo1" --concurrency "$conc" >"target/sprt/$name.log" 2>&1
    tail -1 "target/sprt/$name.log"
    exit 0
fi
echo "sprt: working tree (on $(git rev-parse --short HEAD)$(git diff --quiet || echo ', changed')) vs $rev, $variant, $tc, elo0=$elo0 elo1=$elo1; log target/sprt/$name.log"
"$peers/cutechess-cli" \
    -engine cmd=target/sprt/test-menagerie proto=uci name=test option.Hash=16 \
    -engine cmd="$base_cmd" proto=uci name=base option.Hash=16 \
    -each tc="$tc" -variant "$cute" \
    -openings file="tools/openings/$variant.epd" format=epd order=random \
    -games 2 -rounds 20000 -repeat -recover -concurrency "$conc" \
    -sprt elo0="$elo0" elo1="$elo1" alpha=0.05 beta=0.05 \
    -ratinginterval 20 -pgnout "target/sprt/$name.pgn" \
    >"target/sprt/$name.log" 2>&1
grep -E "^(Score of|Elo difference|SPRT)" "target/sprt/$name.log" | tail -3
