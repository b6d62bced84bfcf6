#!/usr/bin/env bash
# The HTTP/2 client tools for tests and benchmarks, installed when missing (idempotent; needs root for apt):
#   h2load   the nghttp2 load generator (Debian's nghttp2-client), h2c with prior knowledge or h2 over TLS (ALPN)
#   h2       Python's HTTP/2 protocol library (PyPI), H2_VERSION, in the python3 on PATH (the pyenv Python 3)
#
#   gatling/h2tools.sh               installs what is missing and prints the versions
#   . gatling/h2tools.sh; h2tools    the same from another script (sourcing only defines the functions)
#
# Knobs: H2_VERSION (4.4.1).
H2TOOLS_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# shellcheck source=scripts/bench-lib.sh
. "$H2TOOLS_ROOT/gatling/scripts/bench-lib.sh"
: "${START_EPOCH:=$(date +%s)}" "${H2_VERSION:=4.4.1}"

h2tools() {
  need_package h2load nghttp2-client
  if [ "$(python3 -c 'import h2; print(h2.__version__)' 2>/dev/null)" != "$H2_VERSION" ]; then
    progress "installing h2 $H2_VERSION (PyPI) into $(python3 -c 'import sys; print(sys.prefix)')"
    python3 -m pip install -q --disable-pip-version-check --root-user-action=ignore "h2==$H2_VERSION" \
      || die "pip could not install h2==$H2_VERSION"
  fi
}

h2tools_versions() {
  echo "h2load: $(h2load --version | head -1)"
  echo "python h2: $(python3 -c 'import h2, hpack, hyperframe, sys
print("h2 %s (hpack %s, hyperframe %s) on Python %s" % (h2.__version__, hpack.__version__, hyperframe.__version__,
      sys.version.split()[0]))')"
}

if [ "${BASH_SOURCE[0]}" = "$0" ]; then
  set -euo pipefail
  h2tools
  h2tools_versions
fi
