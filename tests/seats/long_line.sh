#!/bin/sh
# A seat program for tests that answers its first question with one line of 50 MB.
while IFS= read -r line; do
    case "$line" in
        kit-ask\ *)
            head -c 50000000 /dev/zero | tr '\0' a
            echo
            ;;
    esac
done
