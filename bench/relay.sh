#!/usr/bin/env bash
# Prints the relay's cost on this machine as a table (speed targets live here, not in tests).
exec "$(dirname "$0")/bench.sh" relay "$@"
