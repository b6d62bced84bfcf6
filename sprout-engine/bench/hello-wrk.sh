#!/usr/bin/env bash
# Throughput of the engine's hello server in all four combinations against nginx, in one interleaved run.
#
#   sprout-engine/bench/hello-wrk.sh [duration-seconds] [rounds]
#
# Each server is pinned to CPU 0 and wrk (-t1 -c50, keep-alive) to CPU 1. Every round measures every target once,
# in order, after a warm-up of the same length, so drift on this noisy 2-core machine hits all targets alike.
# Prints req/s per round, the median, and the ratio of each median to nginx's. Loopback only; bounded in time.
set -euo pipefail
cd "$(dirname "$0")/../.."

DURATION=${1:-10}
ROUNDS=${2:-3}
PORT=18088
JAR=sprout-engine/target/sprout-engine-0.1.0-SNAPSHOT.jar
JAVA_FLAGS=(-Xms512m -Xmx512m -XX:+UseParallelGC)

need() { command -v "$1" >/dev/null || { apt-get update -qq && apt-get install -y -qq "$2" >/dev/null; }; }
need wrk wrk
need nginx nginx-light
if [ -z "${JAVA_HOME:-}" ]; then
  JAVA_HOME=$(ls -d /usr/lib/jvm/*25* /usr/lib/jvm/*21* 2>/dev/null | head -1 || true)
fi
export JAVA_HOME PATH="$JAVA_HOME/bin:$PATH"
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

measure() {
  taskset -c 1 wrk -t1 -c50 -d"${DURATION}s" "http://127.0.0.1:$PORT/" | awk '/Requests\/sec/ {print $2}'
}

targets=(nginx nio-platform nio-virtual hybrid-platform hybrid-virtual)
declare -A results
for round in $(seq 1 "$ROUNDS"); do
  for target in "${targets[@]}"; do
    start_target "$target"
    measure >/dev/null
    rps=$(measure)
    stop_target
    results[$target]="${results[$target]:-} $rps"
    printf 'round %d  %-16s %10s req/s\n' "$round" "$target" "$rps"
  done
done

median() { tr ' ' '\n' | grep -v '^$' | sort -n | awk '{a[NR]=$1} END {print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'; }
nginx_median=$(echo "${results[nginx]}" | median)
echo
echo "| target | median req/s | vs nginx |"
echo "|---|---:|---:|"
for target in "${targets[@]}"; do
  m=$(echo "${results[$target]}" | median)
  printf '| %s | %.0f | %.2f |\n' "$target" "$m" "$(echo "$m / $nginx_median" | bc -l)"
done
echo
echo "JVM flags: ${JAVA_FLAGS[*]}; server on CPU 0, wrk -t1 -c50 on CPU 1; ${DURATION}s warm-up + ${DURATION}s per measurement; $ROUNDS rounds."
