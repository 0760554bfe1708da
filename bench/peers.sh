#!/usr/bin/env bash
# flushlab beside its peers on this machine, in one run: HAProxy's C benchmark sse-latency (an
# OpenAI-like SSE server and client in one process on one clock), built into a temporary folder
# from the source file SSE_LATENCY_SRC names (never copied into the project), and HAProxy from
# Debian as a hop. Prints each row as flushlab, the peer, and flushlab / peer (below 1: flushlab is
# faster or smaller). About four minutes.
#
#   SSE_LATENCY_SRC=../shared/peers/sse-latency/sse-latency.c bench/peers.sh
#
# FLUSHLAB_JAR names another build of flushlab to measure (a before/after comparison: build the
# older commit into a folder of its own and point this at its target/flushlab-all.jar).
#
# A peer that is missing is skipped with the reason; its rows print "-".
set -euo pipefail
cd "$(dirname "$0")/.."

jar=${FLUSHLAB_JAR:-target/flushlab-all.jar}
if [ -n "${FLUSHLAB_JAR:-}" ]; then
  [ -f "$jar" ] || { echo "bench/peers.sh: FLUSHLAB_JAR=$jar: no such file" >&2; exit 1; }
  echo "flushlab: $jar"
elif [ ! -f "$jar" ] || [ -n "$(find pom.xml lab/src/main -newer "$jar" -print -quit)" ]; then
  mvn -q -B -ntp package -DskipTests
fi
# The lab's JVM options (lab/jvm.options); FLUSHLAB_JAVA_OPTS="" measures a build as plain `java -jar`
# runs it (a before/after comparison of a build from before the options existed).
read -r -a jopts <<<"${FLUSHLAB_JAVA_OPTS-@lab/jvm.options}"
fl=(java "${jopts[@]}" -jar "$jar")
echo "flushlab runs as: ${fl[*]}"

tmp=$(mktemp -d)
children=()
cleanup() {
  for p in "${children[@]}"; do kill "$p" 2>/dev/null || true; done
  wait 2>/dev/null || true
  rm -rf "$tmp"
}
trap cleanup EXIT INT TERM

# Ports: fixed, so the HAProxy config can name them; refused plainly if one is taken.
P_PEER=18190 P_HAPROXY=18192 P_EMITTER=18191 P_RELAY=18193 P_PROBE=18194 P_FRESH=18195 P_MEM=18196
for p in $P_PEER $P_HAPROXY $P_EMITTER $P_RELAY $P_PROBE $P_FRESH $P_MEM; do
  if (exec 3<>/dev/tcp/127.0.0.1/$p) 2>/dev/null; then echo "bench/peers.sh: port $p is in use; free it and run again" >&2; exit 1; fi
done

src=${SSE_LATENCY_SRC:-../shared/peers/sse-latency/sse-latency.c}
peer=""
if [ ! -f "$src" ]; then
  echo "sse-latency: skipped (no source at $src; set SSE_LATENCY_SRC to HAProxy's dev/sse-latency/sse-latency.c)"
elif ! command -v gcc >/dev/null; then
  echo "sse-latency: skipped (no gcc)"
elif gcc -O2 -o "$tmp/sse-latency" "$src" 2>"$tmp/gcc.log"; then
  peer="$tmp/sse-latency"
  echo "sse-latency: built from $src ($(sha256sum "$src" | cut -c1-12)) into $tmp"
else
  echo "sse-latency: skipped (gcc failed: $(head -1 "$tmp/gcc.log"))"
fi
haproxy=$(command -v haproxy || true)
[ -n "$haproxy" ] || echo "haproxy: skipped (apt-get install haproxy)"

wait_port() { for _ in $(seq 1 200); do (exec 3<>/dev/tcp/127.0.0.1/$1) 2>/dev/null && return 0; sleep 0.05; done; return 1; }
# A flushlab server accepts before its warm-up ends; it prints its banner after. Wait for that, so
# nothing here is measured against a server still warming up (and sharing the cores with it).
wait_ready() { for _ in $(seq 1 600); do grep -q "$2" "$1" 2>/dev/null && return 0; sleep 0.05; done; echo "bench/peers.sh: no '$2' in $1" >&2; return 1; }
# "p50=0.22ms" or "p50 0.22ms" or "p50   +0.135ms" after a label, from the peer's or the probe's report
report_stat() { grep -m1 -- "$2" "$1" | sed -E "s/.*$3[= ]+\\+?(-?[0-9.]+)ms.*/\\1/"; }
# from flushlab client's one line: "ttft p50 6.259ms" / "emit->recv p50 0.070ms p99 2.206ms"
fl_stat() { sed -nE "s/.*$2 ([0-9.]+)ms.*/\\1/p" "$1" | head -1; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (a == "" || b == "" || a == "-" || b == "-" || b + 0 == 0) print "-"; else printf "%.2f", a / b }'; }
row() { printf "| %s | %s | %s | %s |\n" "$1" "${2:--}" "${3:--}" "$(ratio "${2:--}" "${3:--}")"; }
cpu_ticks() { awk '{ print $14 + $15 }' "/proc/$1/stat"; }

"${fl[@]}" emitter --listen 127.0.0.1:$P_EMITTER >"$tmp/emitter.log" 2>&1 &
emitter=$!; children+=("$emitter")
wait_ready "$tmp/emitter.log" "listening on"
chat="http://127.0.0.1:$P_EMITTER/v1/chat/completions"

# 1-3: direct, 20 requests, 5 at once, 200 tokens at 5 ms
"${fl[@]}" client --target "$chat" --requests 20 --concurrency 5 --tokens 200 --delay 5ms >"$tmp/fl-direct" 2>&1
[ -n "$peer" ] && "$peer" -L 127.0.0.1:$((P_PEER + 100)) -t 127.0.0.1:$((P_PEER + 100)) -r 20 -c 5 -n 200 -l -q >"$tmp/peer-direct" 2>&1

# first request of a fresh process (a fresh emitter and a fresh client)
"${fl[@]}" emitter --listen 127.0.0.1:$P_FRESH >"$tmp/fresh.log" 2>&1 &
fresh=$!; children+=("$fresh"); wait_ready "$tmp/fresh.log" "listening on"
"${fl[@]}" client --target "http://127.0.0.1:$P_FRESH/v1/chat/completions" --requests 1 --tokens 20 --delay 5ms >"$tmp/fl-fresh" 2>&1
kill "$fresh"
[ -n "$peer" ] && "$peer" -L 127.0.0.1:$((P_PEER + 101)) -t 127.0.0.1:$((P_PEER + 101)) -r 1 -c 1 -n 20 -l -q >"$tmp/peer-fresh" 2>&1

# 4-5: one hop. flushlab: its probe through a passthrough relay; the peer: through HAProxy http-no-delay
"${fl[@]}" relay --listen 127.0.0.1:$P_RELAY --upstream 127.0.0.1:$P_PROBE >"$tmp/relay.log" 2>&1 &
children+=("$!"); wait_ready "$tmp/relay.log" "flushlab relay on"
"${fl[@]}" probe --gateway 127.0.0.1:$P_RELAY --listen 127.0.0.1:$P_PROBE -r 20 -c 5 -n 200 >"$tmp/fl-hop" 2>&1
if [ -n "$peer" ] && [ -n "$haproxy" ]; then
  cat >"$tmp/haproxy.cfg" <<EOF
defaults
  mode http
  option http-no-delay
  timeout connect 5s
  timeout client 5m
  timeout server 5m
frontend fe
  bind 127.0.0.1:$P_HAPROXY
  default_backend be
backend be
  server peer 127.0.0.1:$((P_PEER + 102))
EOF
  "$haproxy" -db -f "$tmp/haproxy.cfg" >"$tmp/haproxy.log" 2>&1 &
  children+=("$!"); wait_port $P_HAPROXY
  "$peer" -L 127.0.0.1:$((P_PEER + 102)) -t 127.0.0.1:$P_HAPROXY -r 20 -c 5 -n 200 -q >"$tmp/peer-hop" 2>&1
fi

# 6-8: many streams at once, 200 tokens at 5 ms; the emitter's CPU over the 100-stream run
held_fl=0 held_peer=0
for n in 25 50 100 200 400; do
  before=$(cpu_ticks "$emitter")
  "${fl[@]}" client --target "$chat" --requests $n --concurrency $n --tokens 200 --delay 5ms >"$tmp/fl-n$n" 2>&1 || true
  after=$(cpu_ticks "$emitter")
  [ $n = 100 ] && fl_cpu_us=$(awk -v t=$((after - before)) -v hz="$(getconf CLK_TCK)" 'BEGIN { printf "%.1f", t / hz * 1e6 / 20000 }')
  # the client's own CPU over its measured batch, which it prints ("client CPU 12.3 us a frame")
  [ $n = 100 ] && fl_client_us=$(sed -nE 's/.*client CPU ([0-9.]+) us a frame.*/\1/p' "$tmp/fl-n$n" | head -1)
  p99=$(fl_stat "$tmp/fl-n$n" "p99")
  awk -v v="$p99" 'BEGIN { exit !(v != "" && v < 1) }' && held_fl=$n
  if [ -n "$peer" ]; then
    TIMEFORMAT='%U %S'
    { time "$peer" -L 127.0.0.1:$((P_PEER + 103)) -t 127.0.0.1:$((P_PEER + 103)) -r $n -c $n -n 200 -l -q >"$tmp/peer-n$n" 2>&1; } 2>"$tmp/peer-time-n$n"
    [ $n = 100 ] && peer_cpu_us=$(awk '{ printf "%.1f", ($1 + $2) * 1e6 / 20000 }' "$tmp/peer-time-n$n")
    p99=$(report_stat "$tmp/peer-n$n" "emit->recv (tokens)" p99)
    awk -v v="$p99" 'BEGIN { exit !(v != "" && v < 1) }' && held_peer=$n
  fi
done

# 9: bulk, 512 MiB in 64 KiB frames through the passthrough relay: flushlab's client against curl
"${fl[@]}" relay --listen 127.0.0.1:$((P_RELAY + 10)) --upstream 127.0.0.1:$P_EMITTER >"$tmp/relay2.log" 2>&1 &
children+=("$!"); wait_ready "$tmp/relay2.log" "flushlab relay on"
bulk="http://127.0.0.1:$((P_RELAY + 10))/sse?total=512MiB&size=64KiB&interval=0ms"
# One untimed transfer first: the relay's and emitter's bulk paths are not what the warm-up runs,
# and whichever client went first read at ~half the rate of the second (curl first: 475-503 MB/s,
# then flushlab 490-545, then curl again 836-960), so the row compared a cold pipe with a warm one.
curl -s -o /dev/null "$bulk"
"${fl[@]}" client --target "$bulk" --timeout 120s >"$tmp/fl-bulk" 2>&1
fl_mbs=$(sed -nE 's/.*batch [0-9.]+ s, ([0-9.]+) MB\/s read.*/\1/p' "$tmp/fl-bulk")
curl_mbs=$(curl -s -o /dev/null -w '%{speed_download}' "$bulk" | awk '{ printf "%.1f", $1 / 1e6 }')

# 10: memory with 1000 streams open (a fresh emitter; the peer's one process holds both sides)
"${fl[@]}" emitter --listen 127.0.0.1:$P_MEM >"$tmp/mem.log" 2>&1 &
mem=$!; children+=("$mem"); wait_ready "$tmp/mem.log" "listening on"
# The peak so far is the warm-up's; reset it so the row is the 1000 streams' (Linux: 5 > clear_refs).
echo 5 > "/proc/$mem/clear_refs" 2>/dev/null || echo "note: cannot reset the emitter's peak RSS; the memory row includes its warm-up"
"${fl[@]}" client --target "http://127.0.0.1:$P_MEM/v1/chat/completions" --requests 1000 --concurrency 1000 --tokens 200 --delay 5ms \
  >"$tmp/fl-mem" 2>&1 || true
fl_mb=$(awk '/VmHWM/ { printf "%.1f", $2 / 1024 }' "/proc/$mem/status")
kill "$mem"
if [ -n "$peer" ]; then
  /usr/bin/time -f '%M' -o "$tmp/peer-mem" "$peer" -L 127.0.0.1:$((P_PEER + 104)) -t 127.0.0.1:$((P_PEER + 104)) -r 1000 -c 1000 -n 200 -l -q \
    >/dev/null 2>&1 || true
  peer_mb=$(awk '{ printf "%.1f", $1 / 1024 }' "$tmp/peer-mem")
fi

pp() { [ -n "$peer" ] && report_stat "$@" || true; }
echo
echo "| measure | flushlab | sse-latency / HAProxy | flushlab / peer |"
echo "|---|---:|---:|---:|"
row "direct time to first token p50, ms (20 req, 5 at once, 200 tokens @ 5 ms)" "$(fl_stat "$tmp/fl-direct" "ttft p50")" "$(pp "$tmp/peer-direct" "TTFT (client)" p50)"
row "first request of a fresh process, time to first token, ms" "$(fl_stat "$tmp/fl-fresh" "ttft p50")" "$(pp "$tmp/peer-fresh" "TTFT (client)" p50)"
row "direct emit->recv p99, ms" "$(fl_stat "$tmp/fl-direct" "p99")" "$(pp "$tmp/peer-direct" "emit->recv (tokens)" p99)"
row "one hop, added time to first token p50, ms (passthrough relay / HAProxy http-no-delay)" \
  "$(sed -n '/gateway overhead/,$p' "$tmp/fl-hop" | grep -m1 "TTFT (client)" | sed -E 's/.*p50 +\+?(-?[0-9.]+)ms.*/\1/')" "$( [ -f "$tmp/peer-hop" ] && sed -n '/gateway overhead/,$p' "$tmp/peer-hop" | grep -m1 "TTFT (client)" | sed -E 's/.*p50 \+?(-?[0-9.]+)ms.*/\1/')"
row "one hop, added emit->recv p99, ms" \
  "$(sed -n '/gateway overhead/,$p' "$tmp/fl-hop" | grep -m1 "emit->recv (tokens)" | sed -E 's/.*p99 +\+?(-?[0-9.]+)ms.*/\1/')" \
  "$( [ -f "$tmp/peer-hop" ] && sed -n '/gateway overhead/,$p' "$tmp/peer-hop" | grep -m1 "emit->recv (tokens)" | sed -E 's/.*p99 \+?(-?[0-9.]+)ms.*/\1/')"
row "streams held with emit->recv p99 < 1 ms (of 25, 50, 100, 200, 400)" "$held_fl" "$( [ -n "$peer" ] && echo "$held_peer")"
row "time to first token p50 at 100 streams, ms" "$(fl_stat "$tmp/fl-n100" "ttft p50")" "$(pp "$tmp/peer-n100" "TTFT (client)" p50)"
row "CPU per frame, us (flushlab: the emitter process; peer: its one process, both sides)" "${fl_cpu_us:-}" "${peer_cpu_us:-}"
row "CPU per frame, us (flushlab: the client's measured batch; peer: as above)" "${fl_client_us:-}" "${peer_cpu_us:-}"
row "CPU per frame, us (flushlab: emitter + client; peer: its one process, both sides)" "$(awk -v a="${fl_cpu_us:-}" -v b="${fl_client_us:-}" 'BEGIN { if (a == "" || b == "") print ""; else printf "%.1f", a + b }')" "${peer_cpu_us:-}"
row "bulk 512 MiB through a passthrough relay, MB/s (flushlab's client / curl)" "$fl_mbs" "$curl_mbs"
row "memory with 1000 streams, MB peak RSS (flushlab: the emitter; peer: its one process)" "$fl_mb" "${peer_mb:-}"
echo
echo "flushlab's emit->recv p99 at each stream count: $(for n in 25 50 100 200 400; do printf '%s=%s ' $n "$(fl_stat "$tmp/fl-n$n" p99)"; done)"
[ -n "$peer" ] && echo "sse-latency's: $(for n in 25 50 100 200 400; do printf '%s=%s ' $n "$(report_stat "$tmp/peer-n$n" "emit->recv (tokens)" p99)"; done)"
echo "(rows are medians of one run each; run the script twice to see the spread)"
