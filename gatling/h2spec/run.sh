#!/usr/bin/env bash
# Runs h2spec 2.2.1 (HTTP/2 conformance, RFC 7540/7541, --strict: every case) against the sample app with
# server.http2.enabled=true, for each target and transport asked for, one server at a time, and summarises the
# reports. Loopback only; every run is bounded by h2spec's per-case time-out and H2SPEC_SECONDS.
#
# Usage: [TRANSPORT=...] [CASES=...] gatling/h2spec/run.sh [target ...]
#   target: nio-platform nio-virtual hybrid-platform hybrid-virtual (Sprout, the default: all four; the same jar
#     with --sprout.server.execution-mode and --sprout.server.thread-type), tomcat, jetty (the sample app built
#     with that Maven profile, platform threads; the references).
#   TRANSPORT (default "h2c tls"): h2c is HTTP/2 with prior knowledge over plain TCP; tls is h2 negotiated by ALPN
#     over TLS, with a self-signed EC P-256 key generated once per run into REPORTS/tls/ (server.ssl.*).
# Knobs: CASES (h2spec groups, space-separated, e.g. "http2/6.5 hpack"; default every case; a single case such as
#        http2/6.5/1 is refused, since the summary numbers cases by their position in a whole group),
#        H2SPEC_PATH (/benchmark/hello, the path h2spec requests), H2SPEC_TIMEOUT (5 s per case),
#        H2SPEC_SECONDS (600, the bound of one h2spec run), PORT (9002, or the first free port above),
#        REPORTS (default target/h2spec under the repository), H2SPEC_HOME (where h2spec is installed, default
#        ~/.cache/sprout/h2spec), SKIP_BUILD (1 = use the jars already built), JVM_FLAGS, APP_ARGS (more
#        application arguments for every server), PIN (0; 1 = server on CPU SERVER_CPU, h2spec on LOAD_CPU).
# Reports: REPORTS/TARGET-TRANSPORT.xml (h2spec's JUnit report), .txt (its output), -server.log, or .error (one
# line: why there is no report). The summary of this run's reports goes to REPORTS/h2spec.md and stdout.
# Exit status: non-zero when a Sprout target failed a case or did not run (Sprout refuses server.http2.enabled
# until the engine speaks HTTP/2); Tomcat's and Jetty's failures are reported only.
# Needs Go (to install h2spec on first use), a JDK >= 21, python3 and curl.
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cd "$ROOT"
# shellcheck source=../scripts/bench-lib.sh
. gatling/scripts/bench-lib.sh

: "${TRANSPORT:=h2c tls}" "${CASES:=}" "${H2SPEC_PATH:=/benchmark/hello}" "${H2SPEC_TIMEOUT:=5}"
: "${H2SPEC_SECONDS:=600}" "${PORT:=9002}" "${REPORTS:=$ROOT/target/h2spec}" "${SKIP_BUILD:=0}"
: "${H2SPEC_HOME:=$HOME/.cache/sprout/h2spec}" "${APP_ARGS:=}" "${PIN:=0}" "${SERVER_CPU:=0}" "${LOAD_CPU:=1}"
: "${JVM_FLAGS:=-Xms256m -Xmx256m -XX:+UseSerialGC -XX:+ExitOnOutOfMemoryError}"
H2SPEC_VERSION=2.2.1
read -r -a TRANSPORTS <<< "$TRANSPORT"
read -r -a SECTIONS <<< "$CASES"
TARGETS=("$@")
[ ${#TARGETS[@]} -eq 0 ] && TARGETS=(nio-platform nio-virtual hybrid-platform hybrid-virtual)

for target in "${TARGETS[@]}"; do
  case "$target" in
    nio-platform|nio-virtual|hybrid-platform|hybrid-virtual|tomcat|jetty) ;;
    *) echo "Unknown target $target: nio-platform nio-virtual hybrid-platform hybrid-virtual tomcat jetty" >&2
       exit 2 ;;
  esac
done
for transport in "${TRANSPORTS[@]}"; do
  case "$transport" in h2c|tls) ;; *) echo "Unknown TRANSPORT $transport: h2c or tls" >&2; exit 2 ;; esac
done
for section in "${SECTIONS[@]}"; do
  [[ "$section" =~ ^(generic|http2|hpack)(/[0-9]+(\.[0-9]+)*)?$ ]] \
    || { echo "CASES takes h2spec groups such as http2/6.5 or hpack, not '$section'" >&2; exit 2; }
done

# bench-lib's names: the same jar and properties as the benchmark runners use.
bench_target() { case "$1" in tomcat|jetty) echo "$1-platform" ;; *) echo "sprout-$1" ;; esac; }

START_EPOCH=$(date +%s)
trap cleanup EXIT
# The message goes to the script's own stderr (fd 3), not to the output file of the command the signal interrupted.
exec 3>&2
trap 'echo "Interrupted." >&3; exit 130' INT TERM
find_jdk
setup_pinning
mkdir -p "$REPORTS"

H2SPEC="$H2SPEC_HOME/h2spec"
if [ ! -x "$H2SPEC" ] || [ "$("$H2SPEC" --version | awk '{print $2}')" != "$H2SPEC_VERSION" ]; then
  progress "installing h2spec $H2SPEC_VERSION into $H2SPEC_HOME"
  GO=$(command -v go || echo /usr/local/go/bin/go)
  # h2spec 2.2.1 predates Go modules: its dependencies resolve to their newest versions. Its version string is
  # otherwise set by its release build only.
  GOBIN="$H2SPEC_HOME" "$GO" install -ldflags "-X main.VERSION=$H2SPEC_VERSION -X main.COMMIT=go-install" \
    "github.com/summerwind/h2spec/cmd/h2spec@v$H2SPEC_VERSION+incompatible" || die "go install of h2spec failed"
fi

if [ "$SKIP_BUILD" != 1 ]; then
  for flavour in $(for target in "${TARGETS[@]}"; do flavour_of "$(bench_target "$target")"; done | sort -u); do
    progress "building sample-boot-app-$flavour.jar"
    build_sample_jar "$ROOT" "$flavour" "$REPORTS/build-$flavour.log" > /dev/null \
      || die "building sample-boot-app -P $flavour failed: see $REPORTS/build-$flavour.log"
  done
fi

TLS_ARGS=""
if [[ " ${TRANSPORTS[*]} " == *" tls "* ]]; then
  TLS_ARGS=$(bench_key_store "$REPORTS/tls")
fi
BASE_APP_ARGS="--server.http2.enabled=true $APP_ARGS"

# Writes REPORTS/$1.error: one line saying why the run has no report.
no_report() { echo "$2" > "$REPORTS/$1.error"; progress "$1: $2"; }

RUNS=()
for target in "${TARGETS[@]}"; do
  for transport in "${TRANSPORTS[@]}"; do
    run="$target-$transport"
    RUNS+=("$run")
    rm -f "$REPORTS/$run".{xml,txt,error} "$REPORTS/$run-server.log"
    SCHEME=http tls=() identity=""
    APP_ARGS=$BASE_APP_ARGS
    if [ "$transport" = tls ]; then
      SCHEME=https tls=(-t -k)
      APP_ARGS="$APP_ARGS $TLS_ARGS"
    fi
    port=$(free_port "$PORT")
    bench=$(bench_target "$target")
    progress "$run: starting on 127.0.0.1:$port"
    start_server "sample-boot-app/target/$(flavour_of "$bench")/sample-boot-app-$(flavour_of "$bench").jar" \
      "$bench" "$port" "$REPORTS/$run-server.log"
    if ! wait_ready "$SERVER_PID" "$port" > /dev/null || ! identity=$(check_identity "$bench" "$port"); then
      # Boot's failure report names the cause on the line after "Description:" (Sprout: HTTP/2 is unsupported).
      cause=$(grep -A2 '^Description:' "$REPORTS/$run-server.log" | sed -n 3p || true)
      no_report "$run" "the server did not start${cause:+: $cause}${identity:+ ($identity)}"
      stop_server "$SERVER_PID"
      continue
    fi
    progress "$run: h2spec --strict ${CASES:-(every case)}"
    # h2spec exits 1 when a case failed: the report, not its status, tells how the run went. Its output overwrites
    # each case's progress line with a carriage return; only the final text is kept.
    WATCH_PID=$SERVER_PID run_child timeout "$H2SPEC_SECONDS" "${ON_LOAD_CPU[@]}" "$H2SPEC" --strict \
      -h 127.0.0.1 -p "$port" -P "$H2SPEC_PATH" -o "$H2SPEC_TIMEOUT" "${tls[@]}" -j "$REPORTS/$run.xml" \
      "${SECTIONS[@]}" > "$REPORTS/$run.out" 2>&1 || true
    sed 's/.*\r//' "$REPORTS/$run.out" > "$REPORTS/$run.txt"
    rm -f "$REPORTS/$run.out"
    if [ ! -s "$REPORTS/$run.xml" ]; then
      no_report "$run" "h2spec wrote no report: $(grep -v '^ *$' "$REPORTS/$run.txt" | tail -1)"
    else
      progress "$run: $(tail -1 "$REPORTS/$run.txt")"
    fi
    stop_server "$SERVER_PID"
  done
done

status=0
python3 gatling/h2spec/summarize.py "$REPORTS" "${RUNS[@]}" > "$REPORTS/h2spec.md" || status=$?
cat "$REPORTS/h2spec.md"
exit "$status"
