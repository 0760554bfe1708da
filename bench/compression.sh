#!/usr/bin/env bash
# Bulk read of a compressed body: flushlab's client (as a browser, decoding what it accepts as
# it reads) beside curl --compressed, on the same emitter in one run. The emitter sends TOTAL
# (default 64MiB) of 16 KiB events at once, gzip, never flushed (as a server compressing a
# download); each client reads it three times and the median is printed, with the rate in decoded
# MB/s and flushlab / curl (above 1: flushlab reads faster). The plain body is read too, as the
# reference. About a minute.
#
#   bench/compression.sh            TOTAL=256MiB bench/compression.sh
#   FLUSHLAB_JAR=other.jar bench/compression.sh   (another build, for a before/after comparison)
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=bench/lib.sh
. bench/lib.sh
flushlab_jar bench/compression.sh
command -v curl >/dev/null || { echo "bench/compression.sh: curl is not installed (apt-get install curl)" >&2; exit 1; }
total=${TOTAL:-64MiB}
port=18290
if (exec 3<>/dev/tcp/127.0.0.1/$port) 2>/dev/null; then echo "bench/compression.sh: port $port is in use; free it and run again" >&2; exit 1; fi
tmp=$(mktemp -d)
"${fl[@]}" emitter --listen 127.0.0.1:$port >"$tmp/emitter.log" 2>&1 &
emitter=$!
trap 'kill $emitter 2>/dev/null || true; wait 2>/dev/null || true; rm -rf "$tmp"' EXIT INT TERM
for _ in $(seq 1 600); do grep -q "listening on" "$tmp/emitter.log" 2>/dev/null && break; sleep 0.05; done

median() { sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
# flushlab: "gzip: W wire B for D decoded" (or the plain body's bytes) over "batch S s"
fl_rate() {
  local url=$1 profile=$2
  for _ in 1 2 3; do
    "${fl[@]}" client --target "$url" --client "$profile" >"$tmp/fl" 2>&1 || { cat "$tmp/fl" >&2; exit 1; }
    awk '/^batch/ { s = $2 } /decoded/ { for (i = 1; i <= NF; i++) if ($i == "decoded") d = $(i - 1) }
         END { if (d == "") d = ENVIRON["PLAIN_BYTES"]; printf "%.1f\n", d / s / 1e6 }' "$tmp/fl"
  done | median
}
curl_rate() {
  local url=$1 flag=$2
  for _ in 1 2 3; do
    curl -s $flag -o "$tmp/body" -w '%{time_total}\n' "$url" >"$tmp/t"
    awk -v bytes="$(stat -c %s "$tmp/body")" '{ printf "%.1f\n", bytes / $1 / 1e6 }' "$tmp/t"
  done | median
}
# the plain body's size, for flushlab's line (it prints decoded bytes only for a compressed body)
PLAIN_BYTES=$(numfmt --from=iec "${total%iB}") || { echo "bench/compression.sh: TOTAL=$total: give a size like 64MiB" >&2; exit 1; }
export PLAIN_BYTES
base="http://127.0.0.1:$port/sse?total=$total&size=16KiB&interval=0ms"
fl_gzip=$(fl_rate "$base&encoding=gzip&flush=none" browser)
curl_gzip=$(curl_rate "$base&encoding=gzip&flush=none" --compressed)
fl_plain=$(fl_rate "$base" bare)
curl_plain=$(curl_rate "$base" "")
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'; }
echo "bulk read of $total in 16 KiB events, decoded MB/s (median of 3), emitter on this machine"
echo
echo "| body | flushlab client | curl | flushlab / curl |"
echo "|---|---:|---:|---:|"
echo "| gzip (flushlab --client browser, curl --compressed) | $fl_gzip | $curl_gzip | $(ratio "$fl_gzip" "$curl_gzip") |"
echo "| plain (flushlab --client bare, curl) | $fl_plain | $curl_plain | $(ratio "$fl_plain" "$curl_plain") |"
