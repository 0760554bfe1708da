#!/usr/bin/env bash
# Builds flushlab if the jar is missing or older than the sources, then runs `flushlab bench SUBJECT`
# (instrument, relay or soak); the other scripts here name the subject.
set -euo pipefail
cd "$(dirname "$0")/.."
jar=target/flushlab-all.jar
if [ ! -f "$jar" ] || [ -n "$(find pom.xml lab/src/main -newer "$jar" -print -quit)" ]; then
  mvn -q -B -ntp package -DskipTests
fi
exec java @lab/jvm.options -jar "$jar" bench "$@"
