#!/bin/sh
# A seat program for tests: answers every kit-ask with the first action of the kit-legal line
# before it, and logs nothing else. An argument is a delay in seconds before each answer (a
# game slow enough to be cut short).
delay="${1:-0}"
legal=""
while IFS= read -r line; do
    case "$line" in
        kit-legal\ *) legal="${line#kit-legal }" ;;
        kit-ask\ *)
            rest="${line#kit-ask }"
            id="${rest%% *}"
            [ "$delay" = 0 ] || sleep "$delay"
            echo "kit-act $id ${legal%%|*}"
            ;;
        kit-end*) exit 0 ;;
    esac
done
