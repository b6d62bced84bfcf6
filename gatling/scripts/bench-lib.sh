# Shared by gatling/compare.sh, gatling/abuse.sh, gatling/ab-wrk.sh and gatling/alloc.sh (sourced, never run): finding
# a JDK and the load tools, the targets and their properties, building the sample jar from scratch, starting, probing
# and stopping pinned servers so that nothing is left running, running a tool with its time limit and its exit status
# kept, and handing rows to Python (bash writes no JSON). The caller sets START_EPOCH, JVM_FLAGS, APP_ARGS, PIN,
# SERVER_CPU and LOAD_CPU, installs `trap cleanup EXIT`, and calls find_jdk and setup_pinning before starting anything
# (begin_run does all three for a results run); a runner that records rows sets REPORT (its Python report, whose
# `row ROWS ...` command judges and appends one row) and MAX_LOAD (see sample_load). SCHEME (default http) is https
# when the servers were started with server.ssl.* in APP_ARGS (see bench_key_store).
BENCH_SCRIPTS=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)

# The runner's header comment (the script that was run), as its help.
usage() {
  awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"
  exit 2
}
progress() { printf '[%s +%4ss] %s\n' "$(date -u +%H:%M:%S)" "$(( $(date +%s) - START_EPOCH ))" "$*"; }
die() { echo "$(basename "$0"): $*" >&2; exit 1; }

# ------------------------------------------------------------------ cleanup: never leave a server or load running
SERVER_PIDS=()
CHILD_PID=""
cleanup() {
  [ -n "$CHILD_PID" ] && kill -TERM "$CHILD_PID" 2>/dev/null
  local pid
  for pid in "${SERVER_PIDS[@]}"; do stop_pid "$pid"; done
  SERVER_PIDS=()
}
stop_pid() { # pid [seconds before SIGKILL, 15]
  local pid=$1 i
  kill -TERM "$pid" 2>/dev/null || return 0
  for i in $(seq 1 $((${2:-15} * 10))); do kill -0 "$pid" 2>/dev/null || return 0; sleep 0.1; done
  kill -KILL "$pid" 2>/dev/null
  wait "$pid" 2>/dev/null
}

# Runs a command in the background and waits, so the EXIT trap can stop it. With WATCH_PID set, the command is
# stopped early if that process (the server) exits, instead of waiting for its own time-outs.
# STOPPED_EARLY says whether it was.
WATCH_PID=""
STOPPED_EARLY=""
run_child() {
  STOPPED_EARLY=""
  "$@" &
  CHILD_PID=$!
  if [ -n "$WATCH_PID" ]; then
    while kill -0 "$CHILD_PID" 2>/dev/null; do
      if ! kill -0 "$WATCH_PID" 2>/dev/null; then
        kill -TERM "$CHILD_PID" 2>/dev/null
        STOPPED_EARLY=1
        break
      fi
      sleep 0.2
    done
  fi
  wait "$CHILD_PID"
  local rc=$?
  CHILD_PID=""
  return $rc
}

# ------------------------------------------------------------------ measured runs and their rows
# Every tool run that makes a row goes through run_measured (or, for one whose load was sampled already or does not
# matter, run_bounded): its time limit is timeout's, and what the row needs to judge it lands in MEASURED, words for
# `record`: the exit status (124 when the limit stopped it), the limit, whether run_child stopped it because its server
# died, the machine's load just before it and the most allowed.
MEASURED=()
LOAD_BEFORE=""
# The CPUs that work outside this runner ($$ and every process below it: its servers, its tools) kept busy over
# LOAD_SAMPLE_SECONDS (1), in LOAD_BEFORE: taken just before a measured run, it sees what would compete with the
# measurement (machineload.py says why not the 1-minute load average).
sample_load() {
  LOAD_BEFORE=$(python3 -B "$BENCH_SCRIPTS/machineload.py" "${LOAD_SAMPLE_SECONDS:-1}" $$)
}
measured() { # exit-status limit-seconds [cpu-jiffies-before cpu-jiffies-after]
  MEASURED=(exit_status="$1" limit="$2" load_before="$LOAD_BEFORE" max_load="${MAX_LOAD:-none}"
    ${STOPPED_EARLY:+stopped_early=1} ${3:+cpu_before=$3} ${4:+cpu_after=$4})
}
# With pinning, the busy and total jiffies of the server's CPU and the load generator's, "busy:total,busy:total"
# (machineload.py): read around a measured run, they tell whose CPU ran out. A load generator that had its CPU busy
# all the time measured itself as much as the server. Nothing without pinning, where neither has a CPU of its own.
cpu_jiffies() {
  [ -n "${ON_LOAD_CPU[*]:-}" ] && python3 -B "$BENCH_SCRIPTS/machineload.py" jiffies "$SERVER_CPU" "$LOAD_CPU"
}
run_bounded() { # limit-seconds log command...: the command under timeout (killed 10 s after its limit), output to log
  local limit=$1 log=$2 cpu_before rc
  shift 2
  cpu_before=$(cpu_jiffies)
  run_child timeout --kill-after=10 "$limit" "$@" > "$log" 2>&1
  rc=$?
  measured "$rc" "$limit" "$cpu_before" "$(cpu_jiffies)"
}
run_measured() { # limit-seconds log command...: run_bounded, after sampling the machine's load
  sample_load
  run_bounded "$@"
}
# wrk pinned to the load CPU with one thread, bounded by the run's length + 30 s.
run_wrk() { # connections seconds log [wrk option...] url
  local connections=$1 seconds=$2 log=$3
  shift 3
  run_bounded $((seconds + 30)) "$log" "${ON_LOAD_CPU[@]}" wrk -t1 -c"$connections" -d"${seconds}s" "$@"
}

# One row from a tool's log, judged and appended to ROWS by the runner's Python report, which prints its summary.
record() { # kind log key=value...
  python3 -B "$REPORT" row "$ROWS" "$@"
}
# A row without a tool's log: a target skipped, or failed before any tool ran.
record_status() { # target status note [key=value...]
  # shellcheck disable=SC2046 # meta_of's words
  python3 -B "$BENCH_SCRIPTS/runrows.py" "$ROWS" $(meta_of "$1") tool=- simulation=- status="$2" note="$3" "${@:4}"
}

# ------------------------------------------------------------------ tools
java_major() {
  "$1" -XshowSettings:properties -version 2>&1 | awk -F'= ' '/java.specification.version/ {print $2}' | cut -d. -f1
}
find_jdk() { # sets and exports JAVA_HOME (a JDK >= 21) and PATH, sets JAVA
  if [ -n "${JAVA_HOME:-}" ] && [ -x "$JAVA_HOME/bin/javac" ] && [ "$(java_major "$JAVA_HOME/bin/java")" -ge 21 ]; then
    :
  else
    JAVA_HOME=""
    local candidate
    if command -v javac >/dev/null && [ "$(java_major java)" -ge 21 ]; then
      JAVA_HOME=$(dirname "$(dirname "$(readlink -f "$(command -v javac)")")")
    else
      for candidate in $(ls -d /usr/lib/jvm/*/ 2>/dev/null | sort -rV); do
        if [ -x "$candidate/bin/javac" ] && [ "$(java_major "$candidate/bin/java")" -ge 21 ]; then
          JAVA_HOME=${candidate%/}
          break
        fi
      done
    fi
    [ -n "$JAVA_HOME" ] || die "no JDK >= 21 found (looked at JAVA_HOME, PATH and /usr/lib/jvm)"
  fi
  export JAVA_HOME PATH="$JAVA_HOME/bin:$PATH"
  JAVA="$JAVA_HOME/bin/java"
}
APT_UPDATED=0
need_package() { # command package
  command -v "$1" >/dev/null && return 0
  progress "installing $2 (Debian package) for '$1'"
  [ "$(id -u)" -eq 0 ] || die "'$1' is missing: run 'sudo apt-get install -y $2' first"
  if [ "$APT_UPDATED" -eq 0 ]; then apt-get update -qq >/dev/null || die "apt-get update failed"; APT_UPDATED=1; fi
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$2" >/dev/null || die "apt-get install $2 failed"
}
setup_pinning() { # sets ON_SERVER_CPU and ON_LOAD_CPU, the taskset prefixes (empty when PIN=0)
  if [ "$PIN" = 1 ] && [ "$(nproc)" -lt 2 ]; then
    progress "only $(nproc) CPU visible: running unpinned"
    PIN=0
  fi
  if [ "$PIN" = 1 ]; then
    ON_SERVER_CPU=(taskset -c "$SERVER_CPU")
    ON_LOAD_CPU=(taskset -c "$LOAD_CPU")
  else
    ON_SERVER_CPU=()
    ON_LOAD_CPU=()
  fi
}

# The start of a results run (compare.sh, abuse.sh), once OUT_DIR and RAW_DIR are set: their directories (and any
# extra ones given), an empty rows file, the start time and load, the clean-up traps, the tools every runner needs
# and the pinning. Sets ROWS, START_EPOCH and START_LOAD.
begin_run() { # [extra directory...]
  mkdir -p "$OUT_DIR" "$RAW_DIR/logs" "$@"
  ROWS="$OUT_DIR/rows.jsonl"
  : > "$ROWS"
  START_EPOCH=$(date +%s)
  START_LOAD=$(cut -d' ' -f1-3 /proc/loadavg)
  trap cleanup EXIT
  trap 'echo "Interrupted." >&2; exit 130' INT TERM
  find_jdk
  need_package python3 python3-minimal
  need_package curl curl
  need_package taskset util-linux
  setup_pinning
}

# ------------------------------------------------------------------ targets
# A target is a jar (its flavour, the Maven profile that built it) plus properties. ALL_TARGETS is what a runner
# runs when none is named; WEBFLUX_TARGETS (WebFlux on Sprout, the reactive sources like netty) run when named, or
# in compare.sh's webflux preset; BRIDGE_TARGETS (WebFlux on Tomcat, through Spring's Servlet bridge) only when
# named, as the reference for Sprout's native adapter (gatling/alloc.sh).
ALL_TARGETS=(sprout-nio-platform sprout-nio-virtual sprout-hybrid-platform sprout-hybrid-virtual
  tomcat-platform tomcat-virtual jetty-platform jetty-virtual netty)
WEBFLUX_TARGETS=(sprout-webflux-nio-platform sprout-webflux-nio-virtual sprout-webflux-hybrid-platform
  sprout-webflux-hybrid-virtual)
BRIDGE_TARGETS=(tomcat-webflux-platform)
is_target() {
  case " ${ALL_TARGETS[*]} ${WEBFLUX_TARGETS[*]} ${BRIDGE_TARGETS[*]} " in *" $1 "*) return 0 ;; *) return 1 ;; esac
}
# The jar: sample-boot-app/target/FLAVOUR/sample-boot-app-FLAVOUR.jar.
flavour_of() {
  case "$1" in
    sprout-webflux-*) echo sprout-webflux ;; sprout-*) echo sprout ;; tomcat-webflux-*) echo tomcat-webflux ;;
    tomcat-*) echo tomcat ;; jetty-*) echo jetty ;; netty) echo netty ;;
  esac
}
# The web server, as the application names it in /benchmark/json (ServerName): both Sprout jars answer "sprout".
server_of() { case "$1" in sprout-*) echo sprout ;; tomcat-*) echo tomcat ;; *) flavour_of "$1" ;; esac; }
# The Spring web stack: Spring MVC (servlet) or WebFlux (reactive).
stack_of() { case "$1" in netty|sprout-webflux-*|tomcat-webflux-*) echo reactive ;; *) echo servlet ;; esac; }
threads_of() { case "$1" in *-platform) echo platform ;; *) echo virtual ;; esac; }
# Sprout's execution mode (sprout.server.execution-mode); for the other servers, their stack.
mode_of() {
  case "$1" in
    sprout-nio-*|sprout-webflux-nio-*) echo nio ;; sprout-hybrid-*|sprout-webflux-hybrid-*) echo hybrid ;;
    *) stack_of "$1" ;;
  esac
}
# What a result row says about its target, as key=value words for benchreport.py.
meta_of() {
  echo "target=$1 server=$(server_of "$1") stack=$(stack_of "$1") threads=$(threads_of "$1") mode=$(mode_of "$1")"
}
# Application arguments per target: the same jar, only properties differ.
props_of() {
  local target=$1 virtual=false
  [ "$(threads_of "$target")" = virtual ] && virtual=true
  case "$target" in
    sprout-*) echo "--sprout.server.execution-mode=$(mode_of "$target") --sprout.server.thread-type=$(threads_of "$target") --spring.threads.virtual.enabled=$virtual" ;;
    *) echo "--spring.threads.virtual.enabled=$virtual" ;;
  esac
}

# Builds sample-boot-app-FLAVOUR.jar in the source tree ROOT (with the engine and the starter for sprout) and prints
# its path. The profile's build folder is deleted first: an unchanged sample app would otherwise keep its old
# repackaged jar, with the engine and starter it was built with, and a class whose source is gone would stay in it.
# Maven flags (e.g. -Dmaven.repo.local=...) can be passed in MAVEN_ARGS, which the Maven wrapper reads.
build_sample_jar() { # root flavour log
  local root=$1 flavour=$2 log=$3 extra=()
  local jar="$root/sample-boot-app/target/$flavour/sample-boot-app-$flavour.jar"
  [[ "$flavour" == sprout* ]] && extra=(-am)
  rm -rf "$root/sample-boot-app/target/$flavour"
  (cd "$root" && ./mvnw -B -ntp -q -pl sample-boot-app "${extra[@]}" -P "$flavour" -DskipTests package) > "$log" 2>&1 \
    && [ -f "$jar" ] && echo "$jar"
}

jar_of() { echo "$ROOT/sample-boot-app/target/$1/sample-boot-app-$1.jar"; } # flavour
# Builds a flavour's jar once per run (reused with SKIP_BUILD=1 when it exists); a jar that cannot be built leaves the
# reason in JAR_PROBLEM[flavour], so its targets are skipped, not failed.
declare -A JAR_READY=()
declare -A JAR_PROBLEM=()
build_jar() { # flavour
  local flavour=$1 jar log
  jar=$(jar_of "$flavour")
  log="$RAW_DIR/logs/build-$flavour.log"
  [ -n "${JAR_READY[$flavour]:-}${JAR_PROBLEM[$flavour]:-}" ] && return 0
  if [ "${SKIP_BUILD:-0}" = 1 ] && [ -f "$jar" ]; then JAR_READY[$flavour]=1; return 0; fi
  if [[ "$flavour" == sprout* ]] && [ ! -d "$ROOT/sprout-spring-boot-starter/src/main" ]; then
    JAR_PROBLEM[$flavour]="Sprout's starter (sprout-spring-boot-starter) has no sources yet"
    return 0
  fi
  progress "building sample-boot-app-$flavour.jar (from scratch)"
  if build_sample_jar "$ROOT" "$flavour" "$log" > /dev/null; then
    JAR_READY[$flavour]=1
  else
    JAR_PROBLEM[$flavour]="building sample-boot-app -P $flavour failed (see $log)"
  fi
}

# Builds the jar of every target in TARGETS: RUNNABLE gets the targets whose jar is ready; each other one is skipped
# with a row saying why (with key and values, one row per value: abuse.sh records one per attack).
build_targets() { # [key value...]
  local key=${1:-} target flavour value
  [ $# -gt 0 ] && shift
  RUNNABLE=()
  for target in "${TARGETS[@]}"; do
    flavour=$(flavour_of "$target")
    build_jar "$flavour"
    if [ -z "${JAR_PROBLEM[$flavour]:-}" ]; then
      RUNNABLE+=("$target")
      continue
    fi
    progress "SKIP $target: ${JAR_PROBLEM[$flavour]}"
    if [ -z "$key" ]; then
      record_status "$target" skipped "${JAR_PROBLEM[$flavour]}"
    else
      for value in "$@"; do record_status "$target" skipped "${JAR_PROBLEM[$flavour]}" "$key=$value"; done
    fi
  done
}

# The lines every run's machine.md starts with: when, which commit, which machine and JDK, how loaded, and the
# verdict knobs.
machine_lines() {
  echo "- date (UTC): $(date -u '+%Y-%m-%d %H:%M')"
  echo "- commit: $(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null || echo unknown) (working tree may differ)"
  echo "- machine: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(nproc) CPUs, $(awk '/MemTotal/ {printf "%.0f GB", $2/1048576}' /proc/meminfo), kernel $(uname -r)"
  echo "- JDK: $("$JAVA" -version 2>&1 | head -1)"
  echo "- load average (1/5/15 min) when the run started: $START_LOAD (anything else running skews absolute numbers)"
  [ -n "${MAX_LOAD:-}" ] && echo "- verdicts: MAX_LOAD $MAX_LOAD (CPUs busy with other work in the ${LOAD_SAMPLE_SECONDS:-1}s before each measured run), MAX_SPREAD_PERCENT ${MAX_SPREAD_PERCENT:-none}"
  return 0
}
pinning_line() { # what-runs-on-the-load-CPU [remark]
  if [ "$PIN" = 1 ]; then
    echo "- pinning: server \`taskset -c $SERVER_CPU\`, $1 \`taskset -c $LOAD_CPU\`${2:-}"
  else
    echo "- pinning: none"
  fi
}

# CPU time (ms) of the JVM's JIT compiler threads (C1 and C2), from /proc: utime + stime at 100 ticks per second.
jit_cpu_ms() { # pid
  local task ticks=0 fields
  for task in /proc/"$1"/task/*; do
    case $(cat "$task/comm" 2>/dev/null) in
      "C1 Compiler"*|"C2 Compiler"*)
        read -ra fields < <(cut -d')' -f2- "$task/stat")
        ticks=$((ticks + fields[11] + fields[12])) ;;
    esac
  done
  echo $((ticks * 10))
}

# Runs one warm-up window (the command) and succeeds when the JVM's JIT compilers used under PERMILLE ms per second
# of its SECONDS; JIT_USED holds their ms. A process without JIT threads (nginx) is settled at once.
jit_settles_during() { # pid permille seconds command...
  local pid=$1 permille=$2 seconds=$3 before
  shift 3
  before=$(jit_cpu_ms "$pid")
  "$@"
  JIT_USED=$(( $(jit_cpu_ms "$pid") - before ))
  [ "$JIT_USED" -lt $((permille * seconds)) ]
}

SCHEME=${SCHEME:-http}
# The probes below trust any certificate (-k): they check readiness and identity, not the key material.
curl_probe() { curl -s -k --max-time "$@"; }

# Writes a PKCS12 key store with one self-signed EC P-256 key for "localhost" to DIR/bench.p12 (password
# "benchmark") and prints the server.ssl.* arguments that serve it, identical for every server of a run.
bench_key_store() { # dir
  local dir=$1
  mkdir -p "$dir"
  rm -f "$dir/bench.p12"
  "$JAVA_HOME/bin/keytool" -genkeypair -alias bench -keyalg EC -groupname secp256r1 -dname "CN=localhost" \
    -ext "san=dns:localhost,ip:127.0.0.1" -validity 30 -keystore "$dir/bench.p12" -storetype PKCS12 \
    -storepass benchmark > /dev/null 2>&1 || die "keytool could not create $dir/bench.p12"
  echo "--server.ssl.key-store=file:$dir/bench.p12 --server.ssl.key-store-type=PKCS12" \
    "--server.ssl.key-store-password=benchmark --server.ssl.key-alias=bench"
}

port_in_use() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }
free_port() { # first free port from $1
  local port=$1
  while port_in_use "$port"; do port=$((port + 1)); done
  echo "$port"
}

SERVER_PID=""
LAUNCH_MS=0
# EXTRA_JVM_FLAGS and EXTRA_APP_ARGS, when set, are one launch's own (the warmup preset's AOT cache and warm-up).
start_server() { # jar target port log: on SERVER_CPU, loopback only; sets SERVER_PID and LAUNCH_MS
  local jar=$1 target=$2 port=$3 log=$4
  # shellcheck disable=SC2046,SC2086 # JVM_FLAGS and the properties are word lists on purpose
  "${ON_SERVER_CPU[@]}" "$JAVA" $JVM_FLAGS ${EXTRA_JVM_FLAGS:-} -jar "$jar" \
    --server.address=127.0.0.1 --server.port="$port" $(props_of "$target") $APP_ARGS ${EXTRA_APP_ARGS:-} > "$log" 2>&1 &
  SERVER_PID=$!
  LAUNCH_MS=$(date +%s%3N)
  SERVER_PIDS+=("$SERVER_PID")
}
stop_server() { # pid [seconds before SIGKILL, 15]
  stop_pid "$1" "${2:-15}"
  local kept=() pid
  for pid in "${SERVER_PIDS[@]}"; do [ "$pid" != "$1" ] && kept+=("$pid"); done
  SERVER_PIDS=("${kept[@]}")
}
wait_ready() { # pid port -> prints ms from launch to the first 200 of /benchmark/health; fails if it dies or stalls
  local pid=$1 port=$2 deadline=$(( $(date +%s) + 180 ))
  while [ "$(date +%s)" -lt "$deadline" ]; do
    kill -0 "$pid" 2>/dev/null || return 1
    if [ "$(curl_probe 2 -o /dev/null -w '%{http_code}' "$SCHEME://127.0.0.1:$port/benchmark/health")" = 200 ]; then
      echo $(( $(date +%s%3N) - LAUNCH_MS ))
      return 0
    fi
    sleep 0.05
  done
  return 1
}
# The stack needs no check of its own: the jar is picked by flavour, and its Maven profile fixes the stack. Within a
# jar, Boot could only pick the wrong web application type for sprout-webflux (the starter brings the Servlet API);
# as a servlet application it would have no DispatcherServlet (no Spring MVC on its class path), so /benchmark/health
# would never have answered.
check_identity() { # target port: the jar must really run the server we think we measure
  local expected answer status actual
  expected=$(server_of "$1")
  answer=$(curl_probe 5 "$SCHEME://127.0.0.1:$2/benchmark/json")
  status=$?
  actual=$(sed -n 's/.*"server":"\([a-z]*\)".*/\1/p' <<< "$answer")
  [ "$actual" = "$expected" ] && return 0
  echo "answered as '${actual:-nothing}', expected '$expected'$([ "$status" -ne 0 ] && echo " (curl exited with status $status)")"
  return 1
}
# The row of a server that exited or never answered /benchmark/health, with its exit status when it exited; the server
# is stopped.
record_start_failure() { # target log pid [key=value...]
  local target=$1 log=$2 pid=$3 status=""
  shift 3
  if ! kill -0 "$pid" 2>/dev/null; then
    wait "$pid" 2>/dev/null
    status=$?
  fi
  # shellcheck disable=SC2046 # meta_of's words
  record startfailure "$log" $(meta_of "$target") simulation=- ${status:+exit_status=$status} "$@"
  stop_server "$pid"
}
