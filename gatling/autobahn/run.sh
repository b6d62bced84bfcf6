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
#     reactive        a Spring WebFlux WebSocketHandler in the sample app's WebFlux build (sprout-webflux Maven
#                     profile), Sprout's limits raised to 16 MiB (sprout.server.websocket.max-*-message-size)
#   combination: nio-platform nio-virtual hybrid-platform hybrid-virtual (the default: all four), or, for comparison,
#     tomcat (spring, endpoint, default-limits: the same app built with the tomcat Maven profile) or netty
#     (reactive: the WebFlux build on Reactor Netty, netty profile, its limit raised to 16 MiB as well).
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
    engine|spring|endpoint|default-limits|reactive) ;;
    *) echo "Unknown TARGET $target: engine, spring, endpoint, default-limits or reactive" >&2; exit 2 ;;
  esac
done
# The server a target is compared with: the Spring MVC targets on Tomcat, the WebFlux one on Reactor Netty.
reference_of() { case "$1" in engine) echo none ;; reactive) echo netty ;; *) echo tomcat ;; esac; }
for combination in "${COMBINATIONS[@]}"; do
  case "$combination" in
    nio-platform|nio-virtual|hybrid-platform|hybrid-virtual) ;;
    tomcat|netty)
      for target in "${TARGETS[@]}"; do
        [ "$(reference_of "$target")" = "$combination" ] || {
          echo "$combination runs no TARGET $target (tomcat: spring, endpoint, default-limits; netty: reactive)" >&2
          exit 2
        }
      done ;;
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
# The sample-app build (Maven profile) that runs a target in a combination: sprout, sprout-webflux, tomcat or netty.
app_profile() { # target combination
  case "$2" in
    tomcat|netty) echo "$2" ;;
    *) if [ "$1" = reactive ]; then echo sprout-webflux; else echo sprout; fi ;;
  esac
}
app_jar() { echo "sample-boot-app/target/$1/sample-boot-app-$1.jar"; } # profile
if [ "$SKIP_BUILD" != 1 ]; then
  if [[ " ${TARGETS[*]} " == *" engine "* ]]; then
    ./mvnw -B -ntp -q -pl sprout-engine package -DskipTests
  fi
  for profile in $(for target in "${TARGETS[@]}"; do
                     [ "$target" = engine ] && continue
                     for combination in "${COMBINATIONS[@]}"; do app_profile "$target" "$combination"; done
                   done | sort -u); do
    also_make=()
    [[ "$profile" == sprout* ]] && also_make=(-am)
    ./mvnw -B -ntp -q -pl sample-boot-app "${also_make[@]}" package -DskipTests -P"$profile"
  done
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
  local limits=raised server=()
  [ "$target" = default-limits ] && limits=default
  case "$combination" in
    tomcat|netty) ;;
    *)
      server=(--sprout.server.execution-mode="${combination%-*}" --sprout.server.thread-type="${combination#*-}")
      # Sprout's WebFlux sessions take their limits from its properties (autobahn.limits raises the Jakarta
      # container's for the Spring MVC targets, and Reactor Netty's).
      if [ "$target" = reactive ]; then
        server+=(--sprout.server.websocket.max-text-message-size=16MB
          --sprout.server.websocket.max-binary-message-size=16MB)
      fi ;;
  esac
  java -jar "$(app_jar "$(app_profile "$target" "$combination")")" --server.port="$PORT" \
    --spring.profiles.active=autobahn --autobahn.limits="$limits" "${server[@]}" > "$log" 2>&1 &
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
