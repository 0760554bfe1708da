#!/usr/bin/env bash
# Builds flushlab if the jar is missing or older than the sources, then runs a scenario
# (default: scenarios/quickstart.yaml). Extra arguments go to 'flushlab run'.
set -euo pipefail
cd "$(dirname "$0")"
jar=target/flushlab-all.jar
if [ ! -f "$jar" ] || [ -n "$(find pom.xml lab/src/main -newer "$jar" -print -quit)" ]; then
  echo "building flushlab (mvn -q package -DskipTests) ..." >&2
  mvn -q -B -ntp package -DskipTests
fi
scenario="scenarios/quickstart.yaml"
if [ $# -gt 0 ] && [ "${1#-}" = "$1" ]; then
  scenario="$1"
  shift
fi
# Results record the command that reproduces them; this says it was this script.
export FLUSHLAB_LAUNCHER="./run-scenario.sh"
exec java @lab/jvm.options -jar "$jar" run "$scenario" "$@"
