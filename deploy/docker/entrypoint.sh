#!/bin/sh
# the container's entrypoint (deploy/README.md "Containers"): checks that the native
# uWebSockets.js binary loads on this machine, then runs one of Contrail's commands.
#
#   entrypoint.sh serve [flags]          the live server (server/main.ts)
#   entrypoint.sh nightly [flags]        one nightly build (build/nightly.ts)
#   entrypoint.sh upload [flags]         publish the current build to an S3-compatible bucket
#   entrypoint.sh publish                nightly, then upload when CONTRAIL_S3_BUCKET is set
#   entrypoint.sh daily HH:MM CMD [...]  run CMD every day at HH:MM UTC, for ever (the nightly's schedule)
#   entrypoint.sh check                  only the binary check
#   entrypoint.sh seconds-until HH:MM    seconds from now (or CONTRAIL_CLOCK, unix s) to the next HH:MM UTC
#
# flags and CONTRAIL_* variables are the commands' own (each has --help).
set -eu

ROOT=${CONTRAIL_ROOT:-$(cd "$(dirname "$0")/../.." && pwd)}

usage() {
  sed -n '5,11p' "$0" | sed 's/^# //' >&2
}

# the binary server/http/uws.ts loadNativeUws() loads: uws_<platform>_<arch>_<node ABI>.node.
# the npm package silently falls back to JavaScript when it does not load; Contrail refuses to
check_uws() {
  bin=$(cd "$ROOT" && node -p "require('path').join(require('path').dirname(require.resolve('uWebSockets.js/package.json')), 'binaries', 'uws_' + process.platform + '_' + process.arch + '_' + process.versions.modules + '.node')" 2>/dev/null) || {
    echo "contrail: uWebSockets.js is not installed under $ROOT/node_modules (run npm ci in the image build)" >&2
    return 1
  }
  if ! err=$(node -e 'require(process.argv[1])' "$bin" 2>&1); then
    echo "contrail: the native uWebSockets.js binary does not load: $bin" >&2
    echo "  $(printf '%s\n' "$err" | grep -m1 -E 'Error|error' || printf '%s\n' "$err" | head -n1)" >&2
    echo "  Contrail runs only on the native binary (Node 20 on linux x64/arm64, glibc); rebuild the image for this platform." >&2
    return 1
  fi
}

# seconds from $2 (unix s) to the next $1 (HH:MM, UTC); exactly then counts as a day later
seconds_until() {
  case "$1" in
    [0-1][0-9]:[0-5][0-9] | 2[0-3]:[0-5][0-9]) ;;
    *) echo "contrail: $1 is not a time of day HH:MM (UTC)" >&2; return 2 ;;
  esac
  h=${1%%:*}
  m=${1##*:}
  at=$(( (${h#0} + 0) * 3600 + (${m#0} + 0) * 60 ))
  of_day=$(( $2 % 86400 ))
  wait=$(( (at - of_day + 86400) % 86400 ))
  [ "$wait" -eq 0 ] && wait=86400
  echo "$wait"
}

now() {
  echo "${CONTRAIL_CLOCK:-$(date -u +%s)}"
}

# the nightly's V8 young generation (docs/operating.md, "The nightly build"): fewer collections of its large heap
NIGHTLY_V8=--max-semi-space-size=64

run() {
  cmd=${1:-}
  [ $# -gt 0 ] && shift
  case "$cmd" in
    serve) exec_or_run node --import tsx "$ROOT/server/main.ts" "$@" ;;
    nightly) exec_or_run node $NIGHTLY_V8 --import tsx "$ROOT/build/nightly.ts" "$@" ;;
    upload) exec_or_run node --import tsx "$ROOT/build/upload/cli.ts" "$@" ;;
    publish)
      [ $# -eq 0 ] || { echo "contrail: publish takes no arguments (configure it with CONTRAIL_* variables)" >&2; return 2; }
      node $NIGHTLY_V8 --import tsx "$ROOT/build/nightly.ts"
      if [ -n "${CONTRAIL_S3_BUCKET:-}" ]; then node --import tsx "$ROOT/build/upload/cli.ts"; fi ;;
    *) echo "contrail: unknown command '${cmd}'" >&2; usage; return 2 ;;
  esac
}

# the last command replaces this shell (signals reach node); inside `daily` each run is a child
exec_or_run() {
  if [ "${CONTRAIL_IN_DAILY:-}" = 1 ]; then "$@"; else exec "$@"; fi
}

cmd=${1:-}
case "$cmd" in
  -h | --help | help) usage; exit 0 ;;
  check)
    check_uws
    echo "contrail: the native uWebSockets.js binary loads"
    exit 0 ;;
  seconds-until)
    [ $# -eq 2 ] || { echo "contrail: seconds-until HH:MM" >&2; exit 2; }
    seconds_until "$2" "$(now)"
    exit 0 ;;
  daily)
    [ $# -ge 3 ] || { echo "contrail: daily HH:MM COMMAND [ARGS...]" >&2; exit 2; }
    at=$2
    shift 2
    seconds_until "$at" "$(now)" >/dev/null
    check_uws
    CONTRAIL_IN_DAILY=1
    while :; do
      wait=$(seconds_until "$at" "$(now)")
      echo "contrail: next $1 at $at UTC, in $wait s" >&2
      sleep "$wait"
      if (run "$@"); then echo "contrail: $1 done" >&2; else echo "contrail: $1 failed (exit $?); next try tomorrow" >&2; fi
    done ;;
  serve | nightly | upload | publish)
    check_uws
    run "$@" ;;
  *)
    run "$@" ;;
esac
