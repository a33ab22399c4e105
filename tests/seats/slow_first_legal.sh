#!/bin/sh
# A seat program for tests: first_legal.sh, a little slow (a twentieth of a second a question),
# so that a game lasts long enough to be cut short.
legal=""
while IFS= read -r line; do
    case "$line" in
        kit-legal\ *) legal="${line#kit-legal }" ;;
        kit-ask\ *)
            rest="${line#kit-ask }"
            id="${rest%% *}"
            sleep 0.05
            echo "kit-act $id ${legal%%|*}"
            ;;
        kit-end*) exit 0 ;;
    esac
done
