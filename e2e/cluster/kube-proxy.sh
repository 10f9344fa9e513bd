#!/usr/bin/env bash
# kube-proxy.sh: the node's kube-proxy (iptables mode), which makes Service ClusterIPs work as on
# a real cluster: above all the `kubernetes` Service (10.0.0.1:443), through which a pod reaches
# the API server by its in-cluster config (the agent of deploy/ does). Sourced (by up.sh), it
# defines start_kube_proxy and kube_proxy_running. Run:
#   kube-proxy.sh cleanup   removes every rule and chain kube-proxy made (down.sh runs it)
#
# It runs in the node's private mount namespace like the kubelet (its xtables lock in the private
# /run), in the host's network namespace: its rules are the host's nat and filter tables' KUBE-*
# chains, which `cleanup` removes. It leaves the host's sysctls alone: no conntrack limits or
# timeouts (maxPerCore 0, timeouts 0) and no NodePorts on localhost (which would set
# route_localnet). The API server listens on every address and advertises $NODE_IP (apiserver.sh),
# so the `kubernetes` Service's endpoint is $NODE_IP:6443, a local address of the host that pods
# reach through the CNI bridge's gateway.

T_KUBE_PROXY=${T_KUBE_PROXY:-60}

# write_kube_proxy_config FILE: its configuration.
write_kube_proxy_config() {
  cat >"$1" <<YAML
apiVersion: kubeproxy.config.k8s.io/v1alpha1
kind: KubeProxyConfiguration
mode: iptables
clientConnection:
  kubeconfig: $E2E_STATE/kube-proxy.kubeconfig
hostnameOverride: $NODE_NAME
clusterCIDR: $POD_CIDR
bindAddress: 127.0.0.1
healthzBindAddress: 127.0.0.1:10256
metricsBindAddress: 127.0.0.1:10249
oomScoreAdj: 0
iptables:
  localhostNodePorts: false
conntrack:
  maxPerCore: 0
  min: 0
  tcpEstablishedTimeout: 0s
  tcpCloseWaitTimeout: 0s
YAML
}

# kube_proxy_running: true if the kube-proxy start_kube_proxy started still runs.
kube_proxy_running() { [ -n "$(pid_of kube-proxy)" ]; }

# service_ready: the `kubernetes` Service's ClusterIP has its rule in the nat table.
service_ready() {
  iptables -t nat -S KUBE-SERVICES 2>/dev/null | grep -q -- "-d $SERVICE_IP/32 .*default/kubernetes:https"
}

# start_kube_proxy: starts it (after the API server, in the holder's namespace) and waits until it
# answers /healthz and has programmed the `kubernetes` Service.
start_kube_proxy() {
  write_kube_proxy_config "$E2E_STATE/kube-proxy.yaml"
  start_bg kube-proxy nsenter --target "$(pid_of holder)" --mount -- \
    "$E2E_BIN/kube-proxy" --config "$E2E_STATE/kube-proxy.yaml"
  wait_for "$T_KUBE_PROXY" "kube-proxy to listen on :10256 (healthz)" kube-proxy listening 10256
  wait_for "$T_KUBE_PROXY" "kube-proxy's rule for the kubernetes Service ($SERVICE_IP)" kube-proxy service_ready
}

# Sourced: the functions are all.
[[ "${BASH_SOURCE[0]}" != "$0" ]] && return 0

set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/env.sh"
. "$here/lib.sh"

# cleanup: kube-proxy's own --cleanup removes its chains and rules (iptables, ipvs and nftables)
# and exits; without the binary there is nothing it can have made.
cleanup() {
  [ -x "$E2E_BIN/kube-proxy" ] || return 0
  iptables-save 2>/dev/null | grep -q 'KUBE-' || return 0
  log "kube-proxy: removing its iptables rules"
  "$E2E_BIN/kube-proxy" --cleanup >/dev/null 2>&1 || true
  if iptables-save 2>/dev/null | grep -q 'KUBE-'; then
    log "kube-proxy: WARNING: rules left: $(iptables-save | grep -c 'KUBE-') lines with KUBE-"
  fi
}

[ "$(id -u)" = 0 ] || die "run as root"
case ${1:-} in
  cleanup) cleanup ;;
  *) die "usage: kube-proxy.sh cleanup" ;;
esac
