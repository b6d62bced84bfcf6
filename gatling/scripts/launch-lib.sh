# The warmup preset of gatling/compare.sh (sourced by it, never run): each target launched once per variant (plain;
# from a JDK AOT cache; for Sprout also from the cache with sprout.server.warm-up), with LaunchLoad loading it from
# the moment of its launch, and optionally once more per variant for ColdStart. The AOT cache of a target comes from
# a training run of its own (docs/start-up.md), kept under sample-boot-app/target/FLAVOUR/aot/ and reused while it is
# newer than the jar and was trained with the same flags. Bash starts and stops; benchreport.py and launchresults.py
# judge and write the rows.
# Needs compare.sh's ROOT, RAW_DIR, JVM_FLAGS, APP_ARGS, PORT, WRK_CONNECTIONS, SCALE, COLD_USERS, run_gatling,
# sim_limit and SIM_SECONDS, and the knobs LAUNCH_VARIANTS, LAUNCH_SECONDS, LAUNCH_CONNECTIONS, LAUNCH_COLD_START,
# AOT_TRAINING_SECONDS, AOT_ASSEMBLY_SECONDS, WARMUP_PATHS, WARMUP_COMPILED_TIMEOUT, WARMUP_COMPILED_CONCURRENCY and
# LAUNCH_BURST.

# ------------------------------------------------------------------ the AOT cache
aot_dir() { echo "$(dirname "$(jar_of "$1")")/aot"; } # flavour
# The extracted application: a plain jar and lib/, a class path the JVM can cache (Boot's nested jars are not).
aot_app_jar() { echo "$(aot_dir "$1")/app/$(basename "$(jar_of "$1")")"; } # flavour
aot_cache_of() { echo "$(aot_dir "$(flavour_of "$1")")/$1.aot"; } # target
# What a cache was trained with: a cache is only used by a JVM with the same flags, and trains what the target runs.
aot_training_flags() { echo "$JVM_FLAGS $(props_of "$1") $APP_ARGS"; } # target

aot_extract() { # flavour: the extracted application, once per jar
  local flavour=$1 app
  app=$(aot_app_jar "$flavour")
  [ "$app" -nt "$(jar_of "$flavour")" ] && return 0
  rm -rf "$(aot_dir "$flavour")/app"
  "$JAVA" -Djarmode=tools -jar "$(jar_of "$flavour")" extract --destination "$(aot_dir "$flavour")/app" \
    > "$RAW_DIR/logs/aot-extract-$flavour.log" 2>&1 && [ -f "$app" ]
}

# Makes the target's AOT cache unless a fresh one is there: the extracted application started with
# -XX:AOTCacheOutput, AOT_TRAINING_SECONDS of wrk on /benchmark/hello and /benchmark/json, then SIGTERM; the JVM
# assembles the cache as it exits. Returns 1 with AOT_PROBLEM set when no cache came of it.
AOT_PROBLEM=""
aot_train() { # target
  local target=$1 flavour cache port pid log endpoint status
  flavour=$(flavour_of "$target")
  cache=$(aot_cache_of "$target")
  AOT_PROBLEM=""
  if [ "$cache" -nt "$(jar_of "$flavour")" ] && [ "$(cat "$cache.flags" 2>/dev/null)" = "$(aot_training_flags "$target")" ]; then
    progress "$target: reusing its AOT cache $cache"
    return 0
  fi
  rm -f "$cache" "$cache.flags"
  if ! aot_extract "$flavour"; then
    AOT_PROBLEM="extracting $(basename "$(jar_of "$flavour")") failed (see aot-extract-$flavour.log)"
    return 1
  fi
  port=$(free_port "$PORT")
  log="$RAW_DIR/logs/$target-aot-training.log"
  progress "$target: training its AOT cache (${AOT_TRAINING_SECONDS}s of wrk per endpoint, then SIGTERM)"
  EXTRA_JVM_FLAGS="-XX:AOTCacheOutput=$cache" start_server "$(aot_app_jar "$flavour")" "$target" "$port" "$log"
  pid=$SERVER_PID
  if ! wait_ready "$pid" "$port" > /dev/null; then
    AOT_PROBLEM="the training run did not start (see $(basename "$log"))"
  fi
  for endpoint in hello json; do
    [ -n "$AOT_PROBLEM" ] && break
    run_wrk "$WRK_CONNECTIONS" "$AOT_TRAINING_SECONDS" "$RAW_DIR/logs/$target-aot-training-$endpoint.log" \
      "$SCHEME://127.0.0.1:$port/benchmark/$endpoint"
    status=${MEASURED[0]#exit_status=}
    [ "$status" != 0 ] && AOT_PROBLEM="the training load (wrk on /benchmark/$endpoint) exited with status $status"
  done
  # A second JVM assembles the cache after the first exits: more than stop_server's usual 15 s on a busy CPU.
  stop_server "$pid" "$AOT_ASSEMBLY_SECONDS"
  if [ -z "$AOT_PROBLEM" ] && [ ! -s "$cache" ]; then
    AOT_PROBLEM="the training run wrote no AOT cache $cache (see $(basename "$log"))"
  fi
  if [ -n "$AOT_PROBLEM" ]; then
    rm -f "$cache"
    return 1
  fi
  aot_training_flags "$target" > "$cache.flags"
  progress "$target: AOT cache written, $(du -m "$cache" | cut -f1) MB"
}

# ------------------------------------------------------------------ launches
variants_of() { # target: the variants it runs, of LAUNCH_VARIANTS (warm-up is Sprout's)
  local variant
  for variant in $LAUNCH_VARIANTS; do
    [[ "$variant" == aot-warmup || "$variant" == aot-compiled ]] && [[ "$1" != sprout-* ]] && continue
    echo "$variant"
  done
}
# Starts the target as the variant runs it (-XX:AOTMode=on: a JVM that cannot use the cache exits rather than run
# without it, so a variant never measures the plain launch by mistake). Sets SERVER_PID and LAUNCH_MS.
launch_variant() { # target variant port log
  local target=$1 variant=$2 flavour jar flags="" args=""
  flavour=$(flavour_of "$target")
  jar=$(jar_of "$flavour")
  if [[ "$variant" == aot* ]]; then
    jar=$(aot_app_jar "$flavour")
    flags="-XX:AOTMode=on -XX:AOTCache=$(aot_cache_of "$target")"
  fi
  [ "$variant" = aot-warmup ] && args="--sprout.server.warm-up.enabled=true --sprout.server.warm-up.paths=$WARMUP_PATHS"
  [ "$variant" = aot-compiled ] && args="--sprout.server.warm-up.enabled=true --sprout.server.warm-up.paths=$WARMUP_PATHS
    --sprout.server.warm-up.until-compiled=true --sprout.server.warm-up.timeout=$WARMUP_COMPILED_TIMEOUT
    --sprout.server.warm-up.concurrency=$WARMUP_COMPILED_CONCURRENCY"
  EXTRA_JVM_FLAGS=$flags EXTRA_APP_ARGS=$args start_server "$jar" "$target" "$3" "$4"
}

# LaunchLoad from the launch to LAUNCH_SECONDS after it; stopped early (and so failed) if the server exits.
run_launch_load() { # target variant
  local target=$1 variant=$2 port log meta
  read -ra meta <<< "$(meta_of "$target")"
  port=$(free_port "$PORT")
  log="$RAW_DIR/logs/$target-$variant-launch.log"
  progress "$target ($variant): launched with LaunchLoad ($LAUNCH_CONNECTIONS connections on /benchmark/hello for ${LAUNCH_SECONDS}s from the launch)"
  sample_load
  launch_variant "$target" "$variant" "$port" "$RAW_DIR/logs/$target-$variant-launch-server.log"
  WATCH_PID=$SERVER_PID
  run_bounded $((LAUNCH_SECONDS + 30)) "$log" "${ON_LOAD_CPU[@]}" "$JAVA" -XX:+UseSerialGC -Xmx256m \
    -cp "$ROOT/gatling/target/test-classes" -Dport="$port" -DlaunchEpochMs="$LAUNCH_MS" \
    -Dconnections="$LAUNCH_CONNECTIONS" -Dseconds="$LAUNCH_SECONDS" -Dburst="${LAUNCH_BURST:-0}" io.sprout.gatling.LaunchLoad
  WATCH_PID=""
  local identity
  # Still up after its load: it must be the server we think we measured (a dead one fails the row by itself).
  if kill -0 "$SERVER_PID" 2>/dev/null && ! identity=$(check_identity "$target" "$port"); then
    record_status "$target" failed "$identity" tool=launchload simulation="launch-$variant" variant="$variant"
  else
    record launchload "$log" "${meta[@]}" "${MEASURED[@]}" simulation="launch-$variant" variant="$variant"
  fi
  stop_server "$SERVER_PID"
}

# ColdStart (COLD_USERS at once the moment /benchmark/health answers) on a launch of its own.
run_launch_cold_start() { # target variant
  local target=$1 variant=$2 port meta log="$RAW_DIR/logs/$1-$2-ColdStart.log"
  read -ra meta <<< "$(meta_of "$target")"
  port=$(free_port "$PORT")
  progress "$target ($variant): ColdStart ($COLD_USERS users at once when ready, scale $SCALE)"
  launch_variant "$target" "$variant" "$port" "$RAW_DIR/logs/$target-$variant-ColdStart-server.log"
  WATCH_PID=$SERVER_PID
  run_gatling "$target" "$port" ColdStart "ColdStart $variant" "$(sim_limit "${SIM_SECONDS[ColdStart]}")" "$log" \
    -DcoldUsers="$COLD_USERS" -DreadyTimeoutSeconds=150
  WATCH_PID=""
  record gatling "$log" "${meta[@]}" "${MEASURED[@]}" simulation="ColdStart-$variant" variant="$variant"
  stop_server "$SERVER_PID"
}

run_target_launches() { # target
  local target=$1 variant
  for variant in $(variants_of "$target"); do
    if [[ "$variant" == aot* ]] && [ -n "$AOT_PROBLEM" ]; then
      record_status "$target" failed "AOT cache: $AOT_PROBLEM" tool=launchload simulation="launch-$variant" \
        variant="$variant"
      progress "$target ($variant): FAILED, AOT cache: $AOT_PROBLEM"
      continue
    fi
    run_launch_load "$target" "$variant"
    [ "$LAUNCH_COLD_START" = 1 ] && run_launch_cold_start "$target" "$variant"
  done
}

# Every target of the preset: its AOT cache first (when a variant needs one), then its launches.
run_launch_matrix() { # targets...
  local target
  for target in "$@"; do
    AOT_PROBLEM=""
    if variants_of "$target" | grep -q '^aot'; then aot_train "$target"; fi
    run_target_launches "$target"
  done
}

launch_machine_lines() {
  echo "- warmup: per target and variant ($LAUNCH_VARIANTS; aot-warmup and aot-compiled for sprout-* only) a fresh launch loaded by LaunchLoad from the moment of launch: $LAUNCH_CONNECTIONS keep-alive connections on /benchmark/hello, one request in flight each, until ${LAUNCH_SECONDS}s after the launch, answers counted in 1 s windows from the launch; at the first answer a burst of ${LAUNCH_BURST:-0} users on new connections, one request each, timed by LaunchLoad$([ "$LAUNCH_COLD_START" = 1 ] && echo "; then a second launch per variant for ColdStart ($COLD_USERS users at once when ready)")"
  echo "- AOT cache: trained per target on the extracted jar (-XX:AOTCacheOutput, ${AOT_TRAINING_SECONDS}s of wrk on /benchmark/hello and /benchmark/json, then SIGTERM), used with \`-XX:AOTMode=on -XX:AOTCache=...\`; warm-up variant: \`--sprout.server.warm-up.enabled=true --sprout.server.warm-up.paths=$WARMUP_PATHS\`; aot-compiled: the same with \`--sprout.server.warm-up.until-compiled=true --sprout.server.warm-up.timeout=$WARMUP_COMPILED_TIMEOUT --sprout.server.warm-up.concurrency=$WARMUP_COMPILED_CONCURRENCY\`"
}
