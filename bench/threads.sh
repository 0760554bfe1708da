#!/usr/bin/env bash
# Where a standalone emitter's CPU goes, thread by thread: one `flushlab emitter`, a warm-up batch,
# then RUNS client batches of STREAMS streams (200 tokens every 5 ms each), the emitter's threads'
# CPU and switch-ins read from the kernel (/proc/PID/task/TID/schedstat) before and after.
# Threads of one kind (the event loops, the compiler threads) are summed under one name. The
# hiccup meter's host thread is `flushlab-hiccups`; its event-loop ticks are in the loops' figure.
# About 4 s a batch.
#
#   bench/threads.sh [STREAMS [RUNS]]        (defaults: 100 streams, 3 runs)
#
# bench/peers.sh's "CPU per frame" row is the whole process over the same kind of batch, charged
# from the client's start to its end (its JVM start and warm-up included, ~2 of ~3 s): a thread
# that costs CPU per second rather than per frame reads larger there the fewer frames a batch has.
# FLUSHLAB_JAR names another build to measure, as for bench/peers.sh.
set -euo pipefail
cd "$(dirname "$0")/.."

streams=${1:-100}
runs=${2:-3}
case "$streams$runs" in *[!0-9]*) echo "bench/threads.sh: STREAMS and RUNS are whole numbers (got '$streams' '$runs')" >&2; exit 1;; esac
. bench/lib.sh
flushlab_jar bench/threads.sh
port=18197
if (exec 3<>/dev/tcp/127.0.0.1/$port) 2>/dev/null; then echo "bench/threads.sh: port $port is in use; free it and run again" >&2; exit 1; fi

tmp=$(mktemp -d)
emitter=""
cleanup() {
  [ -n "$emitter" ] && kill "$emitter" 2>/dev/null || true
  wait 2>/dev/null || true
  rm -rf "$tmp"
}
trap cleanup EXIT INT TERM

"${fl[@]}" emitter --listen 127.0.0.1:$port >"$tmp/emitter.log" 2>&1 &
emitter=$!
for _ in $(seq 1 600); do grep -q "listening on" "$tmp/emitter.log" && break; sleep 0.05; done
grep -q "listening on" "$tmp/emitter.log" || { echo "bench/threads.sh: the emitter did not start:" >&2; cat "$tmp/emitter.log" >&2; exit 1; }
batch() {
  "${fl[@]}" client --target "http://127.0.0.1:$port/v1/chat/completions" --requests "$streams" --concurrency "$streams" \
    --tokens 200 --delay 5ms >"$tmp/client.log" 2>&1 || { echo "bench/threads.sh: a client batch failed:" >&2; cat "$tmp/client.log" >&2; exit 1; }
}
# name (digits and a trailing "-N" dropped, so a pool sums), ran ns, waited ns, switch-ins
threads() {
  for t in /proc/"$emitter"/task/*; do
    printf '%s %s\n' "$(tr ' ' '_' <"$t/comm")" "$(cat "$t/schedstat" 2>/dev/null || echo '0 0 0')"
  done | awk '{ n = $1; sub(/-[0-9]+$/, "", n); sub(/[0-9]+$/, "", n); ran[n] += $2; sw[n] += $4 }
              END { for (n in ran) print n, ran[n], sw[n] }' | sort
}
process_ticks() { awk '{ print $14 + $15 }' "/proc/$emitter/stat"; }

batch # warm-up: the emitter's first batch compiles what the next ones run
threads >"$tmp/before"; t0=$(process_ticks); w0=$(date +%s%N)
for _ in $(seq 1 "$runs"); do batch; done
threads >"$tmp/after"; t1=$(process_ticks); w1=$(date +%s%N)
frames=$((streams * 200 * runs))
secs=$(awk -v a="$w0" -v b="$w1" 'BEGIN { printf "%.1f", (b - a) / 1e9 }')
echo "flushlab emitter ($jar), $runs batches of $streams streams x 200 tokens @ 5 ms: $frames frames over $secs s"
awk -v t=$((t1 - t0)) -v hz="$(getconf CLK_TCK)" -v f=$frames 'BEGIN { printf "process: %.1f us of CPU a frame\n", t / hz * 1e6 / f }'
echo
echo "| thread | CPU, ms | switch-ins | CPU a frame, us | CPU a second of the run, ms |"
echo "|---|---:|---:|---:|---:|"
join "$tmp/before" "$tmp/after" | awk -v f=$frames -v s="$secs" '{ ran = ($4 - $2) / 1e6; if (ran >= 0.5)
  printf "| %s | %.1f | %d | %.2f | %.1f |\n", $1, ran, $5 - $3, ran * 1000 / f, ran / s }'
