#!/bin/sh
# A seat program for tests that exits at once.
exit 3
