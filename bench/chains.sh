#!/usr/bin/env bash
# Chains of shapers drawn at random, each mapped blind: what the map answers for a stack it was
# not told about. Each chain is LENGTH (1 or 2, default 2) of {byte-threshold, timer, periodic timer, cork, nagle, one-late,
# compress with a flush policy, idle-timeout, first-content} with random parameters; `flushlab map
# --shape A --shape B --verify --expect 'A -> B' --expect-tolerance 5%` maps it (as CLIENT, a
# --client profile, when set: CLIENT=browser), and the row says:
#   right         the answer's model is the hidden chain, parameters within 5 %, and replays
#   inconclusive  the map gave no model (it says why: its answer column)
#   other model   a model that is not the hidden chain reproduced every cell the map measured (a
#                 stack that, on those cells, behaves as something simpler: read the two); ", value
#                 said untold" where the answer says a value fits every cell alike over a span
#   not certified / failed (exit N): this host or the map, not the stack
# A verified model is only given when its replay matched; so "other model" is the row to read.
# The seed is printed; the same seed draws the same chains. About 20 s a chain.
#
#   bench/chains.sh [CHAINS [SEED [LENGTH]]]   (defaults: 8 chains, a seed from the clock, 2 shapers)
set -euo pipefail
cd "$(dirname "$0")/.."

n=${1:-8}
seed=${2:-$(date +%s)}
length=${3:-2}
case "$n$seed" in *[!0-9]*) echo "bench/chains.sh: CHAINS and SEED are whole numbers (got '$n' '$seed')" >&2; exit 1;; esac
case "$length" in 1|2) ;; *) echo "bench/chains.sh: LENGTH is 1 or 2 (got '$length')" >&2; exit 1;; esac
client=()
[ -n "${CLIENT:-}" ] && client=(--client "$CLIENT")
. bench/lib.sh
flushlab_jar bench/chains.sh
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
RANDOM=$seed

# draws into $pick, in this shell: a subshell ($(...)) would reseed RANDOM and lose the seed
draw() {
  local flush
  case $(( RANDOM % 9 )) in
    0) pick="byte-threshold=$(( 1024 + RANDOM % 7169 ))B" ;;
    1) pick="timer=$(( 40 + RANDOM % 261 ))ms" ;;
    2) pick="timer=$(( 60 + RANDOM % 241 ))ms,periodic=true" ;;
    3) pick="cork" ;;
    4) pick="nagle" ;;
    5) pick="one-late" ;;
    6) case $(( RANDOM % 6 )) in
         0) flush=each ;;
         1) flush=none ;;
         2) flush="bytes,bytes=$(( 512 + RANDOM % 3585 ))B" ;;
         3) flush="timer,after=$(( 40 + RANDOM % 161 ))ms" ;;
         4) flush="input,bytes=$(( 1024 + RANDOM % 7169 ))B" ;;
         5) flush=next ;;
       esac
       pick="compress=gzip,flush=$flush" ;;
    7) pick="idle-timeout=$(( 2 + RANDOM % 4 ))s" ;;
    8) pick="first-content=any" ;;
  esac
}

echo "bench/chains.sh: $n chains of $length, seed $seed (bench/chains.sh $n $seed $length draws them again)${CLIENT:+, as $CLIENT}; $jar; $(date -u +%Y-%m-%d)"
echo
echo "| hidden chain | answer | model, replayed | row | s |"
echo "|---|---|---|---|---:|"
for i in $(seq 1 "$n"); do
  draw; shapes=(--shape "$pick"); hidden=$pick
  if [ "$length" = 2 ]; then draw; shapes+=(--shape "$pick"); hidden="$hidden -> $pick"; fi
  log="$tmp/$i.log"
  rc=0
  "${fl[@]}" map "${shapes[@]}" "${client[@]}" --verify --expect "$hidden" --expect-tolerance 5% --results "$tmp/results" >"$log" 2>&1 || rc=$?
  map_answer "$log" 200
  case "$rc" in
    0) row="right" ;;
    3) row="not certified" ;;
    1) case "$model" in
         ''|none*) row="inconclusive" ;;
         # the answer says its value is one of a span the cells fit alike: read whether the
         # hidden value is in it
         *) row="other model"; grep -q 'which no cell measured pins' "$log" && row="other model, value said untold" ;;
       esac ;;
    *) row="failed (exit $rc)"; verdict=$(grep -v '^\s*$' "$log" | tail -1 | cut -c1-200 | tr '|' '/') ;;
  esac
  echo "| \`$hidden\` | ${verdict:--} | ${model:--}${replay:+; $replay} | $row | ${secs:--} |"
done
