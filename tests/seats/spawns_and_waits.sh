#!/bin/sh
# A seat program for tests that starts a long sleep of its own (its process id written to the
# file $1), then reads everything and never answers: the game waits on it.
sleep 300 &
echo $! > "$1"
exec cat > /dev/null
