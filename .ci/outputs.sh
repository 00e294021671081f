#!/usr/bin/env bash
# Writes what BINARY prints for every fixture and every ../shared/corpus file
# (explain text/json, lint json, and per cluster hash, subset and sweep; diff
# for fixtures/diff pairs) into OUTDIR, one file per run, so that two builds
# can be compared with `diff -r`. A refactor must leave the two trees equal.
#   .ci/outputs.sh BINARY OUTDIR
set -uo pipefail
bin=$(realpath "$1"); out=$2
cd "$(dirname "$0")/.."
mkdir -p "$out"
run() { # NAME ARGS...: stdout, stderr and exit code of one run
  local name=$1; shift
  local f="$out/$(printf '%s' "$name" | tr '/ |' '___')"
  timeout 60 "$bin" "$@" >"$f.out" 2>"$f.err" </dev/null
  echo "exit $?" >>"$f.err"
}
files=$( (git ls-files 'fixtures/*.yaml' 'fixtures/*.yml' 'fixtures/*.json'; \
  [ -d ../shared/corpus ] && find ../shared/corpus -type f \( -name '*.yaml' -o -name '*.yml' -o -name '*.json' \) | grep -v LINT-LABELS) | sort)
for f in $files; do
  case $f in fixtures/fuzzing/*|fixtures/gen/*|fixtures/tests/*|*.tests.json) continue ;; esac
  n=${f#../shared/}
  run "$n.explain" explain --color never "$f"
  run "$n.explain.json" -o json explain "$f"
  run "$n.lint.json" -o json lint "$f"
  clusters=$(timeout 60 "$bin" -o json explain "$f" 2>/dev/null | python3 -c '
import json,sys
try:
  d=json.load(sys.stdin)
  for c in (d.get("clusters") or [])[:8]: print(c["name"])
except Exception: pass' 2>/dev/null)
  while IFS= read -r c; do
    [ -n "$c" ] || continue
    run "$n.hash.$c" hash --color never "$f" --cluster "$c"
    run "$n.subset.$c" -o json subset "$f" --cluster "$c"
    run "$n.sweep.$c" sweep --color never "$f" --cluster "$c"
  done <<<"$clusters"
done
for d in fixtures/diff/*/; do
  [ -f "$d/old.yaml" ] && run "diff.$d" diff --color never "$d/old.yaml" "$d/new.yaml"
  [ -f "$d/old.yaml" ] && run "diff.json.$d" -o json diff "$d/old.yaml" "$d/new.yaml"
done
echo "$(ls "$out" | wc -l) files in $out"
