#!/bin/sh
# A seat program for tests that answers every question twice: the second answer arrives as
# a stale line before the next question's, a bad answer that the referee counts.
legal=""
while IFS= read -r line; do
    case "$line" in
        kit-legal\ *) legal="${line#kit-legal }" ;;
        kit-ask\ *)
            rest="${line#kit-ask }"
            id="${rest%% *}"
            echo "kit-act $id ${legal%%|*}"
            echo "kit-act $id ${legal%%|*}"
            ;;
        kit-end*) exit 0 ;;
    esac
done
