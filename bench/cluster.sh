#!/usr/bin/env bash
# Streams held with one client agent and with two: three lab agents on this machine (loopback),
# the emitter on agent a, the client load on agent b, then on b and c; for 25, 50, 100, 200 and 400
# chat streams at once (200 tokens, 5 ms apart), a `flushlab run` of a cluster scenario, and the
# largest count whose merged emit->recv p99 stayed under 1 ms with every stream whole. Agents on
# one kernel have exact clock offsets (docs/CLUSTER.md), so the p99 is not withheld here.
#
# On one machine the agents share its cores: a second client agent adds a JVM, not a CPU, so the
# ratio says what the split costs or buys on this host, not what two hosts would hold. About three
# minutes.
#
#   bench/cluster.sh
set -euo pipefail
cd "$(dirname "$0")/.."

jar=target/flushlab-all.jar
if [ ! -f "$jar" ] || [ -n "$(find pom.xml lab/src/main -newer "$jar" -print -quit)" ]; then
  mvn -q -B -ntp package -DskipTests
fi
command -v python3 >/dev/null || { echo "bench/cluster.sh: needs python3 to read results.json" >&2; exit 1; }
read -r -a jopts <<<"${FLUSHLAB_JAVA_OPTS-@lab/jvm.options}"
fl=(java "${jopts[@]}" -jar "$jar")

tmp=$(mktemp -d)
children=()
cleanup() {
  for p in "${children[@]}"; do kill "$p" 2>/dev/null || true; done
  wait 2>/dev/null || true
  rm -rf "$tmp"
}
trap cleanup EXIT INT TERM

P_A=18300 P_B=18310 P_C=18320 P_COORD=18330
for p in $P_A $((P_A + 1)) $((P_A + 2)) $P_B $((P_B + 1)) $((P_B + 2)) $P_C $((P_C + 1)) $((P_C + 2)) $P_COORD $((P_COORD + 1)) $((P_COORD + 2)); do
  if (exec 3<>/dev/tcp/127.0.0.1/$p) 2>/dev/null; then echo "bench/cluster.sh: port $p is in use; free it and run again" >&2; exit 1; fi
done
export FLUSHLAB_CLUSTER_SECRET="bench-$(head -c 16 /dev/urandom | od -An -tx1 | tr -d ' \n')"

start_agent() { # name port [join]
  "${fl[@]}" agent --name "$1" --cluster-name bench --cluster-host "127.0.0.1:$2" ${3:+--join "127.0.0.1:$3"} >"$tmp/agent-$1.log" 2>&1 &
  children+=("$!")
}
await_agent() {
  for _ in $(seq 1 600); do grep -q "^flushlab agent $1 in lab" "$tmp/agent-$1.log" && return 0; sleep 0.1; done
  echo "bench/cluster.sh: agent $1 did not come up; its log:" >&2; cat "$tmp/agent-$1.log" >&2; exit 1
}
start_agent a $P_A; await_agent a
start_agent b $P_B $P_A; start_agent c $P_C $P_A; await_agent b; await_agent c

held() { # "b" or "b, c"
  local best=0
  for n in 25 50 100 200 400; do
    cat >"$tmp/held.yaml" <<YAML
name: held-$n
emitter: {endpoint: chat, frames: 200, interval: 5ms, on: a}
client: {requests: $n, concurrency: $n, on: [$1]}
runs: 1
guards: {certify: {runs: 1}}
targets:
  - {name: direct, kind: direct}
cluster: {name: bench, at: "127.0.0.1:$P_COORD", join: ["127.0.0.1:$P_A"]}
YAML
    rm -rf "$tmp/results"
    "${fl[@]}" run "$tmp/held.yaml" --results "$tmp/results" >"$tmp/run-$n.log" 2>&1 || true
    local line
    line=$(python3 - "$tmp"/results/*/results.json "$n" <<'PY' 2>/dev/null || echo "no results"
import json, sys
r = json.load(open(sys.argv[1]))
n = int(sys.argv[2])
if not r["certification"]["certified"] or not r["cells"] or not r["cells"][0]["runs"]:
    print("uncertified-or-no-data"); sys.exit()
runs = r["cells"][0]["runs"]
# a run a guard excluded was measured once more, as the lab does: the kept one is the measurement
run = next((x for x in runs if not x["excluded"]), runs[-1])
m = run["metrics"]; e = m["emit_to_recv_ms"]
damaged = m["lost_frames"] + m["duplicate_frames"] + m["reordered_frames"] + m["corrupt_frames"]
whole = m["streams_ok"] == n and damaged == 0 and not run["excluded"]
# the streams are merged with each agent's one-way times already moved by its clock: the bound is the widest agent's
bound = max([a["clock_bound_ms"] for a in run.get("agents", [])] or [0])
withheld = e["count"] == 0 or (bound > 0 and bound >= e["p50"])
why = [] if whole else ["%d/%d ok" % (m["streams_ok"], n)] + (["excluded: %s" % run["exclusion_reason"]] if run["excluded"] else [])
print("%s %s %s %s" % ("whole" if whole else "not-whole", "withheld" if withheld else "%.3f" % e["p99"], bound, "; ".join(why)))
PY
)
    echo "  clients on [$1], $n streams: $line" >&2
    set -- "$1" $line
    if [ "${2:-}" = whole ] && [ "${3:-withheld}" != withheld ] && awk -v v="$3" 'BEGIN { exit !(v < 1) }'; then best=$n; fi
    set -- "$1"
  done
  echo "$best"
}

echo "streams held with merged emit->recv p99 < 1 ms (of 25, 50, 100, 200, 400; chat, 200 tokens at 5 ms):"
one=$(held "b")
two=$(held "b, c")
ratio=$(awk -v a="$one" -v b="$two" 'BEGIN { if (a > 0) printf "%.2f", b / a; else print "-" }')
printf "  one client agent (b): %s\n  two client agents (b, c): %s\n  two / one: %s\n" "$one" "$two" "$ratio"
echo "  ($(nproc) cores on this machine, shared by the emitter's agent, the client agents and the coordinator)"
