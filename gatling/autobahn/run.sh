#!/usr/bin/env bash
# Runs the Autobahn|Testsuite (fuzzingclient mode) against a WebSocket echo in each combination asked for and
# summarises every report under REPORTS. Loopback only; each run is bounded by its case list.
#
# Usage: [TARGET=...] gatling/autobahn/run.sh [combination ...]
#   TARGET (default engine; several may be given, space-separated) picks the echo under test:
#     engine          the engine's own echo (io.sprout.engine.hello.HelloServer), no Spring
#     spring          a Spring WebSocketHandler (@EnableWebSocket) in the sample app, container limits raised to 16 MiB
#     endpoint        a Jakarta @ServerEndpoint in the sample app (ServerEndpointExporter), limits raised to 16 MiB
#     default-limits  a TextWebSocketHandler in the sample app under the server's default limits
#   combination: nio-platform nio-virtual hybrid-platform hybrid-virtual (the default: all four), or, for the
#     sample-app targets only, tomcat (the same app built with the tomcat Maven profile, for comparison).
# Knobs: CASES (JSON list, default ["*"]), EXCLUDE (default []), PORT (9001), AUTOBAHN_HOME (where the suite is
#        installed, default ~/.cache/sprout/autobahn), REPORTS (default target/autobahn under the repository),
#        SKIP_BUILD (1 = use the jars already built, e.g. for runs side by side on different PORTs).
# Reports go to REPORTS/TARGET/COMBINATION/. The summary of every report under REPORTS is written to
# REPORTS/autobahn.md and, when the whole suite ran (CASES ["*"], EXCLUDE []), to docs/autobahn.md.
# Needs Python 2.7.18 under pyenv (the suite runs on Python 2 only); installs the suite on first use.
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cd "$ROOT"

: "${TARGET:=engine}" "${CASES:=[\"*\"]}" "${EXCLUDE:=[]}" "${PORT:=9001}" "${SKIP_BUILD:=0}"
: "${AUTOBAHN_HOME:=$HOME/.cache/sprout/autobahn}" "${REPORTS:=$ROOT/target/autobahn}"
read -r -a TARGETS <<< "$TARGET"
COMBINATIONS=("$@")
[ ${#COMBINATIONS[@]} -eq 0 ] && COMBINATIONS=(nio-platform nio-virtual hybrid-platform hybrid-virtual)

for target in "${TARGETS[@]}"; do
  case "$target" in
    engine|spring|endpoint|default-limits) ;;
    *) echo "Unknown TARGET $target: engine, spring, endpoint or default-limits" >&2; exit 2 ;;
  esac
done
for combination in "${COMBINATIONS[@]}"; do
  case "$combination" in
    nio-platform|nio-virtual|hybrid-platform|hybrid-virtual) ;;
    tomcat) [[ " ${TARGETS[*]} " != *" engine "* ]] || { echo "tomcat runs the sample-app targets only" >&2; exit 2; } ;;
    *) echo "Unknown combination $combination" >&2; exit 2 ;;
  esac
done

python2() { PYENV_VERSION=2.7.18 pyenv exec python "$@"; }

if [ ! -d "$AUTOBAHN_HOME/autobahntestsuite" ]; then
  echo "Installing autobahntestsuite into $AUTOBAHN_HOME"
  python2 -m pip install -q --target "$AUTOBAHN_HOME" autobahntestsuite
  # zope.interface ships without the namespace package's __init__ when installed with --target.
  touch "$AUTOBAHN_HOME/zope/__init__.py"
fi

ENGINE_JAR="sprout-engine/target/sprout-engine-*.jar"
APP_JAR=sample-boot-app/target/sprout/sample-boot-app-sprout.jar
TOMCAT_JAR=sample-boot-app/target/tomcat/sample-boot-app-tomcat.jar
if [ "$SKIP_BUILD" != 1 ]; then
  if [[ " ${TARGETS[*]} " == *" engine "* ]]; then
    ./mvnw -B -ntp -q -pl sprout-engine package -DskipTests
  fi
  if [[ " ${TARGETS[*]} " != " engine " ]]; then
    [[ " ${COMBINATIONS[*]} " == " tomcat " ]] || ./mvnw -B -ntp -q -pl sample-boot-app -am package -DskipTests -Psprout
    [[ " ${COMBINATIONS[*]} " != *" tomcat "* ]] || ./mvnw -B -ntp -q -pl sample-boot-app package -DskipTests -Ptomcat
  fi
fi

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

# Starts the echo of $1 (target) in combination $2 in the background, logging to $3; sets server_pid and path.
start_server() {
  local target=$1 combination=$2 log=$3
  if [ "$target" = engine ]; then
    java -cp "$(ls $ENGINE_JAR | grep -v sources | head -1)" io.sprout.engine.hello.HelloServer --port "$PORT" \
      --execution-mode "${combination%-*}" --thread-type "${combination#*-}" > "$log" 2>&1 &
    server_pid=$!
    path=""
    return
  fi
  local limits=raised jar=$APP_JAR server=()
  [ "$target" = default-limits ] && limits=default
  if [ "$combination" = tomcat ]; then
    jar=$TOMCAT_JAR
  else
    server=(--sprout.server.execution-mode="${combination%-*}" --sprout.server.thread-type="${combination#*-}")
  fi
  java -jar "$jar" --server.port="$PORT" --spring.profiles.active=autobahn --autobahn.limits="$limits" \
    "${server[@]}" > "$log" 2>&1 &
  server_pid=$!
  path="/autobahn/$target"
}

# Waits until the server answers on PORT (the sample app: until its limits endpoint answers, written to $1).
await_server() {
  local target=$1 limits=$2
  for _ in $(seq 1 600); do
    kill -0 "$server_pid" 2>/dev/null || return 1
    if [ "$target" = engine ]; then
      (exec 3<>"/dev/tcp/127.0.0.1/$PORT") 2>/dev/null && return 0
    else
      curl -sf "http://127.0.0.1:$PORT/autobahn/limits" -o "$limits" 2>/dev/null && return 0
    fi
    sleep 0.1
  done
  return 1
}

for target in "${TARGETS[@]}"; do
  mkdir -p "$REPORTS/$target"
  for combination in "${COMBINATIONS[@]}"; do
    run="$REPORTS/$target/$combination"
    agent="$target-$combination"
    [ "$target" = engine ] && agent="sprout-$combination"
    rm -f "$run-limits.json"
    start_server "$target" "$combination" "$run-server.log"
    if ! await_server "$target" "$run-limits.json"; then
      echo "The $agent server did not start: see $run-server.log" >&2
      exit 1
    fi
    cat > "$run-spec.json" <<JSON
{"outdir": "$run", "servers": [{"agent": "$agent", "url": "ws://127.0.0.1:$PORT$path"}],
 "cases": $CASES, "exclude-cases": $EXCLUDE, "exclude-agent-cases": {}}
JSON
    echo "Autobahn against $agent"
    (cd "$REPORTS/$target" && PYTHONPATH="$AUTOBAHN_HOME" python2 -c \
      "import sys; sys.argv=['wstest','-m','fuzzingclient','-s','$combination-spec.json']; \
from autobahntestsuite.wstest import run; run()" > "$run-wstest.log" 2>&1) || true
    # wstest exits non-zero after a complete run (its reactor's shutdown), so judge the run by its fresh report.
    if [ ! "$run/index.json" -nt "$run-spec.json" ]; then
      echo "Autobahn wrote no report for $agent: see $run-wstest.log" >&2
      exit 1
    fi
    stop_server
  done
done

python3 gatling/autobahn/summarize.py "$REPORTS" > "$REPORTS/autobahn.md"
if [ "$(tr -d ' ' <<< "$CASES")" = '["*"]' ] && [ "$(tr -d ' ' <<< "$EXCLUDE")" = '[]' ]; then
  cp "$REPORTS/autobahn.md" docs/autobahn.md
fi
cat "$REPORTS/autobahn.md"
