#!/usr/bin/env bash
# A/B of the blocking path between two builds of the sample application (e.g. the previous commit and this one):
# wrk on /benchmark/hello and /benchmark/json, one server at a time, in alternating rounds, and the new/old ratio.
#
#   gatling/ab-wrk.sh OLD NEW [target...]
#
# OLD and NEW are each a sample jar (sample-boot-app/target/sprout/sample-boot-app-sprout.jar) or a commit of this
# repository (HEAD~1, a1b2c3d), which is exported with `git archive` and built from scratch (profile FLAVOUR, default
# sprout, with the engine and the starter). Targets (default sprout-nio-platform): any of compare.sh's targets whose
# server both jars run, e.g. `sprout-nio-platform sprout-hybrid-platform`; each adds a full set of rounds.
#
# Each round starts every jar in turn (old first in odd rounds, new first in even rounds) on CPU SERVER_CPU, warms it
# with wrk on CPU LOAD_CPU (AB_WARMUP windows, each spread over the endpoints; their rates are printed so a server
# still warming shows, but not recorded), measures every endpoint for AB_SECONDS and stops it. So each measured round
# is a fresh JVM after the same warm-up, and only one server is up at any time. After the fixed warm-up windows it
# keeps warming in AB_SETTLE_WINDOW windows until the JIT compiler threads were busy for less than
# AB_JIT_SETTLED_PERMILLE ms per second of the last window (at most AB_WARMUP_MAX s in all): a pinned server measured
# while C2 is still compiling runs several times slower. Defaults: 3 rounds, 40 s + 30 s of warm-up (+ settling,
# usually 20-60 s), 10 s per endpoint: about 2-2.5 min per start, 12-15 min for one target.
#
# Prints requests/s per round, each side's median and the ratio new/old of the medians (and of each round's pair),
# and the load average before and after. Run it alone on a quiet machine: anything else running moves both sides, but
# not alike. Results: docs/benchmarks/<date>-ab-<time>/ (results.md, results.csv, machine.md, rows.jsonl); wrk and
# server logs in bench-results/<same id>/ (git-ignored).
#
# Verdicts (as compare.sh's): every wrk run's exit status goes into its row and non-zero fails it (124: timed out);
# a measured round whose machine had more than MAX_LOAD CPUs busy with other work in the second before it is refused
# and left out of its side's median; a side whose rounds spread more than MAX_SPREAD_PERCENT of their median (max -
# min) refuses the comparison: no ratio, marked in the table. Exit status, after the report is written: 0 every
# comparison valid, 1 a round failed (or a ratio is missing), 3 a comparison refused.
#
# Knobs: AB_ROUNDS (3), AB_SECONDS (10), AB_WARMUP ("40 30", seconds per window), AB_SETTLE_WINDOW (20),
#   AB_JIT_SETTLED_PERMILLE (20, i.e. 2 % of one CPU), AB_WARMUP_MAX (300), AB_ENDPOINTS ("hello json"),
#   AB_CONNECTIONS (50, one wrk thread), FLAVOUR (sprout: the profile a commit is built with), PIN (1 = server on CPU
#   SERVER_CPU, wrk on CPU LOAD_CPU), JVM_FLAGS (as compare.sh), APP_ARGS, PORT (first port tried), OUT_DIR, RAW_DIR,
#   AB_TLS (0; 1 = both sides on HTTPS with one EC P-256 key made for the run, as compare.sh's tls preset: wrk keeps
#   its connections, so this measures TLS keep-alive).
#   Maven flags for building a commit go in MAVEN_ARGS (e.g. -Dmaven.repo.local=...). MAX_LOAD (0.5, "none" = off),
#   MAX_SPREAD_PERCENT (10, "none" = off), LOAD_SAMPLE_SECONDS (1).
set -uo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
REPORT="$ROOT/gatling/scripts/benchreport.py"
# shellcheck source=scripts/bench-lib.sh
. "$ROOT/gatling/scripts/bench-lib.sh"

[ $# -ge 2 ] || usage
OLD_SOURCE=$1
NEW_SOURCE=$2
shift 2
TARGETS=("$@")
[ ${#TARGETS[@]} -eq 0 ] && TARGETS=(sprout-nio-platform)
for target in "${TARGETS[@]}"; do
  is_target "$target" || { echo "Unknown target '$target'." >&2; usage; }
done

: "${AB_ROUNDS:=3}" "${AB_SECONDS:=10}" "${AB_WARMUP:=40 30}" "${AB_ENDPOINTS:=hello json}" "${AB_CONNECTIONS:=50}"
: "${AB_SETTLE_WINDOW:=20}" "${AB_WARMUP_MAX:=300}" "${AB_JIT_SETTLED_PERMILLE:=20}"
: "${FLAVOUR:=sprout}" "${APP_ARGS:=}" "${PIN:=1}" "${SERVER_CPU:=0}" "${LOAD_CPU:=1}" "${PORT:=8080}"
# The same flags as compare.sh, for both sides.
: "${JVM_FLAGS:=-Xms512m -Xmx512m -XX:+UseSerialGC -XX:+ExitOnOutOfMemoryError}"
# Verdicts, as compare.sh's (its header says why these defaults): a measured round after a busy second is refused,
# and so is a side whose rounds spread more than MAX_SPREAD_PERCENT of their median (no ratio then).
: "${MAX_LOAD:=0.5}" "${MAX_SPREAD_PERCENT:=10}" "${LOAD_SAMPLE_SECONDS:=1}"

for source in "$OLD_SOURCE" "$NEW_SOURCE"; do
  [ -f "$source" ] || git -C "$ROOT" rev-parse --verify --quiet "$source^{commit}" > /dev/null \
    || { echo "'$source' is neither a jar nor a commit." >&2; exit 2; }
done

RUN_ID="$(date -u +%Y-%m-%d)-ab-$(date -u +%H%M%S)"
: "${OUT_DIR:=$ROOT/docs/benchmarks/$RUN_ID}"
: "${RAW_DIR:=$ROOT/bench-results/$RUN_ID}"
begin_run
: "${AB_TLS:=0}"
if [ "$AB_TLS" = 1 ]; then
  SCHEME=https
  APP_ARGS="$APP_ARGS $(bench_key_store "$RAW_DIR/tls")"
fi
need_package wrk wrk

# ------------------------------------------------------------------ the two jars
declare -A JAR=()
declare -A PROVENANCE=()
prepare_side() { # side source
  local side=$1 source=$2 commit dir jar
  if [ -f "$source" ]; then
    JAR[$side]=$(readlink -f "$source")
    PROVENANCE[$side]="jar \`${JAR[$side]}\`, built $(date -u -r "${JAR[$side]}" '+%Y-%m-%d %H:%M') UTC"
  elif commit=$(git -C "$ROOT" rev-parse --verify --quiet "$source^{commit}"); then
    dir="$RAW_DIR/src-$side"
    progress "$side: exporting commit ${commit:0:7} and building sample-boot-app-$FLAVOUR.jar from scratch"
    rm -rf "$dir" && mkdir -p "$dir"
    git -C "$ROOT" archive --format=tar "$commit" | tar -x -C "$dir" || die "git archive $commit failed"
    jar=$(build_sample_jar "$dir" "$FLAVOUR" "$RAW_DIR/logs/build-$side.log") \
      || die "building $source failed: see $RAW_DIR/logs/build-$side.log"
    JAR[$side]="$RAW_DIR/$side-$(basename "$jar")"
    mv "$jar" "${JAR[$side]}"
    rm -rf "$dir"
    PROVENANCE[$side]="commit \`${commit:0:10}\` ($(git -C "$ROOT" log -1 --format=%s "$commit")), built from scratch by this run"
  else
    die "'$source' is neither a jar nor a commit"
  fi
  PROVENANCE[$side]+=", sha256 $(sha256sum "${JAR[$side]}" | cut -c1-12)"
  progress "$side: ${PROVENANCE[$side]}"
}
prepare_side old "$OLD_SOURCE"
prepare_side new "$NEW_SOURCE"
[ "$(sha256sum < "${JAR[old]}")" = "$(sha256sum < "${JAR[new]}")" ] && progress "WARNING: both jars are identical"

# ------------------------------------------------------------------ one side of one round
requests_per_second() { sed -n 's/^Requests\/sec: *\([0-9.]*\).*/\1/p' "$1"; }

ENDPOINT_COUNT=$(wc -w <<< "$AB_ENDPOINTS")
FAILED=0
# One warm-up window of `seconds`, spread over the endpoints; sets WARM_RATES to what each endpoint reached.
warm_window() { # port log-prefix seconds
  local port=$1 prefix=$2 seconds=$(( $3 / ENDPOINT_COUNT )) endpoint
  [ "$seconds" -lt 1 ] && seconds=1
  WARM_RATES=""
  for endpoint in $AB_ENDPOINTS; do
    run_wrk "$AB_CONNECTIONS" "$seconds" "$prefix-$endpoint.log" "$SCHEME://127.0.0.1:$port/benchmark/$endpoint"
    WARM_RATES+=" /$endpoint $(requests_per_second "$prefix-$endpoint.log")"
  done
}

# One warm-up window that also measures the JIT compilers' CPU time in it: sets JIT_USED (ms), adds to WARMED (s).
warm_step() { # pid port log-prefix seconds label
  local before
  before=$(jit_cpu_ms "$1")
  warm_window "$2" "$3" "$4"
  JIT_USED=$(( $(jit_cpu_ms "$1") - before ))
  WARMED=$((WARMED + $4))
  progress "   $5 (${4}s, not recorded):$WARM_RATES req/s; JIT compilers busy ${JIT_USED} ms"
}

run_side() { # round target side
  local round=$1 target=$2 side=$3 port pid window endpoint log meta
  local prefix="$RAW_DIR/logs/$target-r$round-$side"
  port=$(free_port "$PORT")
  progress "round $round/$AB_ROUNDS, $target, $side: starting on 127.0.0.1:$port (CPU $SERVER_CPU) $(props_of "$target")"
  start_server "${JAR[$side]}" "$target" "$port" "$prefix-server.log"
  pid=$SERVER_PID
  if ! wait_ready "$pid" "$port" > /dev/null; then
    progress "   -> FAILED: the server exited or was not ready within 180 s (see $prefix-server.log)"
    record_start_failure "$target" "$prefix-server.log" "$pid" side="$side" round="$round"
    FAILED=1
    return 1
  fi
  local problem
  if ! problem=$(check_identity "$target" "$port"); then
    progress "   -> FAILED: $problem"
    record_status "$target" failed "$problem" side="$side" round="$round"
    stop_server "$pid"
    FAILED=1
    return 1
  fi
  WATCH_PID=$pid
  local index=0 window
  WARMED=0
  for window in $AB_WARMUP; do
    index=$((index + 1))
    warm_step "$pid" "$port" "$prefix-warmup$index" "$window" "warm-up $index"
  done
  # Measure only once the JIT compilers have finished: pinned to one CPU beside 50 busy workers, C2 gets a small
  # share of it, and a server measured while it is still compiling runs at a fraction of its speed (seen: 5,000
  # against 35,000 req/s for the same jar), so a fixed warm-up ranks the sides by the luck of their compile queues.
  while [ "$JIT_USED" -ge $((AB_JIT_SETTLED_PERMILLE * window)) ]; do
    if [ "$WARMED" -ge "$AB_WARMUP_MAX" ]; then
      progress "   WARNING: the JIT was still compiling after ${WARMED}s of warm-up; this round may be slow"
      break
    fi
    index=$((index + 1))
    window=$AB_SETTLE_WINDOW
    warm_step "$pid" "$port" "$prefix-warmup$index" "$window" "settling $index"
  done
  for endpoint in $AB_ENDPOINTS; do
    log="$prefix-$endpoint.log"
    progress "   round $round /$endpoint:"
    sample_load
    run_wrk "$AB_CONNECTIONS" "$AB_SECONDS" "$log" --latency "$SCHEME://127.0.0.1:$port/benchmark/$endpoint"
    read -ra meta <<< "$(meta_of "$target")"
    record wrk "$log" "${meta[@]}" "${MEASURED[@]}" side="$side" simulation="wrk-$endpoint" round="$round"
  done
  WATCH_PID=""
  kill -0 "$pid" 2>/dev/null || { progress "   WARNING: the server died during the round (see $prefix-server.log)"; FAILED=1; }
  stop_server "$pid"
}

# ------------------------------------------------------------------ main
START_LOAD=$(cut -d' ' -f1-3 /proc/loadavg)
progress "A/B, wrk on /benchmark/{${AB_ENDPOINTS// /,}}: ${TARGETS[*]}; $AB_ROUNDS rounds; load average $START_LOAD"
for round in $(seq 1 "$AB_ROUNDS"); do
  order=(old new)
  [ $((round % 2)) -eq 0 ] && order=(new old)
  for target in "${TARGETS[@]}"; do
    for side in "${order[@]}"; do
      run_side "$round" "$target" "$side"
    done
  done
done
END_LOAD=$(cut -d' ' -f1-3 /proc/loadavg)

{
  echo "## A/B run $RUN_ID: the blocking path, old against new"
  echo
  machine_lines
  echo "- load average (1/5/15 min) when the run ended: $END_LOAD"
  echo "- old: ${PROVENANCE[old]}"
  echo "- new: ${PROVENANCE[new]}"
  [ "$AB_TLS" = 1 ] && echo "- TLS: both sides on HTTPS with one EC P-256 key generated for this run; wrk (OpenSSL) keeps its connections"
  echo "- server JVM flags (both sides): \`$JVM_FLAGS\`${APP_ARGS:+; application arguments \`$APP_ARGS\`}"
  pinning_line wrk "; one server up at a time"
  echo "- wrk: /benchmark/{${AB_ENDPOINTS// /,}}, 1 thread, $AB_CONNECTIONS connections; $AB_ROUNDS rounds of ${AB_SECONDS}s per endpoint, each on a fresh JVM after warm-up windows of ${AB_WARMUP// /s + }s (spread over the endpoints), then ${AB_SETTLE_WINDOW}s windows until the JIT compilers used < ${AB_JIT_SETTLED_PERMILLE} ms per s (at most ${AB_WARMUP_MAX}s in all); old first in odd rounds, new first in even ones"
  echo "- targets: ${TARGETS[*]}"
  echo "- raw logs: bench-results/$RUN_ID/ (not committed)"
} > "$OUT_DIR/machine.md"

echo
# Written first, judged after: 0 every comparison valid, 1 a round failed, 3 a comparison refused.
python3 -B "$REPORT" ab "$OUT_DIR" max_spread_percent="$MAX_SPREAD_PERCENT" max_load="$MAX_LOAD"
VERDICT=$?
echo
progress "load average (1/5/15 min): $START_LOAD before, $END_LOAD after"
progress "done in $(( $(date +%s) - START_EPOCH ))s: $OUT_DIR"
[ "$FAILED" = 1 ] && VERDICT=1
exit "$VERDICT"
