#!/usr/bin/env bash
# Prints the emitter and relays under a few minutes of load: nothing lost, nothing leaked.
set -euo pipefail
cd "$(dirname "$0")/.."
jar=target/flushlab-all.jar
if [ ! -f "$jar" ] || [ -n "$(find pom.xml lab/src/main -newer "$jar" -print -quit)" ]; then
  mvn -q -B -ntp package -DskipTests
fi
exec java -jar "$jar" bench soak "$@"
