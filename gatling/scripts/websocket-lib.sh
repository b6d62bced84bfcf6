# The WebSocket simulations of gatling/compare.sh (sourced by it, never run): the limits 10,000 sessions need,
# one function per simulation, and the server measurements of WebSocketIdle. Uses compare.sh's run_gatling and
# gatling_command, bench-lib.sh's record, sample_load, measured, progress and die, and compare.sh's WS_* knobs.

# 10,000 sessions need as many descriptors in the server and in Gatling, and as many ephemeral ports on the client
# address (Linux reuses loopback ports in TIME_WAIT with tcp_tw_reuse=2, its default, so consecutive simulations fit).
ws_preflight() {
  local need=$((WS_SESSIONS + 1024)) soft hard low high ports addresses=1
  soft=$(ulimit -Sn)
  hard=$(ulimit -Hn)
  if [ "$soft" != unlimited ] && [ "$soft" -lt "$need" ]; then
    # Both JVMs inherit this shell's limit.
    ulimit -n "$hard" 2>/dev/null || true
    soft=$(ulimit -Sn)
  fi
  [ "$soft" = unlimited ] || [ "$soft" -ge "$need" ] \
    || die "WS_SESSIONS=$WS_SESSIONS needs $need open files per process, the limit is $soft (raise ulimit -n)"
  read -r low high < /proc/sys/net/ipv4/ip_local_port_range
  ports=$((high - low + 1))
  [ -n "$WS_LOCAL_ADDRESSES" ] && addresses=$(tr ',' '\n' <<< "$WS_LOCAL_ADDRESSES" | grep -c .)
  [ $((ports * addresses)) -ge "$need" ] \
    || die "WS_SESSIONS=$WS_SESSIONS needs $need ephemeral ports, $addresses address(es) x $ports ports are too few: set WS_LOCAL_ADDRESSES=127.0.0.1,127.0.0.2,..."
  progress "WebSocket: $WS_SESSIONS sessions fit: open files $soft, ephemeral ports $low-$high x $addresses address(es), tcp_tw_reuse $(cat /proc/sys/net/ipv4/tcp_tw_reuse)"
}

ws_machine_lines() {
  echo "- WebSocket: Tomcat's and Sprout's connection limits raised to $WS_MAX_CONNECTIONS (application arguments above)"
  if [ "$WS_DEFLATE" = 0 ]; then
    echo "- WebSocket: permessage-deflate declined by Sprout (WS_DEFLATE=0) and Reactor Netty, agreed by Tomcat and Jetty, which have no switch"
  else
    echo "- WebSocket: permessage-deflate as each server's default (WS_DEFLATE=1): Tomcat, Jetty and Sprout agree, Reactor Netty does not"
  fi
  echo "- WebSocket: echo $WS_ECHO_SESSIONS sessions x ${WS_ECHO_SECONDS}s after a ${WS_ECHO_WARMUP_SECONDS}s warm-up level, $WS_SIZE-character text messages; idle $WS_SESSIONS sessions ramped over ${WS_RAMP_SECONDS}s, held ${WS_HOLD_SECONDS}s, RSS read ${WS_SETTLE_SECONDS}s after the last opened; broadcast to $WS_SESSIONS sessions, $WS_WARMUP_BROADCASTS warm-up and $WS_BROADCASTS measured broadcasts x $WS_MESSAGES messages of $WS_SIZE characters, ${WS_GAP_SECONDS}s apart (durations times scale $SCALE)${WS_LOCAL_ADDRESSES:+; source addresses $WS_LOCAL_ADDRESSES}"
  if [ "$WS_COLLECT_HEAP" = 1 ]; then
    echo "- WebSocket broadcast: the server's heap collected (jcmd GC.run) after the warm-up broadcasts, before the first measured one (WS_COLLECT_HEAP=1)"
  fi
}

ws_local_addresses() { [ -n "$WS_LOCAL_ADDRESSES" ] && echo "-DlocalAddresses=$WS_LOCAL_ADDRESSES"; }
# WebSocketBroadcast collects the server's heap before its first broadcast (WS_COLLECT_HEAP; see ServerHeap.java).
ws_heap_collection() { [ "$WS_COLLECT_HEAP" = 1 ] && echo "-DserverPid=$1 -Djcmd=$JAVA_HOME/bin/jcmd"; }

# Seconds times SCALE, at least one (as the simulations scale them).
ws_scaled() { python3 -c "import sys; print(max(1.0, float(sys.argv[1]) * float(sys.argv[2])))" "$1" "$SCALE"; }

ws_open_sessions() { # port [seconds] -> sessions open on the server (0 if it does not answer in time)
  local open
  open=$(curl -s --max-time "${2:-2}" "http://127.0.0.1:$1/benchmark/ws/sessions" \
    | sed -n 's/.*"open":\([0-9]*\).*/\1/p')
  echo "${open:-0}"
}

rss_kb() { awk '/^VmRSS:/ {print $2}' "/proc/$1/status" 2>/dev/null; }

# The server's live heap, kB: a full collection (jcmd GC.run), then the used size of every generation or region
# set, the lines "<name> total ..K, used ..K" of GC.heap_info (Serial on JDK 25: "DefNew" and "Tenured"; G1:
# "garbage-first heap"); the space lines under them and Metaspace have no "total".
live_heap_kb() {
  timeout 60 "$JAVA_HOME/bin/jcmd" "$1" GC.run > /dev/null 2>&1 || return 0
  timeout 60 "$JAVA_HOME/bin/jcmd" "$1" GC.heap_info 2>/dev/null | awk '/ total [0-9]+K, used [0-9]+K/ {
      for (i = 1; i < NF; i++) if ($i == "used") { v = $(i + 1); sub(/K,?$/, "", v); sum += v }
    } END { if (sum > 0) print sum }'
}

run_websocket_simulation() { # simulation target port server-pid ready-ms meta...
  local sim=$1 target=$2 port=$3 server_pid=$4 ready_ms=$5
  shift 5
  if ! kill -0 "$server_pid" 2>/dev/null; then
    # A server that died (e.g. out of memory with 10,000 sessions) fails the rest instead of refusing connections.
    record_status "$target" failed "$sim not run: the server had exited (see $RAW_DIR/logs/$target-server.log)"
    progress "[$STEP/$TOTAL_STEPS] $target: $sim not run, the server had exited"
    return 0
  fi
  case "$sim" in
    WebSocketEcho) ws_rounds run_ws_echo "$target" "$port" "$ready_ms" "$@" ;;
    WebSocketIdle) run_ws_idle "$target" "$port" "$server_pid" "$ready_ms" "$@" ;;
    WebSocketBroadcast) ws_rounds run_ws_broadcast "$target" "$port" "$server_pid" "$ready_ms" "$@" ;;
    *) die "unknown WebSocket simulation $sim" ;;
  esac
}

# Echo and broadcast run WS_ROUNDS times, one Gatling run after the other against the same server: one run of either
# moves by a tenth or more from one to the next, so the report takes their median and refuses it, as wrk's, when the
# rounds disagree by more than MAX_SPREAD_PERCENT. ROUND is the round's number ("" when there is one round only).
ws_rounds() { # run-function target port ready-ms meta...
  local run=$1 round
  shift
  if [ "$WS_ROUNDS" -le 1 ]; then
    ROUND="" "$run" "$@"
    return
  fi
  for round in $(seq 1 "$WS_ROUNDS"); do
    ROUND=$round "$run" "$@"
  done
}
ws_log() { echo "$RAW_DIR/logs/$1-$2${ROUND:+-round$ROUND}.log"; } # target simulation
ws_round_of() { echo "${ROUND:+ (round $ROUND of $WS_ROUNDS)}"; }

run_ws_echo() { # target port ready-ms meta...
  local target=$1 port=$2 ready_ms=$3 log limit
  log=$(ws_log "$target" WebSocketEcho)
  shift 3
  progress "[$STEP/$TOTAL_STEPS] $target: WebSocketEcho$(ws_round_of) ($WS_ECHO_SESSIONS sessions, ${WS_ECHO_SECONDS}s after a ${WS_ECHO_WARMUP_SECONDS}s warm-up level, scale $SCALE)"
  limit=$(( $(sim_limit $((WS_ECHO_SECONDS + WS_ECHO_WARMUP_SECONDS))) + 120 ))
  # shellcheck disable=SC2046 # no local addresses: no argument
  run_gatling "$target" "$port" WebSocketEcho WebSocketEcho "$limit" "$log" -Dlevels="$WS_ECHO_SESSIONS" \
    -DlevelSeconds="$WS_ECHO_SECONDS" -DwarmUpSeconds="$WS_ECHO_WARMUP_SECONDS" -Dsize="$WS_SIZE" \
    $(ws_local_addresses)
  record gatling "$log" "$@" "${MEASURED[@]}" simulation="WebSocketEcho-$WS_ECHO_SESSIONS" \
    clients="$WS_ECHO_SESSIONS" ready_ms="$ready_ms" ${ROUND:+round=$ROUND}
}

# Gatling opens the sessions in the background while this shell watches the server: once it counts them all, or
# the simulation says every handshake has finished (some failed), and WS_SETTLE_SECONDS later, it reads the server's
# RSS and the count again, and then its live heap (after a full collection, which must not touch the RSS reading).
# The simulation holds the sessions for WS_HOLD_SECONDS after its last handshake.
run_ws_idle() { # target port server-pid ready-ms meta...
  local target=$1 port=$2 pid=$3 ready_ms=$4 log="$RAW_DIR/logs/$1-WebSocketIdle.log"
  local before after="" heap_before heap_after="" open=0 ramp hold settle deadline limit
  shift 4
  progress "[$STEP/$TOTAL_STEPS] $target: WebSocketIdle ($WS_SESSIONS sessions over ${WS_RAMP_SECONDS}s, held ${WS_HOLD_SECONDS}s, scale $SCALE)"
  ramp=$(ws_scaled "$WS_RAMP_SECONDS")
  hold=$(ws_scaled "$WS_HOLD_SECONDS")
  # The reading must happen while every session is still open: at most a third of the hold after the last one.
  settle=$(python3 -c "import sys; print(min(float(sys.argv[1]), float(sys.argv[2]) / 3))" "$WS_SETTLE_SECONDS" "$hold")
  limit=$(python3 -c "import sys; print(int(float(sys.argv[1]) + float(sys.argv[2]) + 240))" "$ramp" "$hold")
  # Before the full collection below, which would count as load.
  sample_load
  heap_before=$(live_heap_kb "$pid")
  before=$(rss_kb "$pid")
  # shellcheck disable=SC2046 # no local addresses: no argument
  gatling_command "$target" "$port" WebSocketIdle WebSocketIdle -Dsessions="$WS_SESSIONS" \
    -DrampSeconds="$WS_RAMP_SECONDS" -DholdSeconds="$WS_HOLD_SECONDS" $(ws_local_addresses)
  # In the background, so this shell can read the server while Gatling holds the sessions.
  timeout --kill-after=10 "$limit" "${GATLING_COMMAND[@]}" > "$log" 2>&1 &
  CHILD_PID=$!
  deadline=$(python3 -c "import sys, time; print(int(time.time() + float(sys.argv[1]) + 120))" "$ramp")
  while kill -0 "$CHILD_PID" 2>/dev/null && [ "$(date +%s)" -lt "$deadline" ]; do
    open=$(ws_open_sessions "$port")
    [ "$open" -ge "$WS_SESSIONS" ] && break
    grep -q '^ws-idle handshakes=' "$log" && break
    sleep 0.5
  done
  if kill -0 "$CHILD_PID" 2>/dev/null; then
    sleep "$settle"
    after=$(rss_kb "$pid")
    # The server's count is the divisor. A server at its connection limit cannot answer it (the request waits in the
    # backlog), so then the sessions the simulation holds are the divisor.
    open=$(ws_open_sessions "$port" 10)
    if [ "$open" = 0 ]; then
      open=$(sed -n 's/^ws-idle handshakes=[0-9]* open=\([0-9]*\)$/\1/p' "$log" | head -1)
      progress "$target: the server did not answer /benchmark/ws/sessions; ${open:-no} sessions held by Gatling"
    fi
    heap_after=$(live_heap_kb "$pid")
    progress "$target: $open sessions open, RSS ${before} kB before, ${after} kB now; live heap ${heap_before} kB before, ${heap_after} kB now"
  else
    progress "$target: WebSocketIdle ended before its sessions could be measured (see $log)"
  fi
  wait "$CHILD_PID"
  local status=$?
  CHILD_PID=""
  STOPPED_EARLY=""
  measured "$status" "$limit"
  record wsidle "$log" "$@" "${MEASURED[@]}" simulation=WebSocketIdle ready_ms="$ready_ms" \
    rss_before_kb="$before" rss_after_kb="$after" heap_before_kb="$heap_before" heap_after_kb="$heap_after" \
    sessions_open="$open"
}

run_ws_broadcast() { # target port server-pid ready-ms meta...
  local target=$1 port=$2 server_pid=$3 ready_ms=$4 log limit
  log=$(ws_log "$target" WebSocketBroadcast)
  shift 4
  progress "[$STEP/$TOTAL_STEPS] $target: WebSocketBroadcast$(ws_round_of) ($WS_SESSIONS sessions over ${WS_RAMP_SECONDS}s, $WS_WARMUP_BROADCASTS warm-up and $WS_BROADCASTS measured broadcasts x $WS_MESSAGES messages, scale $SCALE)"
  limit=$(( $(sim_limit $((WS_RAMP_SECONDS + (WS_WARMUP_BROADCASTS + WS_BROADCASTS) * WS_GAP_SECONDS \
    + 2 * WS_DRAIN_SECONDS))) + 180 ))
  # shellcheck disable=SC2046 # no local addresses, no heap collection: no argument
  run_gatling "$target" "$port" WebSocketBroadcast WebSocketBroadcast "$limit" "$log" -Dsessions="$WS_SESSIONS" \
    -DrampSeconds="$WS_RAMP_SECONDS" -Dbroadcasts="$WS_BROADCASTS" -Dmessages="$WS_MESSAGES" -Dsize="$WS_SIZE" \
    -DgapSeconds="$WS_GAP_SECONDS" -DdrainSeconds="$WS_DRAIN_SECONDS" -DwarmUpBroadcasts="$WS_WARMUP_BROADCASTS" \
    $(ws_local_addresses) \
    $(ws_heap_collection "$server_pid")
  record wsbroadcast "$log" "$@" "${MEASURED[@]}" simulation=WebSocketBroadcast ready_ms="$ready_ms" \
    ${ROUND:+round=$ROUND}
}
