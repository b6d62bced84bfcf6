#!/usr/bin/env bash
# Throughput of the engine's hello server in all four combinations against nginx, in one interleaved run.
#
#   sprout-engine/bench/hello-wrk.sh [window-seconds] [rounds]
#
# Each server is pinned to CPU 0 and wrk (-t1 -c50, keep-alive) to CPU 1. Every round measures every target once,
# in order, so drift on this noisy 2-core machine hits all targets alike. A JVM is measured only once its JIT has
# settled, as gatling/ab-wrk.sh does: after one warm-up window it keeps warming in windows of the same length until
# the compiler threads used under JIT_SETTLED_PERMILLE (20) ms per second of the last one, at most WARMUP_MAX (300) s.
# A fixed 10 s warm-up measured JVMs still compiling: the same nio-platform server served 92,530, 104,361, 136,603
# and 139,922 req/s in four 10 s windows in a row. nginx gets one window of the same length.
# Prints req/s per round, the median, the ratio of each median to nginx's, and refuses (marks, does not quote) a
# median whose rounds spread by more than MAX_SPREAD_PERCENT (10) of it, by the runner's rule (verdict.py). A wrk
# that fails, or prints no rate, fails the run. Loopback only; bounded in time.
set -euo pipefail
cd "$(dirname "$0")/../.."

DURATION=${1:-10}
ROUNDS=${2:-3}
: "${JIT_SETTLED_PERMILLE:=20}" "${WARMUP_MAX:=300}" "${MAX_SPREAD_PERCENT:=10}"
PORT=18088
JAR=sprout-engine/target/sprout-engine-0.1.0-SNAPSHOT.jar
JAVA_FLAGS=(-Xms512m -Xmx512m -XX:+UseParallelGC)

START_EPOCH=$(date +%s)
# The runners' shared functions: need_package, find_jdk, jit_settles_during (sourcing only defines them).
source gatling/scripts/bench-lib.sh
need_package wrk wrk
need_package nginx nginx-light
find_jdk
[ -f "$JAR" ] || ./mvnw -B -q -ntp -pl sprout-engine package -DskipTests

work=$(mktemp -d)
server_pid=""
cleanup() {
  [ -n "$server_pid" ] && kill "$server_pid" 2>/dev/null && wait "$server_pid" 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT

cat > "$work/nginx.conf" <<NGINX
worker_processes 1;
daemon off;
pid $work/nginx.pid;
error_log $work/error.log;
events { worker_connections 4096; }
http {
  access_log off;
  keepalive_requests 1000000;
  server {
    listen 127.0.0.1:$PORT;
    location / { default_type text/plain; return 200 "Hello, World!"; }
  }
}
NGINX

start_target() {
  case "$1" in
    nginx) taskset -c 0 nginx -c "$work/nginx.conf" -p "$work" >/dev/null 2>&1 & ;;
    *) local mode=${1%-*} type=${1#*-}
       taskset -c 0 java "${JAVA_FLAGS[@]}" -jar "$JAR" --port $PORT --execution-mode "$mode" \
         --thread-type "$type" --selector-threads 1 >"$work/server.log" 2>&1 & ;;
  esac
  server_pid=$!
  for _ in $(seq 1 100); do
    curl -fs "http://127.0.0.1:$PORT/" >/dev/null 2>&1 && return 0
    sleep 0.1
  done
  echo "target $1 did not start" >&2; cat "$work/server.log" >&2 || true; exit 1
}

stop_target() {
  kill "$server_pid" 2>/dev/null || true
  wait "$server_pid" 2>/dev/null || true
  server_pid=""
}

measure() { # prints req/s; fails the run when wrk fails or prints no rate
  local out rps
  out=$(timeout --kill-after=10 $((DURATION + 30)) taskset -c 1 wrk -t1 -c50 -d"${DURATION}s" \
    "http://127.0.0.1:$PORT/") || die "wrk failed (exit $?) against $target"
  rps=$(awk '/Requests\/sec/ {print $2}' <<< "$out")
  [ -n "$rps" ] || die "wrk printed no rate against $target: $out"
  echo "$rps"
}

# Warms the target until its JIT compiler threads are nearly idle (nginx: one window); prints the seconds it took.
warm_up() {
  local warmed=0
  while :; do
    warmed=$((warmed + DURATION))
    jit_settles_during "$server_pid" "$JIT_SETTLED_PERMILLE" "$DURATION" measure > /dev/null && break
    if [ "$warmed" -ge "$WARMUP_MAX" ]; then
      echo "WARNING: $target's JIT was still compiling after ${warmed}s ($JIT_USED ms in the last window)" >&2
      break
    fi
  done
  echo "$warmed"
}

targets=(nginx nio-platform nio-virtual hybrid-platform hybrid-virtual)
declare -A results
for round in $(seq 1 "$ROUNDS"); do
  for target in "${targets[@]}"; do
    start_target "$target"
    warmed=$(warm_up)
    rps=$(measure)
    stop_target
    results[$target]="${results[$target]:-} $rps"
    printf 'round %d  %-16s %10s req/s  (after %s s of warm-up)\n' "$round" "$target" "$rps" "$warmed"
  done
done

# The median of each target's rounds, its ratio to nginx's, and the runner's spread verdict (verdict.py).
report() {
  python3 -B - "$MAX_SPREAD_PERCENT" "${targets[@]}" <<PY
import statistics, sys
sys.path.insert(0, "gatling/scripts")
import verdict
limit, targets = sys.argv[1], sys.argv[2:]
rounds = {$(for t in "${targets[@]}"; do printf '"%s": [%s], ' "$t" "$(echo ${results[$t]} | tr ' ' ',')"; done)}
nginx = statistics.median(rounds["nginx"])
nginx_refusal = verdict.rounds_refusal(rounds["nginx"], limit)
# Drift on this machine moves whole rounds (every target of a round slower together), so the ratio to nginx within
# each round is shown beside the ratio of the medians; it has no verdict of its own.
print("| target | rounds req/s | median req/s | vs nginx | vs nginx in each round (median) |")
print("|---|---|---:|---:|---|")
for target in targets:
    values = rounds[target]
    median = statistics.median(values)
    refusal = verdict.rounds_refusal(values, limit)
    if not refusal and target != "nginx" and nginx_refusal:
        refusal = "nginx's " + nginx_refusal
    ratio = f"{median / nginx:.2f}"
    cells = (f"{median:,.0f}", ratio) if not refusal else (f"[{median:,.0f}]", f"[{ratio}]: refused, {refusal}")
    paired = [v / n for v, n in zip(values, rounds["nginx"])]
    paired_cell = f"{', '.join(f'{r:.2f}' for r in paired)} ({statistics.median(paired):.2f})"
    print(f"| {target} | {', '.join(f'{v:,.0f}' for v in values)} | {cells[0]} | {cells[1]} | {paired_cell} |")
PY
}
echo
report
echo
echo "JVM flags: ${JAVA_FLAGS[*]}; server on CPU 0, wrk -t1 -c50 on CPU 1; ${DURATION}s windows, JVMs warmed"
echo "until their JIT used < ${JIT_SETTLED_PERMILLE} ms/s (at most ${WARMUP_MAX}s); $ROUNDS rounds; medians in brackets"
echo "refused: their rounds spread by more than ${MAX_SPREAD_PERCENT} % of the median."
