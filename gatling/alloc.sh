#!/usr/bin/env bash
# Allocation per request, measured with JFR: bytes the JVM allocates to serve one request of one path, end to end,
# and where. For each target in turn: start its server alone (pinned like every benchmark), warm it with wrk until
# the JIT has settled, record JFR (`settings=profile`) while wrk sends ALLOC_SECONDS of load, stop the server.
#
#   gatling/alloc.sh PATH target...      e.g. gatling/alloc.sh /benchmark/json sprout-webflux-nio-platform netty
#
# Bytes per request = the heap's growth between collections (jdk.GCHeapSummary: used before each GC less used after
# the previous one), as a rate over the recorded interval, divided by the request rate wrk measured in it; with
# -XX:+UseSerialGC nothing is allocated outside that growth. The top allocating classes and sites come from JFR's
# allocation samples (`jfr view allocation-by-class` / `allocation-by-site`): weights, so shares, not exact bytes.
# The JVM flags are compare.sh's (JVM_FLAGS), the same for every target.
#
# Results: docs/benchmarks/<date>-alloc-<time>/ (results.md: the machine and its load before and after, the
# per-request figures, each target's top classes and sites; rows.jsonl); recordings, wrk and server logs in
# bench-results/<same id>/. wrk's exit status goes into the row (gatling/scripts/allocreport.py writes it): a row whose
# wrk exited non-zero (124: timed out) or saw errors is marked failed, and the run exits non-zero after the report.
# The machine's load is not judged: bytes per request do not depend on speed.
# Knobs: ALLOC_SECONDS (20), ALLOC_WARMUP (30, then settling as ab-wrk.sh), ALLOC_CONNECTIONS (50), PIN (1),
#   SERVER_CPU (0), LOAD_CPU (1), PORT (8080), JVM_FLAGS, APP_ARGS, OUT_DIR, RAW_DIR. Jars must be built
#   (compare.sh builds them; or ./mvnw -pl sample-boot-app -am package -DskipTests -P <flavour>).
set -uo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
REPORT="$ROOT/gatling/scripts/allocreport.py"
# shellcheck source=scripts/bench-lib.sh
. "$ROOT/gatling/scripts/bench-lib.sh"

[ $# -ge 2 ] || usage
REQUEST_PATH=$1
shift
TARGETS=("$@")
[[ "$REQUEST_PATH" == /* ]] || { echo "PATH must start with /: $REQUEST_PATH" >&2; usage; }
for target in "${TARGETS[@]}"; do
  is_target "$target" || { echo "Unknown target '$target'." >&2; usage; }
done

: "${ALLOC_SECONDS:=20}" "${ALLOC_WARMUP:=30}" "${ALLOC_CONNECTIONS:=50}" "${APP_ARGS:=}" "${PIN:=1}"
: "${SERVER_CPU:=0}" "${LOAD_CPU:=1}" "${PORT:=8080}" "${SCHEME:=http}"
: "${JVM_FLAGS:=-Xms512m -Xmx512m -XX:+UseSerialGC -XX:+ExitOnOutOfMemoryError}"
RUN_ID="$(date -u +%Y-%m-%d)-alloc-$(date -u +%H%M%S)"
: "${OUT_DIR:=$ROOT/docs/benchmarks/$RUN_ID}"
: "${RAW_DIR:=$ROOT/bench-results/$RUN_ID}"
begin_run
need_package wrk wrk
JCMD="$(dirname "$JAVA")/jcmd"
JFR="$(dirname "$JAVA")/jfr"

load() { # seconds log
  run_wrk "$ALLOC_CONNECTIONS" "$1" "$2" --latency "$SCHEME://127.0.0.1:$PORT_IN_USE$REQUEST_PATH"
}

progress "JFR allocation profile of $REQUEST_PATH: ${TARGETS[*]}; load average $START_LOAD"
for target in "${TARGETS[@]}"; do
  flavour=$(flavour_of "$target")
  jar="$ROOT/sample-boot-app/target/$flavour/sample-boot-app-$flavour.jar"
  [ -f "$jar" ] || die "$jar is missing: build the $flavour profile first"
  PORT_IN_USE=$(free_port "$PORT")
  log="$RAW_DIR/logs/$target-server.log"
  start_server "$jar" "$target" "$PORT_IN_USE" "$log"
  pid=$SERVER_PID
  wait_ready "$pid" "$PORT_IN_USE" > /dev/null || die "$target did not start: see $log"
  WATCH_PID=$pid
  load "$ALLOC_WARMUP" "$RAW_DIR/logs/$target-warmup.log"
  # Settled when the JIT compiler threads used under 2 % of a CPU over a 10 s window (at most 6 windows).
  for _ in 1 2 3 4 5 6; do
    jit_settles_during "$pid" 20 10 load 10 "$RAW_DIR/logs/$target-settle.log" && break
  done
  recording="$RAW_DIR/$target.jfr"
  "$JCMD" "$pid" JFR.start name=alloc settings=profile filename="$recording" > /dev/null \
    || die "JFR.start failed for $target"
  # Bytes per request do not depend on speed, so the machine's load is not sampled: MEASURED carries wrk's exit status.
  load "$ALLOC_SECONDS" "$RAW_DIR/logs/$target-measured.log"
  "$JCMD" "$pid" JFR.stop name=alloc > /dev/null || die "JFR.stop failed for $target"
  WATCH_PID=""
  stop_server "$pid"
  "$JFR" print --json --events jdk.GCHeapSummary "$recording" > "$RAW_DIR/$target-heap.json" \
    || die "jfr print failed for $target"
  for view in allocation-by-class allocation-by-site; do
    "$JFR" view --width 150 "$view" "$recording" > "$RAW_DIR/$target-$view.txt" 2>&1
  done
  progress "$target:"
  # shellcheck disable=SC2046 # meta_of's words
  record "$RAW_DIR/$target-heap.json" "$RAW_DIR/logs/$target-measured.log" $(meta_of "$target") "${MEASURED[@]}" \
    path="$REQUEST_PATH" seconds="$ALLOC_SECONDS" || die "no row for $target"
done
END_LOAD=$(cut -d' ' -f1-3 /proc/loadavg)
python3 "$REPORT" report "$ROWS" "$RAW_DIR" "$START_LOAD" "$END_LOAD" > "$OUT_DIR/results.md"
status=$?
progress "Results: $OUT_DIR/results.md (load average $START_LOAD before, $END_LOAD after)"
[ "$status" -eq 0 ] || die "a measurement failed or could not be made: see its status in results.md"

