#!/usr/bin/env bash
# The comparison runner: the same Spring Boot application on every server, loaded by Gatling and wrk, one table.
#
#   gatling/compare.sh [quick|full|smoke|wrk|async|websocket|tls|h2|webflux|warmup|memory] [target...]
#
# Presets (override any knob with the environment variables listed under "Knobs"):
#   quick  ColdStart (ramp at 0.2 x duration), then Concurrency (500/1,000/2,000 clients, 10,000 requests each, as
#          in seed 002, after its own warm-up level), then wrk on /hello (2 interleaved rounds x 5 s): about 75 s
#          per target
#   full   the seed scenarios at full length: ColdStart, HelloWorld, CpuIntensive, Latency, Concurrency, Db,
#          HeavyLoad after a 60 s warm-up, then wrk (3 rounds x 15 s after 15 s more warm-up)
#   smoke  for CI, under 2 minutes: one target (default sprout-hybrid-virtual), HelloWorld at 0.1 x; fails on any KO;
#          never refuses for the machine's load (MAX_LOAD=none): a busy CI machine is not a failed build
#   wrk    wrk only: /benchmark/hello and /benchmark/json, 3 interleaved rounds x 10 s
#   async  AsyncLatency (500/1,000/2,000 clients looping on /latency-async?ms=100, 20 s per level after a 30 s
#          warm-up level), then wrk on /hello and /json (3 interleaved rounds x 10 s after 15 s warm-up); default
#          targets sprout-nio-platform sprout-hybrid-platform tomcat-platform (name netty to add it): about 11 min
#   websocket  WebSocketEcho (1,000 sessions, round trips for 30 s after a 20 s warm-up level), WebSocketIdle
#          (10,000 idle sessions; the server's RSS and live heap before and while they are open), WebSocketBroadcast
#          (10,000 sessions, 5 broadcasts x 10 messages, delivery times); echo and broadcast 3 rounds each (WS_ROUNDS,
#          their median reported); every server with a 2 GB heap; default targets the four Sprout combinations,
#          tomcat-platform, jetty-platform and netty: about 7 min per target
#   tls    wrk over HTTPS: every server started with the same freshly generated EC P-256 key (server.ssl.*), then
#          /benchmark/hello with keep-alive (wrk-hello) and with a new connection and a full handshake per request
#          (wrk-hello-close: "Connection: close"), 3 interleaved rounds x 10 s after 10 s warm-up each; default
#          targets sprout-nio-platform sprout-hybrid-platform tomcat-platform jetty-platform: about 6 min
#   h2     HTTP/2 with h2load instead of wrk: every server started with --server.http2.enabled=true, then
#          /benchmark/hello and /benchmark/json at each H2_SHAPES shape (c16m10: 16 connections x at most 10
#          concurrent streams each; c64m100), one measured row per endpoint and shape (h2-hello-c16m10, ...),
#          3 interleaved rounds x 10 s after 10 s warm-up each; then, one server at a time, the server's RSS and
#          live heap per idle HTTP/2 connection with IDLE_CONNECTIONS (2,000) held open (h2-idle). h2c (prior
#          knowledge) by default; TLS=1 gives h2 over TLS (ALPN h2 only, no fallback to HTTP/1.1), after Gatling's
#          Http2Tls (enableHttp2; every /benchmark/protocol answer must be HTTP/2.0, 0 KO: servlet servers only). A
#          run that does not speak HTTP/2 is a failed row, not a number. Default targets the four Sprout combinations,
#          tomcat-platform, jetty-platform and netty: about 25 min.
#            gatling/compare.sh h2           # h2c
#            TLS=1 gatling/compare.sh h2     # h2 over TLS
#   webflux  WebFlux on Sprout beside Reactor Netty, every row of the comparison in one run: the websocket preset's
#          simulations (WS_DEFLATE=0 by default: Reactor Netty never compresses; 3 rounds of echo and of broadcast),
#          AsyncLatency, then wrk on /hello and /json (3 interleaved rounds x 10 s after 15 s warm-up), every server
#          with a 2 GB heap; default targets the four sprout-webflux combinations and netty, with sprout-nio-platform
#          (Spring MVC on Sprout) and tomcat-platform as references: about 11 min per target
#   warmup  from the JVM's launch: per target and variant (plain; from a JDK AOT cache trained per target; for Sprout
#          also the cache with sprout.server.warm-up on) one launch loaded by LaunchLoad from that moment (50
#          connections on /benchmark/hello until 40 s after the launch): ms to the first answer, answers per 1 s window,
#          peak and ms to 90 % of it, charted; then one more launch per variant for ColdStart (2,000 users at once
#          when ready). Default targets the four Sprout combinations, tomcat-platform, jetty-platform and netty: about
#          25 min (the AOT caches are trained once and kept under sample-boot-app/target/<flavour>/aot/)
#   memory  every server in a 128 MB heap (-Xmx128m, nothing else fixed): wrk on /hello and /json (one round x 10 s
#          after 10 s warm-up each), then, one server at a time, its RSS as the load left it and with IDLE_CONNECTIONS
#          (10,000) idle HTTP/1.1 keep-alive connections held (h1-idle), and its live heap per connection. Default
#          targets all nine: about 20 min
#
# The blocking path of two builds (e.g. the previous commit and this one) is compared by gatling/ab-wrk.sh.
#
# Targets (default: all but the sprout-webflux ones): sprout-nio-platform sprout-nio-virtual sprout-hybrid-platform
#   sprout-hybrid-virtual tomcat-platform tomcat-virtual jetty-platform jetty-virtual netty
#   sprout-webflux-nio-platform sprout-webflux-nio-virtual sprout-webflux-hybrid-platform sprout-webflux-hybrid-virtual
#   (the WebFlux build, sample-boot-app-sprout-webflux.jar, with the sprout-* targets' properties: by name, or by the
#   webflux preset)
# A target whose jar cannot be built (Sprout, before its starter exists) is skipped with a message.
#
# Output: docs/benchmarks/<date>-<preset>-<time>/ (results.csv, results.md, machine.md, *.svg) and raw logs and
# Gatling HTML reports in bench-results/<same id>/ (git-ignored). smoke writes everything to bench-results/.
#
# Knobs: SCALE, SIMS ("ColdStart Latency ..."), WARMUP_SECONDS, COLD_USERS, CONCURRENCY_LEVELS ("500 1000 2000"),
#   CONCURRENCY_REQUESTS, CONCURRENCY_SCALE (default 1: a level is short anyway, and fewer requests than about five
#   per client would measure connection set-up rather than concurrency; all levels share one Gatling run),
#   ASYNC_LEVEL_SECONDS (20) and ASYNC_WARMUP_SECONDS (30) for AsyncLatency (both multiplied by SCALE; its levels are
#   CONCURRENCY_LEVELS), WRK (0/1),
#   WRK_ENDPOINTS ("hello json"; an endpoint "x-close" is /benchmark/x sent with "Connection: close"), WRK_SECONDS, WRK_ROUNDS, WRK_WARMUP_SECONDS, WRK_CONNECTIONS,
#   WRK_SETTLE_SECONDS, WRK_JIT_SETTLED_PERMILLE, WRK_WARMUP_MAX (after WRK_WARMUP_SECONDS, keep warming in windows of
#   WRK_SETTLE_SECONDS per endpoint until the JIT compilers use < PERMILLE ms per s, at most WRK_WARMUP_MAX s in all),
#   PIN (1 = server on CPU SERVER_CPU, load on CPU LOAD_CPU), JVM_FLAGS, TLS (1 = every server on HTTPS),
#   APP_ARGS (extra application arguments for every target, e.g. --spring.profiles.active=postgres after
#   sample-boot-app/scripts/postgres-setup.sh), PORT (first port tried), SKIP_BUILD (1 = reuse built jars), OUT_DIR,
#   RAW_DIR.
# WebSocket knobs (websocket preset, durations multiplied by SCALE): WS_ECHO_SESSIONS (1000), WS_ECHO_SECONDS (30),
#   WS_ECHO_WARMUP_SECONDS (20), WS_SIZE (64 characters per message), WS_SESSIONS (10000, idle and broadcast),
#   WS_RAMP_SECONDS (20), WS_HOLD_SECONDS (20), WS_SETTLE_SECONDS (3, after the last idle session opened and before
#   RSS is read), WS_BROADCASTS (5 measured), WS_WARMUP_BROADCASTS (5, before them, not measured: they warm up the
#   server's broadcast path, and the simulation waits until they have arrived), WS_MESSAGES (10), WS_GAP_SECONDS (2),
#   WS_DRAIN_SECONDS (30), WS_COLLECT_HEAP (1: a full collection in the server, jcmd GC.run, after the warm-up
#   broadcasts and before the first measured one, so that no server's round depends on where its last young
#   collection fell; 0 = none),
#   WS_ROUNDS (3 in the websocket and webflux presets, else 1: echo and broadcast each run that many times, one after
#   the other, and the report takes the median of the rounds, refused when they spread more than MAX_SPREAD_PERCENT),
#   WS_LOCAL_ADDRESSES (e.g. "127.0.0.1,127.0.0.2": Gatling's source addresses, each with its own ephemeral ports),
#   WS_MAX_CONNECTIONS (WS_SESSIONS + 2000: server.tomcat.max-connections and sprout.server.max-connections, whose
#   default of 8,192 would refuse the 10,000 sessions), WS_DEFLATE (1: each server's default for permessage-deflate,
#   which Gatling always offers: Tomcat, Jetty and Sprout agree, and Gatling then compresses every message it sends,
#   Reactor Netty never agrees; 0: Sprout declines too, for the same work as Reactor Netty; Tomcat and Jetty have no
#   switch and still agree).
# HTTP/2 knobs (h2 preset): LOAD_TOOL (wrk, or h2load: the WRK_* knobs then apply to h2load), H2_SHAPES
#   ("c16m10 c64m100": h2load -c and -m per measured load).
# Idle connection knobs (h2 and memory presets; after the load rounds, over the load tool's protocol: HTTP/2 with
#   h2load, HTTP/1.1 keep-alive with wrk): IDLE_CONNECTIONS (h2 2000, memory 10000, others 0 = no idle step; above
#   8,000 it raises server.tomcat.max-connections and sprout.server.max-connections to IDLE_CONNECTIONS + 2,000),
#   IDLE_SETTLE_SECONDS (3, after the last connection opened and before RSS is read), IDLE_PING_SECONDS (15: so often
#   each held connection sends an HTTP/2 PING, or one more GET over HTTP/1.1, which keeps it open past Tomcat's 20 s
#   HTTP/2 and Jetty's 30 s idle time-outs; Tomcat's overhead protection closes connections that ping every 5 s;
#   0 = none).
# warmup knobs: LAUNCH_VARIANTS ("plain aot aot-warmup"), LAUNCH_SECONDS (40, from the launch), LAUNCH_CONNECTIONS
#   (50), LAUNCH_COLD_START (1 = ColdStart per variant too), AOT_TRAINING_SECONDS (5 of wrk per endpoint in a
#   training run), AOT_ASSEMBLY_SECONDS (180: how long the training JVM may take to write its cache after SIGTERM),
#   WARMUP_PATHS ("/benchmark/hello,/benchmark/json": sprout.server.warm-up.paths of the aot-warmup variant),
#   WARMUP_COMPILED_TIMEOUT (40s: the warm-up's time limit in the aot-compiled variant, which is not run by default:
#   add it to LAUNCH_VARIANTS; it warms up until the JIT settles), WARMUP_COMPILED_CONCURRENCY (1: its warm-up
#   requests in flight; each one more runnable platform worker beside the compiler on the pinned CPU), LAUNCH_BURST
#   (COLD_USERS: users on new connections at the first answer, one request each, timed by LaunchLoad; 0 = none).
# Verdict knobs: MAX_LOAD (0.5 CPUs busy with other work just before a measured run; "none" switches the check off,
#   as the smoke preset does), MAX_SPREAD_PERCENT (10; "none" = off), LOAD_SAMPLE_SECONDS (1, the window of the load
#   sample).
# With wrk enabled, each target's server stays up (idle) after its Gatling runs and is reused by the wrk phase.
#
# Verdicts: bash only starts and stops processes; gatling/scripts/benchreport.py (with verdict.py) judges and writes
# every row. Each tool run (Gatling, wrk, h2load, idleconns.py) is bounded by timeout and its exit status goes into its
# row: non-zero fails the row (124: it timed out; Gatling exits 2 when an assertion fails), however good its log
# looks, and so does a server that did not start (with its exit status) or answered as the wrong server (curl's
# exit status in the note). Just before each measured run the runner samples the CPUs busy with other work; above
# MAX_LOAD the row is "refused". A median of wrk or h2load rounds is refused when the rounds spread more than
# MAX_SPREAD_PERCENT of it (max - min), or fewer than two of several rounds are valid. Refused and failed rows stay in
# the tables, marked, but never in a median, a ratio or a filled chart bar (a refused median is drawn hollow). The report
# is written first; then the exit status: 0 every measurement valid, 1 a row failed (or no target could run), 3
# nothing failed but something was refused (run again on a quieter machine), 2 a usage error.
set -uo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
REPORT="$ROOT/gatling/scripts/benchreport.py"
# shellcheck source=scripts/bench-lib.sh
. "$ROOT/gatling/scripts/bench-lib.sh"
# shellcheck source=scripts/websocket-lib.sh
. "$ROOT/gatling/scripts/websocket-lib.sh"
# shellcheck source=h2tools.sh
. "$ROOT/gatling/h2tools.sh"
# shellcheck source=scripts/launch-lib.sh
. "$ROOT/gatling/scripts/launch-lib.sh"

# 10,000 WebSocket sessions do not fit every server in the other presets' 512 MB heap (Tomcat's buffers alone took
# more: OutOfMemoryError), so the presets that hold them give every server 2 GB, still fixed and still identical.
WEBSOCKET_JVM_FLAGS="-Xms2g -Xmx2g -XX:+UseSerialGC -XX:+ExitOnOutOfMemoryError"

PRESET=${1:-quick}
[ $# -gt 0 ] && shift
case "$PRESET" in
  quick)
    # Concurrency warms up itself (server and Gatling) with an unmeasured level, so no separate warm-up run.
    : "${SIMS:=ColdStart Concurrency}" "${SCALE:=0.2}" "${WARMUP_SECONDS:=0}" "${WRK:=1}"
    # wrk on /hello only (the endpoint the targets name); the other presets add /json.
    : "${WRK_SECONDS:=5}" "${WRK_ROUNDS:=2}" "${WRK_WARMUP_SECONDS:=5}" "${WRK_ENDPOINTS:=hello}" ;;
  full)
    : "${SIMS:=ColdStart HelloWorld CpuIntensive Latency Concurrency Db HeavyLoad}" "${SCALE:=1}"
    : "${WARMUP_SECONDS:=60}" "${WRK:=1}" "${WRK_SECONDS:=15}" "${WRK_ROUNDS:=3}" "${WRK_WARMUP_SECONDS:=15}" ;;
  smoke)
    : "${SIMS:=HelloWorld}" "${SCALE:=0.1}" "${WARMUP_SECONDS:=0}" "${WRK:=0}"
    # A CI gate checks the plumbing, not the numbers: a busy CI machine must not refuse it. Any KO fails it.
    : "${MAX_LOAD:=none}"
    FAIL_ON_KO=1
    [ $# -eq 0 ] && set -- sprout-hybrid-virtual ;;
  wrk)
    : "${SIMS:=}" "${SCALE:=1}" "${WARMUP_SECONDS:=0}" "${WRK:=1}"
    : "${WRK_SECONDS:=10}" "${WRK_ROUNDS:=3}" "${WRK_WARMUP_SECONDS:=15}" ;;
  async)
    # AsyncLatency warms up itself (server and Gatling) with an unmeasured level; wrk warms each endpoint first.
    : "${SIMS:=AsyncLatency}" "${SCALE:=1}" "${WARMUP_SECONDS:=0}" "${WRK:=1}"
    : "${WRK_SECONDS:=10}" "${WRK_ROUNDS:=3}" "${WRK_WARMUP_SECONDS:=15}" "${WRK_ENDPOINTS:=hello json}"
    [ $# -eq 0 ] && set -- sprout-nio-platform sprout-hybrid-platform tomcat-platform ;;
  websocket)
    # Idle before Broadcast: RSS growth counts pages first touched, and Broadcast's 10,000 sessions would already
    # have touched them. Echo's warm-up level warms the server (and its heap) first.
    : "${SIMS:=WebSocketEcho WebSocketIdle WebSocketBroadcast}" "${SCALE:=1}" "${WARMUP_SECONDS:=0}" "${WRK:=0}"
    : "${WS_ROUNDS:=3}" "${JVM_FLAGS:=$WEBSOCKET_JVM_FLAGS}"
    [ $# -eq 0 ] && set -- sprout-nio-platform sprout-nio-virtual sprout-hybrid-platform sprout-hybrid-virtual \
      tomcat-platform jetty-platform netty ;;
  h2)
    # Reactor Netty serves h2c too: Boot configures HttpProtocol.H2C when server.http2.enabled=true without SSL.
    # Over TLS, Gatling's Http2Tls runs first (enableHttp2, every protocol check must see HTTP/2.0; servlet
    # servers only, /benchmark/protocol is a Spring MVC endpoint).
    [ "${TLS:-0}" = 1 ] && : "${SIMS:=Http2Tls}"
    : "${SIMS:=}" "${SCALE:=1}" "${WARMUP_SECONDS:=0}" "${WRK:=1}" "${LOAD_TOOL:=h2load}"
    : "${WRK_SECONDS:=10}" "${WRK_ROUNDS:=3}" "${WRK_WARMUP_SECONDS:=10}" "${WRK_ENDPOINTS:=hello json}"
    : "${IDLE_CONNECTIONS:=2000}"
    APP_ARGS="${APP_ARGS:-} --server.http2.enabled=true"
    [ $# -eq 0 ] && set -- sprout-nio-platform sprout-nio-virtual sprout-hybrid-platform sprout-hybrid-virtual \
      tomcat-platform jetty-platform netty ;;
  tls)
    # Servlet servers only: Reactor Netty reads server.ssl.* as well, but the comparison asked for is Tomcat/Jetty.
    : "${SIMS:=}" "${SCALE:=1}" "${WARMUP_SECONDS:=0}" "${WRK:=1}" "${TLS:=1}"
    : "${WRK_SECONDS:=10}" "${WRK_ROUNDS:=3}" "${WRK_WARMUP_SECONDS:=10}" "${WRK_ENDPOINTS:=hello hello-close}"
    [ $# -eq 0 ] && set -- sprout-nio-platform sprout-hybrid-platform tomcat-platform jetty-platform ;;
  webflux)
    # Every row of issue 21's comparison in one run, per target: the websocket preset's three simulations first (so
    # their RSS readings match that preset's), then AsyncLatency, then wrk on /hello and /json, where WebFlux's codecs
    # do the writing. The websocket preset's 2 GB heap for every server (WEBSOCKET_JVM_FLAGS). Reactor Netty
    # never agrees to permessage-deflate, so Sprout declines it too: the same work on both (Tomcat still agrees).
    : "${SIMS:=WebSocketEcho WebSocketIdle WebSocketBroadcast AsyncLatency}" "${SCALE:=1}" "${WARMUP_SECONDS:=0}"
    : "${WRK:=1}" "${WRK_SECONDS:=10}" "${WRK_ROUNDS:=3}" "${WRK_WARMUP_SECONDS:=15}" "${WRK_ENDPOINTS:=hello json}"
    : "${WS_DEFLATE:=0}" "${WS_ROUNDS:=3}" "${JVM_FLAGS:=$WEBSOCKET_JVM_FLAGS}"
    # AsyncLatency's levels last 60 s, not 20: at 2,000 clients one 20 s level moved by 7 % from round to round
    # (2026-11-27), more than the gap it was asked to decide.
    : "${ASYNC_LEVEL_SECONDS:=60}"
    [ $# -eq 0 ] && set -- "${WEBFLUX_TARGETS[@]}" netty sprout-nio-platform tomcat-platform ;;
  warmup)
    # Every launch is its own measurement (launch-lib.sh), ColdStart included: no Gatling simulation of the usual
    # loop, no wrk phase. wrk trains the AOT caches.
    : "${SIMS:=}" "${SCALE:=0.2}" "${WARMUP_SECONDS:=0}" "${WRK:=0}"
    : "${LAUNCH_VARIANTS:=plain aot aot-warmup}" "${LAUNCH_SECONDS:=40}" "${LAUNCH_CONNECTIONS:=50}"
    : "${LAUNCH_COLD_START:=1}" "${AOT_TRAINING_SECONDS:=5}" "${AOT_ASSEMBLY_SECONDS:=180}"
    : "${WARMUP_PATHS:=/benchmark/hello,/benchmark/json}" "${LAUNCH_BURST:=${COLD_USERS:-2000}}"
    : "${WARMUP_COMPILED_TIMEOUT:=40s}" "${WARMUP_COMPILED_CONCURRENCY:=1}"
    [ $# -eq 0 ] && set -- sprout-nio-platform sprout-nio-virtual sprout-hybrid-platform sprout-hybrid-virtual \
      tomcat-platform jetty-platform netty ;;
  memory)
    # Issue 22's memory row: the heap a small container would give, the rest each server's own default. The load is
    # there to leave what a served application keeps (its throughput rows are not the point: one round).
    : "${SIMS:=}" "${SCALE:=1}" "${WARMUP_SECONDS:=0}" "${WRK:=1}" "${IDLE_CONNECTIONS:=10000}"
    : "${WRK_SECONDS:=10}" "${WRK_ROUNDS:=1}" "${WRK_WARMUP_SECONDS:=10}" "${WRK_WARMUP_MAX:=60}"
    : "${JVM_FLAGS:=-Xmx128m -XX:+UseSerialGC -XX:+ExitOnOutOfMemoryError}" ;;
  -h|--help|help) usage ;;
  *) echo "Unknown preset '$PRESET'." >&2; usage ;;
esac
: "${COLD_USERS:=2000}" "${CONCURRENCY_LEVELS:=500 1000 2000}" "${CONCURRENCY_REQUESTS:=10000}" "${CONCURRENCY_SCALE:=1}"
: "${ASYNC_LEVEL_SECONDS:=20}" "${ASYNC_WARMUP_SECONDS:=30}"
: "${WS_ECHO_SESSIONS:=1000}" "${WS_ECHO_SECONDS:=30}" "${WS_ECHO_WARMUP_SECONDS:=20}" "${WS_SIZE:=64}"
: "${WS_SESSIONS:=10000}" "${WS_RAMP_SECONDS:=20}" "${WS_HOLD_SECONDS:=20}" "${WS_SETTLE_SECONDS:=3}"
: "${WS_BROADCASTS:=5}" "${WS_WARMUP_BROADCASTS:=5}" "${WS_MESSAGES:=10}" "${WS_GAP_SECONDS:=2}" "${WS_DRAIN_SECONDS:=30}"
: "${WS_LOCAL_ADDRESSES:=}" "${WS_MAX_CONNECTIONS:=$((WS_SESSIONS + 2000))}" "${WS_DEFLATE:=1}" "${WS_ROUNDS:=1}"
: "${WS_COLLECT_HEAP:=1}"
if [[ " ${SIMS:-} " == *" WebSocket"* ]]; then
  # Tomcat and Sprout accept at most 8,192 connections by default (Jetty and Reactor Netty have no limit): beyond it
  # a handshake waits in the backlog until it times out. Each server ignores the other's property.
  APP_ARGS="${APP_ARGS:-} --server.tomcat.max-connections=$WS_MAX_CONNECTIONS --sprout.server.max-connections=$WS_MAX_CONNECTIONS"
  if [ "$WS_DEFLATE" = 0 ]; then
    # Gatling offers permessage-deflate on every connection and compresses all it sends once a server agrees.
    # Tomcat, Jetty and Sprout agree by default, Reactor Netty never does: against Netty, the same work means
    # Sprout declines too. Tomcat and Jetty have no switch (their containers negotiate it themselves).
    APP_ARGS="$APP_ARGS --sprout.server.websocket.permessage-deflate=false"
  fi
fi
: "${WRK_SECONDS:=10}" "${WRK_ROUNDS:=3}" "${WRK_WARMUP_SECONDS:=10}" "${WRK_CONNECTIONS:=50}" "${WRK_ENDPOINTS:=hello json}"
: "${WRK_SETTLE_SECONDS:=10}" "${WRK_JIT_SETTLED_PERMILLE:=20}" "${WRK_WARMUP_MAX:=240}" "${LOAD_TOOL:=wrk}"
: "${H2_SHAPES:=c16m10 c64m100}" "${IDLE_CONNECTIONS:=0}" "${IDLE_SETTLE_SECONDS:=3}" "${IDLE_PING_SECONDS:=15}"
if [ "$IDLE_CONNECTIONS" -gt 8000 ]; then
  # Tomcat and Sprout accept at most 8,192 connections by default; each server ignores the other's property.
  APP_ARGS="${APP_ARGS:-} --server.tomcat.max-connections=$((IDLE_CONNECTIONS + 2000)) --sprout.server.max-connections=$((IDLE_CONNECTIONS + 2000))"
fi
case "$LOAD_TOOL" in
  wrk) ;;
  h2load)
    for shape in $H2_SHAPES; do
      [[ "$shape" =~ ^c[1-9][0-9]*m[1-9][0-9]*$ ]] || { echo "H2_SHAPES takes shapes like c16m10, not '$shape'." >&2; exit 2; }
    done
    # HTTP/2 has no Connection header: every stream shares its connection.
    [[ " $WRK_ENDPOINTS " == *"-close "* ]] && { echo "h2load cannot send Connection: close ($WRK_ENDPOINTS)." >&2; exit 2; } ;;
  *) echo "LOAD_TOOL is wrk or h2load, not '$LOAD_TOOL'." >&2; exit 2 ;;
esac
: "${TLS:=0}" "${APP_ARGS:=}" "${PIN:=1}" "${SERVER_CPU:=0}" "${LOAD_CPU:=1}" "${PORT:=8080}" "${SKIP_BUILD:=0}"
# Verdicts (gatling/scripts/verdict.py; the header's "Verdicts" says what they do). MAX_LOAD is in CPUs kept busy by
# work outside this runner over the LOAD_SAMPLE_SECONDS before a measured run. With the server pinned to one CPU and
# the load generator to the other, this 2-CPU machine has no spare CPU: other work takes its share from one of them,
# and half a CPU of it can cost the pinned server a quarter of its CPU, more than the spread allowed between rounds.
# MAX_SPREAD_PERCENT: of the 169 medians of rounds published before this check (docs/benchmarks/*/rows.jsonl), half
# spread less than 6.4 % and a third more than 10 %, most of those from runs on a machine that was not quiet; 10 %
# keeps the usual noise and refuses the disturbed third, which a ratio quoted to two digits cannot carry.
: "${MAX_LOAD:=0.5}" "${MAX_SPREAD_PERCENT:=10}" "${LOAD_SAMPLE_SECONDS:=1}" "${FAIL_ON_KO:=}"
# Identical for every server. A JVM pinned to one CPU picks Serial GC and one virtual-thread carrier anyway;
# saying so explicitly keeps an unpinned run comparable.
: "${JVM_FLAGS:=-Xms512m -Xmx512m -XX:+UseSerialGC -XX:+ExitOnOutOfMemoryError}"
# Gatling's own launcher flags (gatling-maven-plugin defaults).
GATLING_JVM="-Xmx1G -XX:MaxInlineLevel=20 -XX:MaxTrivialSize=12 --add-opens=java.base/java.lang=ALL-UNNAMED
  --add-opens=java.base/jdk.internal.misc=ALL-UNNAMED --enable-native-access=ALL-UNNAMED
  --sun-misc-unsafe-memory-access=allow"

TARGETS=("$@")
[ ${#TARGETS[@]} -eq 0 ] && TARGETS=("${ALL_TARGETS[@]}")
for target in "${TARGETS[@]}"; do
  is_target "$target" || { echo "Unknown target '$target'." >&2; usage; }
done

RUN_ID="$(date -u +%Y-%m-%d)-$PRESET-$(date -u +%H%M%S)"
if [ "$PRESET" = smoke ]; then
  : "${OUT_DIR:=$ROOT/bench-results/$RUN_ID}"
else
  : "${OUT_DIR:=$ROOT/docs/benchmarks/$RUN_ID}"
fi
: "${RAW_DIR:=$ROOT/bench-results/$RUN_ID}"
begin_run "$RAW_DIR/gatling"
if [ "$WRK" = 1 ] || [ "$PRESET" = warmup ]; then
  if [ "$LOAD_TOOL" = h2load ]; then h2tools; else need_package wrk wrk; fi
fi
[[ " $SIMS " == *" WebSocket"* ]] && ws_preflight
if [ "$TLS" = 1 ]; then
  SCHEME=https
  # After APP_ARGS, so the run's key wins over anything passed in.
  APP_ARGS="$APP_ARGS $(bench_key_store "$RAW_DIR/tls")"
fi

# ------------------------------------------------------------------ building
mvnw() { (cd "$ROOT" && ./mvnw -B -ntp "$@"); }

build_gatling() {
  local cp="$ROOT/gatling/target/gatling-classpath.txt"
  if [ "$SKIP_BUILD" = 1 ] && [ -f "$cp" ] && [ -d "$ROOT/gatling/target/test-classes/io" ]; then return 0; fi
  progress "building the Gatling simulations"
  mvnw -q -pl gatling test-compile dependency:build-classpath -Dmdep.includeScope=test \
    -Dmdep.outputFile=target/gatling-classpath.txt > "$RAW_DIR/logs/build-gatling.log" 2>&1 \
    || die "building the gatling module failed: see $RAW_DIR/logs/build-gatling.log"
}

# ------------------------------------------------------------------ Gatling
GATLING_CP=""
gatling_command() { # target port simulation label [-Dprop=value...]: sets GATLING_COMMAND
  local target=$1 port=$2 simulation=$3 label=$4
  shift 4
  # shellcheck disable=SC2206 # GATLING_JVM is a word list on purpose
  GATLING_COMMAND=("${ON_LOAD_CPU[@]}" "$JAVA" $GATLING_JVM -cp "$GATLING_CP"
    -DbaseUrl="$SCHEME://127.0.0.1:$port" -Dscale="$SCALE" "$@" io.gatling.app.Gatling
    -s "io.sprout.gatling.${simulation}Simulation" -rf "$RAW_DIR/gatling" -rd "$target $label")
}
# Gatling exits non-zero when an assertion fails (2), and timeout with 124 when the limit stopped it: either fails the
# rows read from its log (MEASURED carries the status to them).
run_gatling() { # target port simulation label seconds-limit log [-Dprop=value...]
  gatling_command "$1" "$2" "$3" "$4" "${@:7}"
  run_measured "$5" "$6" "${GATLING_COMMAND[@]}"
}
sim_limit() { # generous wall-clock bound for one Gatling run, in seconds
  python3 -c "import sys; print(int(float(sys.argv[1]) * float(sys.argv[2]) + 120))" "$1" "$SCALE"
}
declare -A SIM_SECONDS=([ColdStart]=20 [HelloWorld]=90 [CpuIntensive]=60 [Latency]=50 [Concurrency]=60 [Db]=40 [HeavyLoad]=120
  [Http2Tls]=40)
# All levels of AsyncLatency, its warm-up included, at scale 1.
async_seconds() { echo $(( ASYNC_WARMUP_SECONDS + ASYNC_LEVEL_SECONDS * $(wc -w <<< "$CONCURRENCY_LEVELS") )); }

STEP=0
TOTAL_STEPS=0
run_target_gatling() { # target
  local target=$1 port log ready_ms="" meta sim level rc
  port=$(free_port "$PORT")
  log="$RAW_DIR/logs/$target-server.log"
  read -ra meta <<< "$(meta_of "$target")"
  progress "$target: starting $(basename "$(jar_of "$(flavour_of "$target")")") on 127.0.0.1:$port $(props_of "$target")"
  start_server "$(jar_of "$(flavour_of "$target")")" "$target" "$port" "$log"
  local server_pid=$SERVER_PID
  if [[ " $SIMS " == *" ColdStart "* ]]; then
    # ColdStart starts with the server: its before() hook polls /benchmark/health and fires the burst at once.
    STEP=$((STEP + 1))
    progress "[$STEP/$TOTAL_STEPS] $target: ColdStart ($COLD_USERS users at once when ready, scale $SCALE)"
    WATCH_PID=$server_pid
    run_gatling "$target" "$port" ColdStart "ColdStart" "$(sim_limit "${SIM_SECONDS[ColdStart]}")" \
      "$RAW_DIR/logs/$target-ColdStart.log" -DcoldUsers="$COLD_USERS" -DreadyTimeoutSeconds=150
    WATCH_PID=""
    local ready_epoch
    ready_epoch=$(sed -n 's/.*ready-epoch-ms=\([0-9]*\).*/\1/p' "$RAW_DIR/logs/$target-ColdStart.log" | head -1)
    [ -n "$ready_epoch" ] && ready_ms=$((ready_epoch - LAUNCH_MS))
    record gatling "$RAW_DIR/logs/$target-ColdStart.log" "${meta[@]}" "${MEASURED[@]}" simulation=ColdStart \
      ready_ms="$ready_ms"
  fi
  local waited
  if ! waited=$(wait_ready "$server_pid" "$port"); then
    progress "$target: FAILED, the server exited or was not ready (see $log)"
    record_start_failure "$target" "$log" "$server_pid"
    return 1
  fi
  [ -z "$ready_ms" ] && ready_ms=$waited
  local identity
  if ! identity=$(check_identity "$target" "$port"); then
    record_status "$target" failed "$identity"
    progress "$target: FAILED, $identity"
    stop_server "$server_pid"
    return 1
  fi
  progress "$target: ready after ${ready_ms} ms"
  if [ "$WARMUP_SECONDS" -gt 0 ] && [ -n "${SIMS// /}" ] && [ "$SIMS" != ColdStart ]; then
    progress "$target: warm-up, every endpoint for ${WARMUP_SECONDS}s (not recorded)"
    run_gatling "$target" "$port" WarmUp WarmUp $((WARMUP_SECONDS + 90)) "$RAW_DIR/logs/$target-WarmUp.log" \
      -DwarmUpSeconds="$WARMUP_SECONDS"
  fi
  for sim in $SIMS; do
    [ "$sim" = ColdStart ] && continue
    if [ "$sim" = Concurrency ]; then
      # One Gatling run for every level, after its own unmeasured warm-up level: a level lasts a few seconds, and a
      # fresh Gatling JVM would spend its first one warming its own JIT. Each level is then read from its own row.
      local levels=${CONCURRENCY_LEVELS// /,}
      STEP=$((STEP + 1))
      progress "[$STEP/$TOTAL_STEPS] $target: Concurrency ($CONCURRENCY_LEVELS clients after a warm-up level, latency?ms=100, $CONCURRENCY_REQUESTS x $CONCURRENCY_SCALE requests per level)"
      # The later -Dscale wins: Concurrency has its own scale.
      run_gatling "$target" "$port" Concurrency Concurrency \
        $(( ${SIM_SECONDS[Concurrency]} * ($(wc -w <<< "$CONCURRENCY_LEVELS") + 1) + 120 )) \
        "$RAW_DIR/logs/$target-Concurrency.log" -Dlevels="$levels" -Drequests="$CONCURRENCY_REQUESTS" \
        -Dscale="$CONCURRENCY_SCALE"
      for level in $CONCURRENCY_LEVELS; do
        record gatling "$RAW_DIR/logs/$target-Concurrency.log" "${meta[@]}" "${MEASURED[@]}" \
          simulation="Concurrency-$level" clients="$level" ready_ms="$ready_ms"
      done
      continue
    fi
    if [ "$sim" = AsyncLatency ]; then
      # As Concurrency, on /latency-async, but each level lasts a fixed time: its throughput is what is measured.
      STEP=$((STEP + 1))
      progress "[$STEP/$TOTAL_STEPS] $target: AsyncLatency ($CONCURRENCY_LEVELS clients, latency-async?ms=100, ${ASYNC_LEVEL_SECONDS}s per level after a ${ASYNC_WARMUP_SECONDS}s warm-up level, scale $SCALE)"
      run_gatling "$target" "$port" AsyncLatency AsyncLatency \
        $(( $(sim_limit "$(async_seconds)") + 30 * ($(wc -w <<< "$CONCURRENCY_LEVELS") + 1) )) \
        "$RAW_DIR/logs/$target-AsyncLatency.log" -Dlevels="${CONCURRENCY_LEVELS// /,}" \
        -DlevelSeconds="$ASYNC_LEVEL_SECONDS" -DwarmUpSeconds="$ASYNC_WARMUP_SECONDS"
      for level in $CONCURRENCY_LEVELS; do
        record gatling "$RAW_DIR/logs/$target-AsyncLatency.log" "${meta[@]}" "${MEASURED[@]}" \
          simulation="AsyncLatency-$level" clients="$level" ready_ms="$ready_ms"
      done
      continue
    fi
    if [[ "$sim" == WebSocket* ]]; then
      STEP=$((STEP + 1))
      run_websocket_simulation "$sim" "$target" "$port" "$server_pid" "$ready_ms" "${meta[@]}"
      continue
    fi
    STEP=$((STEP + 1))
    progress "[$STEP/$TOTAL_STEPS] $target: $sim (scale $SCALE)"
    run_gatling "$target" "$port" "$sim" "$sim" "$(sim_limit "${SIM_SECONDS[$sim]}")" "$RAW_DIR/logs/$target-$sim.log"
    record gatling "$RAW_DIR/logs/$target-$sim.log" "${meta[@]}" "${MEASURED[@]}" simulation="$sim" \
      ready_ms="$ready_ms"
  done
  if ! kill -0 "$server_pid" 2>/dev/null; then
    progress "$target: WARNING, the server died during the run (see $log)"
  fi
  if [ "$WRK" = 1 ] && kill -0 "$server_pid" 2>/dev/null; then
    # Kept (idle) for the wrk phase, which saves a second start-up per target.
    WRK_PORT[$target]=$port
    WRK_PID[$target]=$server_pid
    progress "$target: done, kept running idle for wrk (pid $server_pid)"
  else
    progress "$target: stopping (pid $server_pid)"
    stop_server "$server_pid"
  fi
}

# ------------------------------------------------------------------ wrk or h2load: all targets up at once, interleaved
# A load is what one measured row runs: for wrk an endpoint, where "x-close" is /benchmark/x with "Connection: close"
# (wrk then opens a new connection, over TLS with a full handshake, for every request: wrk resumes no sessions); for
# h2load an endpoint at one shape of H2_SHAPES, "hello-c16m10": 16 connections with at most 10 streams each.
load_units() { # the loads of one round, one per line
  local endpoint shape
  for endpoint in $WRK_ENDPOINTS; do
    if [ "$LOAD_TOOL" = h2load ]; then
      for shape in $H2_SHAPES; do echo "$endpoint-$shape"; done
    else
      echo "$endpoint"
    fi
  done
}
simulation_of() { if [ "$LOAD_TOOL" = h2load ]; then echo "h2-$1"; else echo "wrk-$1"; fi; } # load
load_url() { # port load
  local endpoint=$2
  [ "$LOAD_TOOL" = h2load ] && endpoint=${endpoint%-c*m*}
  echo "$SCHEME://127.0.0.1:$1/benchmark/${endpoint%-close}"
}
# Sets LOAD_COMMAND, the pinned command line of one load for so many seconds. A measured run adds wrk's latency
# distribution, or h2load's per-request log (its path is the fourth argument), which the percentiles come from.
load_command() { # port load seconds [measured | request-log]
  local port=$1 load=$2 seconds=$3 measured=${4:-}
  if [ "$LOAD_TOOL" = h2load ]; then
    local shape=${load##*-}
    local connections=${shape#c}
    connections=${connections%m*}
    # -D: for a duration, not a number of requests. Over TLS, ALPN offers h2 only: no silent fallback to HTTP/1.1.
    LOAD_COMMAND=("${ON_LOAD_CPU[@]}" h2load -t1 -c"$connections" -m"${shape#*m}" -D"$seconds")
    [ "$SCHEME" = https ] && LOAD_COMMAND+=(--npn-list=h2)
    [ -n "$measured" ] && LOAD_COMMAND+=(--log-file="$measured")
  else
    LOAD_COMMAND=("${ON_LOAD_CPU[@]}" wrk -t1 -c"$WRK_CONNECTIONS" -d"${seconds}s")
    [ -n "$measured" ] && LOAD_COMMAND+=(--latency)
    [[ "$load" == *-close ]] && LOAD_COMMAND+=(-H "Connection: close")
  fi
  LOAD_COMMAND+=("$(load_url "$port" "$load")")
}
load_description() { # load
  if [ "$LOAD_TOOL" = h2load ]; then
    local shape=${1##*-}
    local connections=${shape#c}
    echo "${connections%m*} connections x ${shape#*m} streams, $([ "$SCHEME" = https ] && echo "h2 over TLS" || echo h2c)"
  else
    echo "$WRK_CONNECTIONS connections$([[ "$1" == *-close ]] && echo ", Connection: close")"
  fi
}
declare -A WRK_PORT=()
declare -A WRK_PID=()
# Warms every load for WRK_WARMUP_SECONDS, then for WRK_SETTLE_SECONDS more per load at a time until the
# server's JIT compilers used less than WRK_JIT_SETTLED_PERMILLE ms per second (WRK_WARMUP_MAX seconds at most):
# pinned to one CPU beside busy workers, C2 gets a small share of it, and a server measured while it still compiles
# runs at a fraction of its speed, so a fixed warm-up ranks servers by the luck of their compile queues.
warm_until_settled() { # pid port
  local pid=$1 port=$2 seconds=$WRK_WARMUP_SECONDS warmed=0 before used elapsed load
  while :; do
    before=$(jit_cpu_ms "$pid")
    for load in $(load_units); do
      load_command "$port" "$load" "$seconds"
      # Bounded as a measured run is: h2load ends only when its streams in flight have, which a stalled server
      # never does.
      run_child timeout $((seconds + 30)) "${LOAD_COMMAND[@]}" > /dev/null 2>&1
    done
    elapsed=$((seconds * $(load_units | wc -l)))
    used=$(( $(jit_cpu_ms "$pid") - before ))
    warmed=$((warmed + elapsed))
    progress "   warmed ${warmed}s; the JIT compilers were busy ${used} ms in the last ${elapsed}s"
    [ "$used" -lt $((WRK_JIT_SETTLED_PERMILLE * elapsed)) ] && return 0
    if [ "$warmed" -ge "$WRK_WARMUP_MAX" ]; then
      progress "   WARNING: still compiling after ${warmed}s of warm-up; its rounds may be slow"
      return 0
    fi
    seconds=$WRK_SETTLE_SECONDS
  done
}
run_load_matrix() { # targets...
  local targets=("$@") target port pid round load i n meta
  declare -A port_of=() pid_of=()
  local running=()
  for target in "${targets[@]}"; do
    if [ -n "${WRK_PID[$target]:-}" ] && kill -0 "${WRK_PID[$target]}" 2>/dev/null; then
      port_of[$target]=${WRK_PORT[$target]}
      pid_of[$target]=${WRK_PID[$target]}
      running+=("$target")
      continue
    fi
    port=$(free_port "$PORT")
    local log="$RAW_DIR/logs/$target-$LOAD_TOOL-server.log" identity
    read -ra meta <<< "$(meta_of "$target")"
    progress "$LOAD_TOOL: starting $target on 127.0.0.1:$port (CPU ${SERVER_CPU})"
    start_server "$(jar_of "$(flavour_of "$target")")" "$target" "$port" "$log"
    pid=$SERVER_PID
    if ! wait_ready "$pid" "$port" > /dev/null; then
      progress "$LOAD_TOOL: $target FAILED to start, left out"
      record_start_failure "$target" "$log" "$pid"
    elif ! identity=$(check_identity "$target" "$port"); then
      record_status "$target" failed "$LOAD_TOOL: $identity"
      progress "$LOAD_TOOL: $target FAILED, $identity; left out"
      stop_server "$pid"
    else
      port_of[$target]=$port
      pid_of[$target]=$pid
      running+=("$target")
    fi
  done
  [ ${#running[@]} -eq 0 ] && return 1
  for target in "${running[@]}"; do
    progress "$LOAD_TOOL: warming $target (${WRK_WARMUP_SECONDS}s per load, then until its JIT has settled; not recorded)"
    warm_until_settled "${pid_of[$target]}" "${port_of[$target]}"
  done
  n=${#running[@]}
  for round in $(seq 1 "$WRK_ROUNDS"); do
    for load in $(load_units); do
      # Rotate the order every round, so no target always runs first (or right after the same neighbour).
      for i in $(seq 0 $((n - 1))); do
        target=${running[$(( (i + round - 1) % n ))]}
        local simulation log request_log=""
        simulation=$(simulation_of "$load")
        log="$RAW_DIR/logs/$target-$simulation-$round.log"
        [ "$LOAD_TOOL" = h2load ] && request_log="$RAW_DIR/logs/$target-$simulation-$round-requests.log"
        load_command "${port_of[$target]}" "$load" "$WRK_SECONDS" "${request_log:-measured}"
        progress "$LOAD_TOOL round $round/$WRK_ROUNDS: $target ${LOAD_COMMAND[*]: -1} (${WRK_SECONDS}s, $(load_description "$load"))"
        run_measured $((WRK_SECONDS + 30)) "$log" "${LOAD_COMMAND[@]}"
        read -ra meta <<< "$(meta_of "$target")"
        record "$LOAD_TOOL" "$log" "${meta[@]}" "${MEASURED[@]}" simulation="$simulation" round="$round" \
          ${request_log:+"request_log=$request_log"}
        # One line per request: kept for another look, compressed (tens of MB per run otherwise).
        [ -f "$request_log" ] && gzip -f -1 "$request_log"
      done
    done
  done
  if [ "$IDLE_CONNECTIONS" -gt 0 ]; then
    for target in "${running[@]}"; do run_idle "$target" "${port_of[$target]}" "${pid_of[$target]}"; done
  fi
  progress "$LOAD_TOOL: stopping all servers"
  cleanup
}

# The server's memory per idle connection: idleconns.py opens IDLE_CONNECTIONS connections over the load tool's
# protocol (HTTP/2 for h2load: preface, SETTINGS, one GET answered; HTTP/1.1 keep-alive for wrk: one GET answered),
# holds them with nothing in flight and reads the server's RSS (as the load left it, then after a full collection)
# and live heap before and while they are open. One server at a time, after the measured rounds: its heap has been
# cycled, so the growth is what the connections keep, not pages any request would have touched.
run_idle() { # target port pid
  local target=$1 port=$2 pid=$3 protocol=h1 name tls=() meta
  [ "$LOAD_TOOL" = h2load ] && protocol=h2
  local log="$RAW_DIR/logs/$target-$protocol-idle.log"
  read -ra meta <<< "$(meta_of "$target")"
  if ! kill -0 "$pid" 2>/dev/null; then
    record_status "$target" failed "$protocol-idle not run: the server had exited (see $RAW_DIR/logs/$target-$LOAD_TOOL-server.log)"
    progress "$protocol idle: $target not run, the server had exited"
    return 0
  fi
  [ "$SCHEME" = https ] && tls=(--tls)
  case "$protocol-$SCHEME" in
    h2-https) name="h2 over TLS" ;; h2-*) name=h2c ;; h1-https) name="HTTP/1.1 over TLS" ;; *) name=HTTP/1.1 ;;
  esac
  progress "$protocol idle: $target, $IDLE_CONNECTIONS idle connections ($name), RSS and live heap before and ${IDLE_SETTLE_SECONDS}s after the last"
  WATCH_PID=$pid
  run_measured $((IDLE_CONNECTIONS / 10 + 180)) "$log" "${ON_LOAD_CPU[@]}" python3 \
    "$ROOT/gatling/scripts/idleconns.py" --protocol "$protocol" --port "$port" --pid "$pid" \
    --connections "$IDLE_CONNECTIONS" --settle "$IDLE_SETTLE_SECONDS" --ping "$IDLE_PING_SECONDS" \
    --jcmd "$JAVA_HOME/bin/jcmd" "${tls[@]}"
  WATCH_PID=""
  if kill -0 "$pid" 2>/dev/null; then
    record idle "$log" "${meta[@]}" "${MEASURED[@]}" simulation="$protocol-idle"
  else
    # E.g. Tomcat over TLS: "Terminating due to java.lang.OutOfMemoryError: Java heap space" in the 512 MB heap.
    # A failed row, which keeps the RSS after the load that idleconns.py printed first.
    local server_log="$RAW_DIR/logs/$target-$LOAD_TOOL-server.log" last
    last=$(grep -m1 -E '^Terminating due to|OutOfMemoryError' "$server_log")
    record idle "$log" "${meta[@]}" "${MEASURED[@]}" simulation="$protocol-idle" status=failed \
      note="$protocol-idle: the server exited while the connections were opened or held${last:+: $last} (see $(basename "$server_log"))"
  fi
}

# ------------------------------------------------------------------ main
write_machine() {
  {
    echo "## Benchmark run $RUN_ID ($PRESET)"
    echo
    machine_lines
    echo "- server JVM flags (identical for every target): \`$JVM_FLAGS\`; Spring Boot defaults for every server${APP_ARGS:+; application arguments \`$APP_ARGS\`}"
    pinning_line "Gatling and $LOAD_TOOL"
    echo "- simulations: ${SIMS:-none} at duration scale $SCALE; warm-up ${WARMUP_SECONDS}s; ColdStart burst $COLD_USERS users;"
    echo "  Concurrency levels $CONCURRENCY_LEVELS, $CONCURRENCY_REQUESTS x $CONCURRENCY_SCALE requests per level"
    [[ " $SIMS " == *" AsyncLatency "* ]] && echo "- AsyncLatency: levels $CONCURRENCY_LEVELS clients on /benchmark/latency-async?ms=100, ${ASYNC_LEVEL_SECONDS}s per level after a ${ASYNC_WARMUP_SECONDS}s warm-up level at the largest, times scale $SCALE"
    [[ " $SIMS " == *" WebSocket"* ]] && ws_machine_lines
    [ "$TLS" = 1 ] && echo "- TLS: every server on HTTPS with one EC P-256 key generated for this run (server.ssl.* in the application arguments), the JDK's TLS stack for all; $LOAD_TOOL (OpenSSL) negotiates TLS 1.3; endpoints ending in -close send \`Connection: close\`, so every request pays a new connection and a full handshake"
    if [ "$WRK" = 1 ] && [ "$LOAD_TOOL" = h2load ]; then
      echo "- h2load ($(h2load --version | head -1)): HTTP/2 $([ "$TLS" = 1 ] && echo "over TLS, ALPN offering h2 only" || echo "cleartext (h2c, prior knowledge)"), every server with \`--server.http2.enabled=true\`; /benchmark/{${WRK_ENDPOINTS// /,}} at shapes $H2_SHAPES (c = connections, m = most concurrent streams per connection), 1 thread, $WRK_ROUNDS interleaved rounds x ${WRK_SECONDS}s per load after ${WRK_WARMUP_SECONDS}s warm-up per load and then until the JIT compilers used < ${WRK_JIT_SETTLED_PERMILLE} ms per s (at most ${WRK_WARMUP_MAX}s); percentiles from h2load's per-request log"
      [ "$IDLE_CONNECTIONS" -gt 0 ] && echo "- h2 idle: $IDLE_CONNECTIONS connections per server (one GET each, then no stream; a PING every ${IDLE_PING_SECONDS}s), server RSS and live heap (after a full GC) before and ${IDLE_SETTLE_SECONDS}s after the last opened, one server at a time after the rounds"
    elif [ "$WRK" = 1 ]; then
      echo "- wrk: /benchmark/{${WRK_ENDPOINTS// /,}}, $WRK_ROUNDS interleaved rounds x ${WRK_SECONDS}s per endpoint, $WRK_CONNECTIONS connections, 1 thread, after ${WRK_WARMUP_SECONDS}s warm-up per endpoint and then until the JIT compilers used < ${WRK_JIT_SETTLED_PERMILLE} ms per s (at most ${WRK_WARMUP_MAX}s)"
      [ "$IDLE_CONNECTIONS" -gt 0 ] && echo "- HTTP/1.1 idle: $IDLE_CONNECTIONS keep-alive connections per server (one GET each, then nothing in flight; one more GET every ${IDLE_PING_SECONDS}s), server RSS as the load left it, and RSS and live heap (after a full GC) before and ${IDLE_SETTLE_SECONDS}s after the last opened, one server at a time after the rounds"
    fi
    [ "$PRESET" = warmup ] && launch_machine_lines
    echo "- targets: ${TARGETS[*]}"
    echo "- raw logs and Gatling HTML reports: bench-results/$RUN_ID/ (not committed)"
  } > "$OUT_DIR/machine.md"
}

progress "preset $PRESET: ${TARGETS[*]}"
progress "results: $OUT_DIR"
build_gatling
GATLING_CP="$ROOT/gatling/target/test-classes:$(cat "$ROOT/gatling/target/gatling-classpath.txt")"
build_targets
write_machine
FAILED=0
if [ -n "${SIMS// /}" ]; then
  TOTAL_STEPS=$(( ${#RUNNABLE[@]} * $(wc -w <<< "$SIMS") ))
  for target in "${RUNNABLE[@]}"; do
    run_target_gatling "$target" || FAILED=1
  done
fi
if [ "$PRESET" = warmup ] && [ ${#RUNNABLE[@]} -gt 0 ]; then
  run_launch_matrix "${RUNNABLE[@]}"
fi
if [ "$WRK" = 1 ] && [ ${#RUNNABLE[@]} -gt 0 ]; then
  run_load_matrix "${RUNNABLE[@]}" || FAILED=1
fi

echo "- load average (1/5/15 min) when the run ended: $(cut -d' ' -f1-3 /proc/loadavg)" >> "$OUT_DIR/machine.md"
progress "writing $OUT_DIR/results.csv, results.md and charts"
echo
# The report judges the whole run from its rows, after writing everything: 0 all valid, 1 a row failed, 3 some
# measurement refused (nothing failed).
python3 -B "$REPORT" report "$OUT_DIR" max_spread_percent="$MAX_SPREAD_PERCENT" max_load="$MAX_LOAD" \
  ${FAIL_ON_KO:+fail_on_ko=1}
VERDICT=$?
echo
progress "done in $(( $(date +%s) - START_EPOCH ))s: $OUT_DIR"
if [ ${#RUNNABLE[@]} -eq 0 ]; then
  echo "No target could run." >&2
  exit 1
fi
# A step that failed must fail the run even if its row said otherwise.
[ "$FAILED" = 1 ] && VERDICT=1
case "$VERDICT" in
  0) ;;
  3) echo "Some measurements were refused: see the report's verdict." >&2 ;;
  *) echo "The run failed: see the report's verdict." >&2; VERDICT=1 ;;
esac
exit "$VERDICT"
