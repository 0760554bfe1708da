#!/usr/bin/env bash
# Soaks the emitter and relays for about 75 s: nothing lost, nothing leaked (PASSED or FAILED, exit 0 or 1).
exec "$(dirname "$0")/bench.sh" soak "$@"
