#!/bin/sh
# A seat program for tests that reads everything and never answers.
cat > /dev/null
