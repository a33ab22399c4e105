#!/bin/sh
# A seat program for tests that answers every question with an id never asked.
while IFS= read -r line; do
    case "$line" in
        kit-ask\ *) echo "kit-act 999999 pass" ;;
    esac
done
