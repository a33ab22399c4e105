#!/bin/sh
# A seat program for tests that answers every question with garbage.
while IFS= read -r line; do
    case "$line" in
        kit-ask\ *) echo "flap your wings" ;;
    esac
done
