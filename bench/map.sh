#!/usr/bin/env bash
# For one built-in relay of each kind: the wall time and cells `flushlab map` needs, beside the
# shipped 21-cell sweep on the same relay (about 12 minutes in all; --no-sweep for the map alone).
exec "$(dirname "$0")/bench.sh" map "$@"
