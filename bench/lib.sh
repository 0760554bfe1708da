# Sourced by bench scripts: the flushlab build they measure.
#   flushlab_jar NAME     sets jar (FLUSHLAB_JAR, else target/flushlab-all.jar, built first when the
#                         sources are newer) and fl, the command that runs it as the lab runs
#                         (lab/jvm.options); NAME names the script in an error.
flushlab_jar() {
  jar=${FLUSHLAB_JAR:-target/flushlab-all.jar}
  if [ -n "${FLUSHLAB_JAR:-}" ]; then
    [ -f "$jar" ] || { echo "$1: FLUSHLAB_JAR=$jar: no such file" >&2; exit 1; }
  elif [ ! -f "$jar" ] || [ -n "$(find pom.xml lab/src/main -newer "$jar" -print -quit)" ]; then
    mvn -q -B -ntp package -DskipTests
  fi
  fl=(java @lab/jvm.options -jar "$jar")
}

#   map_answer LOG WIDTH  reads what `flushlab map` printed into LOG: sets verdict (the answer, the
#                         first line after the blank one that ends the measuring, cut to WIDTH),
#                         model (the "model:" line without its not-replayed advice), replay (the
#                         last "replay:" line) and secs ("answered in"); each with | made / for a
#                         table cell, empty when the map printed none.
map_answer() {
  verdict=$(awk 'found && NF { print; exit } /^$/ { found = 1 }' "$1" | cut -c1-"$2" | tr '|' '/')
  model=$(sed -n 's/^model: //p' "$1" | head -1 | sed 's/ (not replayed against the target.*//' | cut -c1-"$2" | tr '|' '/')
  replay=$(sed -n 's/^replay: //p' "$1" | tail -1 | cut -c1-"$2" | tr '|' '/')
  secs=$(sed -nE 's/^answered in ([0-9.]+) s.*/\1/p' "$1" | head -1)
}
