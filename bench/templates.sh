#!/usr/bin/env bash
# Every shipped proxy template (scenarios/proxies/*), or those named, mapped by `flushlab map --proxy
# KIND --config TEMPLATE --verify` as the default client: one table row each with the answer's
# kind, its model and what replaying the model said, and the seconds it took; a map that fails
# says how (its exit code and last line). The proxy's kind is the template's name up to its first
# '-'; a template for h2c (its name says so) is mapped over HTTP/2 by prior knowledge (--http h2c), as
# a gateway's next hop would speak to it. About 20 s a template; a proxy that is not installed is a
# row saying so.
#
#   bench/templates.sh                     bench/templates.sh nginx-stock.conf haproxy-stock.cfg
set -euo pipefail
cd "$(dirname "$0")/.."
. bench/lib.sh
flushlab_jar bench/templates.sh
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM

if [ $# -gt 0 ]; then templates=("$@"); else
  templates=()
  for f in scenarios/proxies/*; do templates+=("$(basename "$f")"); done
fi
echo "flushlab map --verify of each template ($jar; $(date -u +%Y-%m-%d))"
echo
echo "| template | answer | model, replayed | s |"
echo "|---|---|---|---:|"
for t in "${templates[@]}"; do
  file=scenarios/proxies/$t
  [ -f "$file" ] || { echo "| \`$t\` | no such template in scenarios/proxies | - | - |"; continue; }
  kind=${t%%-*}
  log="$tmp/$t.log"
  http=()
  case "$t" in *h2c*) http=(--http h2c);; esac
  rc=0
  "${fl[@]}" map --proxy "$kind" --config "$file" "${http[@]}" --verify --results "$tmp/results" >"$log" 2>&1 || rc=$?
  map_answer "$log" 220
  if [ $rc -ne 0 ] && [ -z "$secs" ]; then
    echo "| \`$t\` | map failed (exit $rc): $(grep -v '^\s*$' "$log" | tail -1 | cut -c1-200 | tr '|' '/') | - | - |"
  else
    echo "| \`$t\` | ${verdict:--} | ${model:--}${replay:+; $replay} | ${secs:--} |"
  fi
done
