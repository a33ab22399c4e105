#!/bin/sh
# A seat program for tests that starts a long sleep of its own (its process id written to the
# file $1), then answers garbage: when its seat is lost, the sleep must end with it.
sleep 300 &
echo $! > "$1"
exec sh tests/seats/garbage.sh
