#!/usr/bin/env bash
# Runs the Autobahn|Testsuite (fuzzingclient mode) against Sprout's WebSocket echo in each engine combination and
# writes a summary to docs/autobahn.md. Loopback only; each run is bounded by its case list.
#
# Usage: gatling/autobahn/run.sh [combination ...]   (default: nio-platform nio-virtual hybrid-platform hybrid-virtual)
# Knobs: CASES (JSON list, default ["*"]), EXCLUDE (default []), PORT (9001), AUTOBAHN_HOME (where the suite is
#        installed, default ~/.cache/sprout/autobahn), REPORTS (default target/autobahn under the repository),
#        SKIP_BUILD (1 = use the engine jar already built, e.g. for runs side by side on different PORTs).
# Needs Python 2.7.18 under pyenv (the suite runs on Python 2 only); installs the suite on first use.
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cd "$ROOT"

: "${CASES:=[\"*\"]}" "${EXCLUDE:=[]}" "${PORT:=9001}" "${SKIP_BUILD:=0}"
: "${AUTOBAHN_HOME:=$HOME/.cache/sprout/autobahn}" "${REPORTS:=$ROOT/target/autobahn}"
COMBINATIONS=("$@")
[ ${#COMBINATIONS[@]} -eq 0 ] && COMBINATIONS=(nio-platform nio-virtual hybrid-platform hybrid-virtual)

python2() { PYENV_VERSION=2.7.18 pyenv exec python "$@"; }

if [ ! -d "$AUTOBAHN_HOME/autobahntestsuite" ]; then
  echo "Installing autobahntestsuite into $AUTOBAHN_HOME"
  python2 -m pip install -q --target "$AUTOBAHN_HOME" autobahntestsuite
  # zope.interface ships without the namespace package's __init__ when installed with --target.
  touch "$AUTOBAHN_HOME/zope/__init__.py"
fi

[ "$SKIP_BUILD" = 1 ] || ./mvnw -B -ntp -q -pl sprout-engine package -DskipTests
JAR=$(ls sprout-engine/target/sprout-engine-*.jar | grep -v sources | head -1)
mkdir -p "$REPORTS"

server_pid=""
# A JVM ended by SIGTERM exits with 143: under `set -e` that status must not end the run.
stop_server() {
  if [ -n "$server_pid" ]; then
    kill "$server_pid" 2>/dev/null || true
    wait "$server_pid" 2>/dev/null || true
  fi
  server_pid=""
}
trap stop_server EXIT

for combination in "${COMBINATIONS[@]}"; do
  mode=${combination%-*}
  threads=${combination#*-}
  java -cp "$JAR" io.sprout.engine.hello.HelloServer --port "$PORT" --execution-mode "$mode" \
    --thread-type "$threads" > "$REPORTS/$combination-server.log" 2>&1 &
  server_pid=$!
  for _ in $(seq 1 100); do
    (exec 3<>"/dev/tcp/127.0.0.1/$PORT") 2>/dev/null && break
    sleep 0.1
  done
  cat > "$REPORTS/$combination-spec.json" <<JSON
{"outdir": "$REPORTS/$combination", "servers": [{"agent": "sprout-$combination", "url": "ws://127.0.0.1:$PORT"}],
 "cases": $CASES, "exclude-cases": $EXCLUDE, "exclude-agent-cases": {}}
JSON
  echo "Autobahn against sprout-$combination"
  (cd "$REPORTS" && PYTHONPATH="$AUTOBAHN_HOME" python2 -c \
    "import sys; sys.argv=['wstest','-m','fuzzingclient','-s','$combination-spec.json']; \
from autobahntestsuite.wstest import run; run()" > "$REPORTS/$combination-wstest.log" 2>&1) || true
  # wstest exits non-zero after a complete run (its reactor's shutdown), so judge the run by its fresh report.
  if [ ! "$REPORTS/$combination/index.json" -nt "$REPORTS/$combination-spec.json" ]; then
    echo "Autobahn wrote no report for $combination: see $REPORTS/$combination-wstest.log" >&2
    exit 1
  fi
  stop_server
done

python3 gatling/autobahn/summarize.py "$REPORTS" "${COMBINATIONS[@]}" > docs/autobahn.md
cat docs/autobahn.md
