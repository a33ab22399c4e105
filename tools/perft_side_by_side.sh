#!/usr/bin/env bash
# Perft speed beside Stockfish (Debian's /usr/games/stockfish) and Fairy-Stockfish 8x8
# (../shared/peers): chess start d6, Kiwipete d5, Los Alamos d7; each program in turn, three
# rounds in one run (take the best of three: this VM's speed varies by up to 2x).
# usage: tools/perft_side_by_side.sh [MENAGERIE_BINARY]
set -euo pipefail
cd "$(dirname "$0")/.."
m=${1:-target/release/menagerie}
kiwipete="r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
fsf=../shared/peers/fairy-stockfish
sf=/usr/games/stockfish
for round in 1 2 3; do
    echo "round $round"
    echo "menagerie chess 6: $($m perft 6 2>&1 | grep 'nodes in')"
    echo "stockfish chess 6: $(python3 tools/uci_perft.py $sf - - 6)"
    echo "fairy-stockfish chess 6: $(python3 tools/uci_perft.py $fsf - - 6)"
    echo "menagerie kiwipete 5: $($m perft --fen "$kiwipete" 5 2>&1 | grep 'nodes in')"
    echo "stockfish kiwipete 5: $(python3 tools/uci_perft.py $sf - "$kiwipete" 5)"
    echo "fairy-stockfish kiwipete 5: $(python3 tools/uci_perft.py $fsf - "$kiwipete" 5)"
    echo "menagerie losalamos 7: $($m perft --variant losalamos 7 2>&1 | grep 'nodes in')"
    echo "fairy-stockfish losalamos 7: $(python3 tools/uci_perft.py $fsf losalamos - 7)"
done
