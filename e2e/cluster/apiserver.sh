#!/usr/bin/env bash
# apiserver.sh: the cluster's kube-apiserver, as up.sh starts it, and the faults the end-to-end
# tests inflict on it (e2e/harness/fault.go). Sourced (by up.sh), it only defines start_apiserver.
# Run:
#   apiserver.sh restart [--signal KILL|TERM] [--down SECONDS]
#       sends SIGNAL (default KILL) to the running apiserver, waits until it is gone, keeps it
#       down SECONDS more (default 1), starts it again with the same command line and waits for
#       /readyz
#   apiserver.sh pause SECONDS
#       stops it with SIGSTOP for SECONDS, then SIGCONT; it answers again at once
#   apiserver.sh ensure
#       continues it if stopped, starts it if gone, and waits for /readyz: the tests' cleanup
# Each fault holds the cluster lock, so up.sh and down.sh wait meanwhile (up.sh would take a
# killed apiserver for a half-up cluster and tear everything down), and a trap restores the
# apiserver however the script ends (but SIGKILL). It prints what it did, with times, on stderr.

# start_apiserver: starts kube-apiserver (start_bg: its own session, log, PID file) and waits up
# to $T_APISERVER seconds (default 90) for /readyz. It listens on every address (clients on this
# machine use 127.0.0.1) and advertises the node's address $NODE_IP: its lease-based endpoint
# reconciler makes that the `kubernetes` Service's endpoint, which kube-proxy (kube-proxy.sh)
# sends the Service's ClusterIP to, so that pods reach it by their in-cluster config, as on a real
# cluster. $NODE_IP is on lo (ensure_node_ip), so it is reachable from this machine and its pods
# only.
start_apiserver() {
  start_bg kube-apiserver "$E2E_BIN/kube-apiserver" \
    --etcd-servers "http://127.0.0.1:$ETCD_CLIENT_PORT" \
    --bind-address 0.0.0.0 --advertise-address "$NODE_IP" --secure-port "$APISERVER_PORT" \
    --service-cluster-ip-range "$SERVICE_CIDR" \
    --tls-cert-file "$E2E_PKI/apiserver.crt" --tls-private-key-file "$E2E_PKI/apiserver.key" \
    --client-ca-file "$E2E_PKI/ca.crt" \
    --kubelet-client-certificate "$E2E_PKI/apiserver-kubelet-client.crt" \
    --kubelet-client-key "$E2E_PKI/apiserver-kubelet-client.key" \
    --kubelet-certificate-authority "$E2E_PKI/ca.crt" \
    --kubelet-preferred-address-types InternalIP,Hostname \
    --authorization-mode Node,RBAC \
    --service-account-issuer https://kubernetes.default.svc.cluster.local \
    --service-account-key-file "$E2E_PKI/sa.pub" \
    --service-account-signing-key-file "$E2E_PKI/sa.key" \
    --allow-privileged \
    --requestheader-client-ca-file "$E2E_PKI/front-proxy-ca.crt" \
    --requestheader-allowed-names front-proxy-client \
    --requestheader-username-headers X-Remote-User \
    --requestheader-group-headers X-Remote-Group \
    --requestheader-extra-headers-prefix X-Remote-Extra- \
    --profiling=false
  wait_for "${T_APISERVER:-90}" "kube-apiserver /readyz" kube-apiserver kubectl_admin get --raw /readyz
}

# Sourced: the function is all.
[[ "${BASH_SOURCE[0]}" != "$0" ]] && return 0

set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/env.sh"
. "$here/lib.sh"

say() { printf '%s apiserver.sh: %s\n' "$(date +%H:%M:%S.%N | cut -c1-12)" "$*" >&2; }

# gone PID: true once PID has exited (a zombie counts as gone).
gone() { ! running "$1"; }

# ensure: the apiserver runs, not stopped, and answers; one that exits meanwhile (a graceful
# shutdown that was under way) is started again.
ensure() {
  local pid deadline=$((SECONDS + ${T_APISERVER:-90}))
  while [ $SECONDS -lt $deadline ]; do
    pid=$(pid_of kube-apiserver)
    if [ -z "$pid" ]; then
      say "kube-apiserver is not running: starting it"
      start_apiserver
      return
    fi
    kill -CONT "$pid" 2>/dev/null || true
    kubectl_admin get --raw /readyz >/dev/null 2>&1 && return 0
    sleep 0.5
  done
  die "kube-apiserver $(pid_of kube-apiserver) does not answer /readyz after ${T_APISERVER:-90}s"
}

restart() {
  local signal=KILL down=1 pid
  while [ $# -gt 0 ]; do
    case $1 in
      --signal) signal=$2; shift ;;
      --down) down=$2; shift ;;
      *) die "restart: unknown argument $1" ;;
    esac
    shift
  done
  pid=$(pid_of kube-apiserver)
  [ -n "$pid" ] || die "kube-apiserver is not running (is the cluster up?)"
  # The very command line it runs with, even if start_apiserver's flags changed since.
  mapfile -d '' cmdline <"/proc/$pid/cmdline"
  cmdline[0]=$(readlink -f "${cmdline[0]}") # not through a checkout's .e2e symlink
  trap ensure EXIT
  say "SIG$signal to kube-apiserver $pid"
  kill "-$signal" "$pid"
  # A graceful shutdown waits for requests in flight (log streams too) up to a minute.
  local deadline=$((SECONDS + 70))
  while running "$pid" && [ $SECONDS -lt $deadline ]; do sleep 0.2; done
  if running "$pid"; then
    say "kube-apiserver $pid still runs 70 s after SIG$signal: SIGKILL"
    kill -KILL "$pid"
    wait_for 30 "kube-apiserver $pid to exit" - gone "$pid"
  fi
  say "kube-apiserver $pid is gone; down for ${down}s more"
  sleep "$down"
  say "starting kube-apiserver"
  start_bg kube-apiserver "${cmdline[@]}"
  wait_for "${T_APISERVER:-90}" "kube-apiserver /readyz" kube-apiserver kubectl_admin get --raw /readyz
  trap - EXIT
  say "kube-apiserver $(pid_of kube-apiserver) answers /readyz"
}

pause() {
  local secs=${1:?usage: apiserver.sh pause SECONDS} pid
  pid=$(pid_of kube-apiserver)
  [ -n "$pid" ] || die "kube-apiserver is not running (is the cluster up?)"
  trap 'kill -CONT '"$pid"' 2>/dev/null || true' EXIT
  say "SIGSTOP to kube-apiserver $pid for ${secs}s"
  kill -STOP "$pid"
  sleep "$secs"
  kill -CONT "$pid"
  trap - EXIT
  say "SIGCONT to kube-apiserver $pid"
}

[ "$(id -u)" = 0 ] || die "run as root"
cmd=${1:-}
shift || true
case $cmd in
  restart) lock_cluster; restart "$@" ;;
  pause) lock_cluster; pause "$@" ;;
  ensure) lock_cluster; ensure ;;
  *) die "usage: apiserver.sh restart [--signal KILL|TERM] [--down SECONDS] | pause SECONDS | ensure" ;;
esac
