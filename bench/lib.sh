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
