#!/usr/bin/env bash
# The abuse harness (issue 11): the sample application on each server, attacked on loopback, one server and one
# attack at a time, with legitimate clients (GET /benchmark/hello on new connections, ABUSE_RATE per second)
# measured beside every attack. One table per server and a matrix like the issue's, with pass/fail per row.
#
#   gatling/abuse.sh [target...]
#
# Targets (default: sprout-nio-platform sprout-nio-virtual sprout-hybrid-platform sprout-hybrid-virtual
#   tomcat-platform tomcat-virtual jetty-platform); jetty-virtual is accepted as well.
# Attacks, in this order (ABUSE_ATTACKS to choose), each on a freshly started server, each bounded by ABUSE_SECONDS:
#   slowloris      1,000 connections trickling a request head, one byte every ABUSE_TRICKLE_SECONDS
#   idle           10,000 keep-alive connections, idle after one request (server RSS growth measured)
#   slow-readers   250 connections x 6 pipelined GET /benchmark/stream?size=1048576, read at 1 KiB/s
#   slow-bodies    200 POST /benchmark/echo bodies at 1 byte/s
#   slow-uploads   200 POST /benchmark/echo with Content-Length 1 MiB at 1 byte/s, each replaced when it ends, so
#                  200 stay in flight (a blocking MVC endpoint: every platform worker held; issue 18)
#   aborts         10,000 requests cut off by a reset or close at different points
#   flood          20,000 connections at once
#   fd-exhaustion  connections until the server's open files run out (below scale 1: its soft limit is lowered
#                  to baseline + scale x headroom first), held, released: does it serve again?
#   graceful       200 requests of 3 s in flight, then SIGTERM: how many complete
# HTTP/2 attacks, run only when chosen (by name, by the group name `h2` in ABUSE_ATTACKS, or ABUSE_H2=1, which adds
# them all to the attacks chosen), each against a server started with --server.http2.enabled=true and attacked over
# h2c with prior knowledge on the plaintext port (gatling/scripts/h2attack.py; needs Python's h2, which
# gatling/h2tools.sh installs when missing). Every attacking connection that the server ends is replaced at once:
#   h2-rapid-reset     200 connections, each looping HEADERS + RST_STREAM(CANCEL) as fast as the socket takes them
#                      (CVE-2023-44487)
#   h2-continuation    200 connections, each HEADERS without END_HEADERS, then CONTINUATION frames without end
#                      (16 KiB of header fields, or empty, on alternate connections; CVE-2024-27316)
#   h2-ping-flood      200 connections of PING frames as fast as possible (CVE-2019-9512)
#   h2-settings-flood  200 connections of empty SETTINGS frames as fast as possible (CVE-2019-9515)
#                      (the floods: half the connections never read, with a 4 KiB receive buffer)
#   h2-zero-window     100 connections with SETTINGS_INITIAL_WINDOW_SIZE=0, each with up to 100 streams of
#                      GET /benchmark/stream?size=1048576, the window never opened
#   h2-data-dribble    100 connections x 10 such streams, each stream's window opened 1 byte at a time
#                      (CVE-2019-9511)
#   Beside them, a legitimate HTTP/2 client too: GET /benchmark/hello at ABUSE_RATE on one h2c connection (new
#   streams in an open model). A row passes when both legitimate clients had no failure and p99 <= 100 ms, the
#   server's RSS grew <= 64 MiB and it used <= 25 % of a core in 2 s of quiet after the release, and it is clean
#   (alive, open files back, both clients served afterwards). How it ended the attackers is reported.
# Counts are multiplied by ABUSE_SCALE. Per attack: start, warm-up (unmeasured), ABUSE_BASELINE_SECONDS of legit
# clients alone, the attack, release and wait (<= 20 s) for the server's open files to return to the baseline,
# 3 s of legit clients alone, stop. A full run takes about 7 targets x 9 attacks x 1.5-2 min.
#
# Output: at ABUSE_SCALE=1, docs/abuse/<date>-<time>/ (results.md, rows.jsonl, machine.md) and the summary section
# of docs/abuse.md; at a smaller scale (a smoke) bench-results/abuse-<date>-<time>/ only. Server logs and the
# legitimate clients' per-request lines go to bench-results/<same id>/ (git-ignored).
#
# Knobs: ABUSE_SCALE (1), ABUSE_SERVERS (targets, instead of arguments), ABUSE_ATTACKS, ABUSE_H2 (0; 1 = add the h2
#   attacks), ABUSE_SECONDS (60), ABUSE_RATE (200 legit requests/s, HTTP/1.1 and h2 each), ABUSE_BASELINE_SECONDS (5),
#   ABUSE_TRICKLE_SECONDS (2), ABUSE_SOURCES (8 source addresses 127.0.0.2.., for ephemeral ports), PIN (1 = server
#   on CPU SERVER_CPU, clients on LOAD_CPU), JVM_FLAGS, APP_ARGS, PORT, SKIP_BUILD (1 = reuse built jars), OUT_DIR,
#   RAW_DIR, SUMMARY_DOC.
# Smoke: ABUSE_SCALE=0.05 ABUSE_SECONDS=20 ABUSE_SERVERS=sprout-nio-platform gatling/abuse.sh
#        ABUSE_SCALE=0.05 ABUSE_SECONDS=15 ABUSE_ATTACKS=h2 ABUSE_SERVERS=tomcat-platform gatling/abuse.sh
#
# Verdicts: the attack client (abuse.py) is bounded by timeout and its exit status goes into its row; non-zero, or no
# result, makes a "crashed" row (124: it timed out). gatling/scripts/abusereport.py writes every row (bash writes no
# JSON) and the report; the run exits 1 when an attack could not be measured (a crashed row, or a server that did
# not start), after writing the report. A server that fails an attack's acceptance is a result, not a failed run.
# The machine's load is not judged here: the attacks measure what a server survives, not its speed.
#
# Loopback only. The servers keep the open-file limit this shell has; only the client processes raise theirs (as
# far as allowed). Every process started here is stopped on exit, interrupted or not.
set -uo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
SCRIPTS="$ROOT/gatling/scripts"
REPORT="$SCRIPTS/abusereport.py"
# shellcheck source=scripts/bench-lib.sh
. "$SCRIPTS/bench-lib.sh"
# shellcheck source=h2tools.sh
. "$ROOT/gatling/h2tools.sh"

case "${1:-}" in -h|--help|help) usage ;; esac

ALL_ATTACKS="slowloris idle slow-readers slow-bodies slow-uploads aborts flood fd-exhaustion graceful"
H2_ATTACKS="h2-rapid-reset h2-continuation h2-ping-flood h2-settings-flood h2-zero-window h2-data-dribble"
DEFAULT_TARGETS="sprout-nio-platform sprout-nio-virtual sprout-hybrid-platform sprout-hybrid-virtual tomcat-platform tomcat-virtual jetty-platform"
: "${ABUSE_SCALE:=1}" "${ABUSE_SECONDS:=60}" "${ABUSE_RATE:=200}" "${ABUSE_BASELINE_SECONDS:=5}"
: "${ABUSE_TRICKLE_SECONDS:=2}" "${ABUSE_SOURCES:=8}" "${ABUSE_ATTACKS:=$ALL_ATTACKS}"
: "${ABUSE_H2:=0}"
: "${APP_ARGS:=}" "${PIN:=1}" "${SERVER_CPU:=0}" "${LOAD_CPU:=1}" "${PORT:=8080}" "${SKIP_BUILD:=0}"
# AlwaysPreTouch: the heap's pages are resident from the start, so "RSS grew" shows what an attack costs beyond the
# heap each server was given (threads, buffers off the heap, metaspace) instead of the first touch of heap pages,
# which any allocation does and -Xmx bounds anyway (measured: +74 MiB first touch vs +0.7 MiB otherwise).
: "${JVM_FLAGS:=-Xms512m -Xmx512m -XX:+UseSerialGC -XX:+ExitOnOutOfMemoryError -XX:+AlwaysPreTouch}"

if [ $# -gt 0 ]; then
  TARGETS=("$@")
else
  read -ra TARGETS <<< "${ABUSE_SERVERS:-$DEFAULT_TARGETS}"
fi
for target in "${TARGETS[@]}"; do
  # Spring MVC targets only: the attacks and their pass criteria were written against the servlet stack.
  { is_target "$target" && [ "$(stack_of "$target")" = servlet ]; } \
    || { echo "Unknown target '$target' (Spring MVC targets only)." >&2; usage; }
done
[ "$ABUSE_H2" = 1 ] && ABUSE_ATTACKS="$ABUSE_ATTACKS h2"
ATTACKS=()
for attack in $ABUSE_ATTACKS; do
  if [ "$attack" = h2 ]; then
    read -ra chosen <<< "$H2_ATTACKS"
  elif [[ " $ALL_ATTACKS $H2_ATTACKS " == *" $attack "* ]]; then
    chosen=("$attack")
  else
    echo "Unknown attack '$attack'." >&2; usage
  fi
  for one in "${chosen[@]}"; do
    [[ " ${ATTACKS[*]} " == *" $one "* ]] || ATTACKS+=("$one")
  done
done
WITH_H2=0
[[ " ${ATTACKS[*]} " == *" h2-"* ]] && WITH_H2=1
FULL=$(python3 -c "import sys; print(1 if float(sys.argv[1]) >= 1 else 0)" "$ABUSE_SCALE") \
  || die "ABUSE_SCALE must be a number, not '$ABUSE_SCALE'"

RUN_ID="$(date -u +%Y-%m-%d)-abuse-$(date -u +%H%M%S)"
if [ "$FULL" = 1 ]; then
  : "${OUT_DIR:=$ROOT/docs/abuse/$RUN_ID}" "${SUMMARY_DOC=$ROOT/docs/abuse.md}"  # SUMMARY_DOC= : no summary
else
  : "${OUT_DIR:=$ROOT/bench-results/$RUN_ID}" "${SUMMARY_DOC:=}"
fi
: "${RAW_DIR:=$ROOT/bench-results/$RUN_ID}"
begin_run
[ "$WITH_H2" = 1 ] && h2tools

# ------------------------------------------------------------------ one attack on a fresh server
STEP=0
run_attack() { # target attack
  local target=$1 attack=$2 port log pid out
  # The h2 rows: h2c on the plaintext port (start_server reads APP_ARGS; local to this call).
  local APP_ARGS=$APP_ARGS
  [[ "$attack" == h2-* ]] && APP_ARGS="--server.http2.enabled=true $APP_ARGS"
  STEP=$((STEP + 1))
  port=$(free_port "$PORT")
  log="$RAW_DIR/logs/$target-$attack-server.log"
  progress "[$STEP/$TOTAL_STEPS] $target: $attack (scale $ABUSE_SCALE, <= ${ABUSE_SECONDS}s); server on 127.0.0.1:$port"
  start_server "$(jar_of "$(flavour_of "$target")")" "$target" "$port" "$log"
  pid=$SERVER_PID
  if ! wait_ready "$pid" "$port" > /dev/null; then
    # Boot's failure report names the cause on the line after "Description:" (Sprout refusing HTTP/2, say).
    local cause
    cause=$(grep -A2 '^Description:' "$log" | sed -n 3p)
    record_status "$target" failed "not ready${cause:+: $cause} (see $log)" attack="$attack"
    progress "$target: FAILED to start${cause:+: $cause} (see $log)"
    stop_server "$pid"
    return 1
  fi
  local identity
  if ! identity=$(check_identity "$target" "$port"); then
    record_status "$target" failed "$identity" attack="$attack"
    stop_server "$pid"
    return 1
  fi
  out="$RAW_DIR/logs/$target-$attack.json"
  local client_log="$RAW_DIR/logs/$target-$attack-client.log" limit=$(( ABUSE_SECONDS * 2 + 240 ))
  # The result is abuse.py's standard output, kept apart from its progress (the client log). The attacks are judged
  # on what the server survived, not on speed, so the machine's load is not sampled (no MAX_LOAD).
  run_child timeout --kill-after=10 "$limit" "${ON_LOAD_CPU[@]}" \
    python3 -B "$SCRIPTS/abuse.py" run "$attack" target="$target" pid="$pid" port="$port" scale="$ABUSE_SCALE" \
    seconds="$ABUSE_SECONDS" rate="$ABUSE_RATE" baseline="$ABUSE_BASELINE_SECONDS" sources="$ABUSE_SOURCES" \
    trickle="$ABUSE_TRICKLE_SECONDS" work_dir="$RAW_DIR/logs" > "$out" 2> "$client_log"
  measured $? "$limit"
  sed 's/^/  /' "$client_log" | grep -v '^  *$' | tail -3
  record "$out" target="$target" attack="$attack" client_log="$client_log" "${MEASURED[@]}"
  stop_server "$pid"
}

# ------------------------------------------------------------------ main
write_machine() {
  {
    echo "## Abuse run $RUN_ID"
    echo
    machine_lines
    echo "- server JVM flags (identical for every target): \`$JVM_FLAGS\`; Spring Boot defaults${APP_ARGS:+; application arguments \`$APP_ARGS\`}"
    echo "- servers' open-file limit (soft/hard): $(ulimit -Sn)/$(ulimit -Hn); somaxconn $(cat /proc/sys/net/core/somaxconn)"
    pinning_line "attack and legitimate clients" " (legitimate clients at nice -5)"
    echo "- scale $ABUSE_SCALE (counts), each attack <= ${ABUSE_SECONDS}s; legitimate clients: GET /benchmark/hello, $ABUSE_RATE/s, a new connection each, 5 s time-out; baseline ${ABUSE_BASELINE_SECONDS}s; slowloris trickle one byte per ${ABUSE_TRICKLE_SECONDS}s"
    if [ "$WITH_H2" = 1 ]; then
      echo "- h2 rows: servers started with \`--server.http2.enabled=true\`, attacked over h2c (prior knowledge); a legitimate HTTP/2 client beside the HTTP/1.1 one: GET /benchmark/hello, $ABUSE_RATE/s on one h2c connection, 5 s time-out; $(h2tools_versions | tail -1)"
    fi
    echo "- targets: ${TARGETS[*]}; attacks: ${ATTACKS[*]}"
    echo "- raw logs: bench-results/$RUN_ID/ (not committed)"
  } > "$OUT_DIR/machine.md"
}

progress "abuse harness: ${TARGETS[*]} x ${ATTACKS[*]}"
progress "results: $OUT_DIR"
build_targets attack "${ATTACKS[@]}"
write_machine
TOTAL_STEPS=$(( ${#RUNNABLE[@]} * ${#ATTACKS[@]} ))
for target in "${RUNNABLE[@]}"; do
  for attack in "${ATTACKS[@]}"; do
    run_attack "$target" "$attack"
  done
done
echo "- load average (1/5/15 min) when the run ended: $(cut -d' ' -f1-3 /proc/loadavg)" >> "$OUT_DIR/machine.md"
progress "writing $OUT_DIR/results.md${SUMMARY_DOC:+ and the summary in ${SUMMARY_DOC#"$ROOT"/}}"
echo
# Written first, judged after: exit 1 when an attack could not be measured (a server that did not start, an attack
# client that failed or timed out), not when a server failed an attack, which is a result.
python3 -B "$REPORT" report "$OUT_DIR" ${SUMMARY_DOC:+"$SUMMARY_DOC"}
VERDICT=$?
progress "done in $(( $(date +%s) - START_EPOCH ))s: $OUT_DIR"
[ ${#RUNNABLE[@]} -gt 0 ] || exit 1
exit "$VERDICT"
