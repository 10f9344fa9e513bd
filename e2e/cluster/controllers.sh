#!/usr/bin/env bash
# controllers.sh restart: stops kube-controller-manager and starts it again with the very command
# line it ran with, then waits until it listens. The harness runs it when a new namespace gets no
# default ServiceAccount in time (e2e/harness/env.go): after the fault tests restart the API
# server, the controller-manager's informers were seen to get Forbidden for a moment and its
# service-account controller to make no ServiceAccount for more than a minute. A fresh process
# lists everything again. It prints what it did, with times, on stderr.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/env.sh"
. "$here/lib.sh"

say() { printf '%s controllers.sh: %s\n' "$(date +%H:%M:%S.%N | cut -c1-12)" "$*" >&2; }
gone() { ! running "$1"; }
listening() { ! port_free "$1"; }

restart() {
  local pid
  pid=$(pid_of kube-controller-manager)
  [ -n "$pid" ] || die "kube-controller-manager is not running (is the cluster up?)"
  mapfile -d '' cmdline <"/proc/$pid/cmdline"
  cmdline[0]=$(readlink -f "${cmdline[0]}") # not through a checkout's .e2e symlink
  say "SIGTERM to kube-controller-manager $pid"
  kill -TERM "$pid"
  local deadline=$((SECONDS + 30))
  while running "$pid" && [ $SECONDS -lt $deadline ]; do sleep 0.2; done
  if running "$pid"; then
    say "kube-controller-manager $pid still runs 30 s after SIGTERM: SIGKILL"
    kill -KILL "$pid"
    wait_for 30 "kube-controller-manager $pid to exit" - gone "$pid"
  fi
  wait_for 30 "port 10257 to be free" - port_free 10257
  say "starting kube-controller-manager"
  start_bg kube-controller-manager "${cmdline[@]}"
  wait_for 60 "kube-controller-manager to listen on :10257" kube-controller-manager listening 10257
  say "kube-controller-manager $(pid_of kube-controller-manager) listens"
}

[ "$(id -u)" = 0 ] || die "run as root"
case ${1:-} in
  restart) lock_cluster; restart ;;
  *) die "usage: controllers.sh restart" ;;
esac
