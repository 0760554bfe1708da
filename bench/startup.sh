#!/usr/bin/env bash
# How fast flushlab starts, per JVM set-up, in one run: the ms from launching `flushlab emitter`
# and `flushlab relay` to their ready lines (after the warm-up), and the time to first token of the
# first request a fresh emitter serves (a fresh client asks for 20 tokens every 5 ms). Set-ups: the
# default java (17, the minimum) plain and with the lab's options (lab/jvm.options), and when a JDK of release 25 or later is under /usr/lib/jvm (or
# FLUSHLAB_JAVA25 names one): that JDK, and that JDK with an ahead-of-time cache (-XX:AOTCache) made
# here by a training run of lab/aot/training.yaml. Prints the median of ROUNDS (default 5) and each
# set-up's ratio to java 17's. About two minutes.
#
#   bench/startup.sh            ROUNDS=9 bench/startup.sh
set -euo pipefail
cd "$(dirname "$0")/.."
jar=${FLUSHLAB_JAR:-target/flushlab-all.jar}
if [ -z "${FLUSHLAB_JAR:-}" ] && { [ ! -f "$jar" ] || [ -n "$(find pom.xml lab/src/main -newer "$jar" -print -quit)" ]; }; then
  mvn -q -B -ntp package -DskipTests
fi
rounds=${ROUNDS:-5}
P_EMITTER=18390 P_RELAY=18391
for p in $P_EMITTER $P_RELAY; do
  if (exec 3<>/dev/tcp/127.0.0.1/$p) 2>/dev/null; then echo "bench/startup.sh: port $p is in use; free it and run again" >&2; exit 1; fi
done
tmp=$(mktemp -d)
pids=()
cleanup() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; wait 2>/dev/null || true; rm -rf "$tmp"; }
trap cleanup EXIT INT TERM

release() { "$1" -version 2>&1 | sed -nE '1s/.*version "([0-9]+).*/\1/p'; }
java25=${FLUSHLAB_JAVA25:-}
if [ -z "$java25" ]; then
  for j in /usr/lib/jvm/*/bin/java; do r=$(release "$j" || true); [ -n "$r" ] && [ "$r" -ge 25 ] && java25=$j; done
fi
setups=("java 17|java" "java 17 + lab/jvm.options|java @lab/jvm.options")
if [ -n "$java25" ]; then
  cache="$tmp/flushlab.aot"
  echo "training run for the ahead-of-time cache ($java25, lab/aot/training.yaml) ..."
  if "$java25" -XX:AOTCacheOutput="$cache" -jar "$jar" run lab/aot/training.yaml --results "$tmp/training" >"$tmp/training.log" 2>&1 \
      && [ -f "$cache" ]; then
    setups+=("java $(release "$java25")|$java25" "java $(release "$java25") + AOT cache|$java25 -XX:AOTCache=$cache")
  else
    echo "note: the training run failed, no AOT row: $(tail -1 "$tmp/training.log")"
    setups+=("java $(release "$java25")|$java25")
  fi
else
  echo "note: no JDK 25 or later under /usr/lib/jvm (FLUSHLAB_JAVA25 names one): java 17 only"
fi

# ms from now to the first line of $1 that contains $2 (the process writing it started just before)
ms_until() { local s=$3; for _ in $(seq 1 600); do grep -q "$2" "$1" 2>/dev/null && { echo $(( ($(date +%s%N) - s) / 1000000 )); return 0; }; sleep 0.05; done; echo "-"; }
median() { tr ' ' '\n' | grep -v '^$' | grep -v -- '-' | sort -n | awk '{ a[NR] = $1 } END { if (NR == 0) print "-"; else if (NR % 2) print a[(NR + 1) / 2]; else printf "%.3f\n", (a[NR / 2] + a[NR / 2 + 1]) / 2 }'; }

declare -A emitter_ready relay_ready fresh_ttft
for round in $(seq 1 "$rounds"); do
  for s in "${setups[@]}"; do
    name=${s%%|*}; read -r -a cmd <<<"${s#*|}"
    start=$(date +%s%N)
    "${cmd[@]}" -jar "$jar" emitter --listen 127.0.0.1:$P_EMITTER >"$tmp/emitter.log" 2>&1 &
    e=$!; pids+=("$e")
    emitter_ready[$name]+=" $(ms_until "$tmp/emitter.log" "listening on" "$start")"
    "${cmd[@]}" -jar "$jar" client --target "http://127.0.0.1:$P_EMITTER/v1/chat/completions" --requests 1 --tokens 20 --delay 5ms \
      >"$tmp/client.log" 2>&1 || true
    fresh_ttft[$name]+=" $(sed -nE 's/.*ttft p50 ([0-9.]+)ms.*/\1/p' "$tmp/client.log" | head -1)"
    start=$(date +%s%N)
    "${cmd[@]}" -jar "$jar" relay --listen 127.0.0.1:$P_RELAY --upstream 127.0.0.1:$P_EMITTER >"$tmp/relay.log" 2>&1 &
    r=$!; pids+=("$r")
    relay_ready[$name]+=" $(ms_until "$tmp/relay.log" "flushlab relay on" "$start")"
    kill "$e" "$r"; wait "$e" "$r" 2>/dev/null || true
  done
done

base=${setups[0]%%|*}
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (a == "-" || b == "-" || b + 0 == 0) print "-"; else printf "%.2f", a / b }'; }
echo
echo "| set-up | emitter ready, ms | relay ready, ms | fresh emitter, first request TTFT, ms | ratios to $base (ready, ready, TTFT) |"
echo "|---|---:|---:|---:|---|"
for s in "${setups[@]}"; do
  name=${s%%|*}
  er=$(echo "${emitter_ready[$name]}" | median); rr=$(echo "${relay_ready[$name]}" | median); ft=$(echo "${fresh_ttft[$name]}" | median)
  b_er=$(echo "${emitter_ready[$base]}" | median); b_rr=$(echo "${relay_ready[$base]}" | median); b_ft=$(echo "${fresh_ttft[$base]}" | median)
  echo "| $name | $er | $rr | $ft | $(ratio "$er" "$b_er"), $(ratio "$rr" "$b_rr"), $(ratio "$ft" "$b_ft") |"
done
echo
for s in "${setups[@]}"; do name=${s%%|*}; echo "$name: emitter ready${emitter_ready[$name]}; relay ready${relay_ready[$name]}; first TTFT${fresh_ttft[$name]}"; done
echo "(medians of $rounds rounds; the goal of issue 25: ready in 2 s or less, the first request no slower than java 17's)"
