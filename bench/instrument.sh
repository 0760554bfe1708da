#!/usr/bin/env bash
# Prints the instrument's cost on this machine as a table (speed targets live here, not in tests).
set -euo pipefail
cd "$(dirname "$0")/.."
jar=target/flushlab-all.jar
if [ ! -f "$jar" ] || [ -n "$(find pom.xml lab/src/main -newer "$jar" -print -quit)" ]; then
  mvn -q -B -ntp package -DskipTests
fi
exec java -jar "$jar" bench instrument
