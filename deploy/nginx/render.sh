#!/bin/sh
# render contrail.conf's placeholders into a working nginx configuration:
#   render.sh TEMPLATE OUT
# with CONTRAIL_NGINX_LISTEN (address:port), CONTRAIL_NGINX_ARTIFACTS, CONTRAIL_NGINX_BUNDLES,
# CONTRAIL_NGINX_RUN (writable: pid, logs, temp files) and CONTRAIL_NGINX_LIVE, the live servers as
# host:port separated by spaces (more than one: replicas, one `server` line each in the upstream).
# used by the compose file's front and by the tests that start nginx (test/helpers/nginx.ts).
set -eu
[ $# -eq 2 ] || { echo "usage: render.sh TEMPLATE OUT (see the comment at its top)" >&2; exit 2; }

value() {
  eval "v=\${$1:-}"
  [ -n "$v" ] || { echo "render.sh: $1 is not set" >&2; exit 2; }
  # a value goes into nginx's configuration as it is: no spaces, quotes, semicolons or braces
  case "$v" in
    *[!A-Za-z0-9._:/\ -]*) echo "render.sh: $1 may hold only letters, digits and . _ : / - ($v)" >&2; exit 2 ;;
  esac
  printf '%s' "$v"
}

listen=$(value CONTRAIL_NGINX_LISTEN)
artifacts=$(value CONTRAIL_NGINX_ARTIFACTS)
bundles=$(value CONTRAIL_NGINX_BUNDLES)
run=$(value CONTRAIL_NGINX_RUN)
live=$(value CONTRAIL_NGINX_LIVE)

mkdir -p "$run"
awk -v listen="$listen" -v artifacts="$artifacts" -v bundles="$bundles" -v run="$run" -v live="$live" '
  /^[ \t]*server __LIVE__;[ \t]*$/ {
    indent = $0; sub(/server.*/, "", indent)
    n = split(live, hosts, " ")
    for (i = 1; i <= n; i++) print indent "server " hosts[i] ";"
    next
  }
  {
    gsub(/__LISTEN__/, listen); gsub(/__ARTIFACTS__/, artifacts); gsub(/__BUNDLES__/, bundles)
    gsub(/__RUN__/, run); gsub(/__LIVE__/, live)
    print
  }' "$1" > "$2.tmp"
if grep -n '__[A-Z]*__' "$2.tmp" >&2; then
  rm -f "$2.tmp"
  echo "render.sh: placeholders left unrendered (above)" >&2
  exit 1
fi
mv "$2.tmp" "$2"
