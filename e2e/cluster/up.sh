#!/usr/bin/env bash
# up.sh: brings up a real one-node Kubernetes cluster on this machine, everything on 127.0.0.1:
#   etcd, kube-apiserver, kube-controller-manager, kube-scheduler   plain host processes
#   containerd (+ runc, CNI bridge), the kubelet and kube-proxy      in a private mount namespace
# State under $E2E_STATE (default /work/main/.e2e/state): pki/, logs/<component>.log,
# run/<component>.pid, the admin kubeconfig ($KUBECONFIG_ADMIN). Works from nothing: installs the
# Debian packages and builds the binaries if missing. If the cluster is already up it says so and
# exits 0; if it is half up it is torn down (down.sh) and brought up again. Exits non-zero with
# the tail of the failing component's log if something does not come up in time.
#
# Why a private mount namespace: the kubelet, containerd and the CNI plugins write fixed paths
# (/run/containerd, /var/lib/kubelet, /var/lib/cni, /var/log/pods, ...) and the kubelet insists on
# some kernel sysctls. In the namespace those paths are tmpfs mounts that vanish with it, and the
# sysctls it reads are read-only files shadowing /proc/sys, so the host is left as it was.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/env.sh"
. "$here/lib.sh"

# Timeouts in seconds.
T_ETCD=30 T_APISERVER=90 T_CONTROLLERS=30 T_CONTAINERD=30 T_NODE=120 T_SA=60

# --- preflight ----------------------------------------------------------------------------------

preflight() {
  [ "$(id -u)" = 0 ] || die "run as root (mount namespaces, cgroups, CNI)"
  # The node is named after the hostname, which must resolve to loopback (the apiserver's cert
  # names it; everything listens on loopback addresses).
  local addrs
  addrs=$(getent hosts "$NODE_NAME" | awk '{print $1}')
  [ -n "$addrs" ] || die "'$NODE_NAME' (hostname) does not resolve; add '127.0.0.1 $NODE_NAME' to /etc/hosts"
  if grep -qvE '^(127\.|::1$)' <<<"$addrs"; then
    die "'$NODE_NAME' (hostname) resolves to ${addrs//$'\n'/ }, not loopback; the kubelet listens on 127.0.0.1 only. Map it to 127.0.0.1 in /etc/hosts"
  fi
  # Inside the private namespace /run, /var/lib and /var/log are empty tmpfs mounts, so the
  # state (configs, certs, binaries) must not live there.
  case "$E2E_DIR/" in
    /run/* | /var/run/* | /var/lib/* | /var/log/*) die "E2E_DIR=$E2E_DIR is hidden inside the private mount namespace; use another directory" ;;
  esac
}

# ensure_deps: Debian packages and the built binaries, installed or built only when missing.
ensure_deps() {
  local cmd missing=
  for cmd in containerd containerd-shim-runc-v2 runc ctr openssl iptables ip ss unshare nsenter setsid flock; do
    command -v "$cmd" >/dev/null || missing+=" $cmd"
  done
  [ -x /usr/lib/cni/bridge ] && [ -x /usr/lib/cni/host-local ] && [ -x /usr/lib/cni/loopback ] || missing+=" cni-plugins"
  [ -x /bin/busybox ] || missing+=" busybox"
  if [ -n "$missing" ]; then
    log "missing:$missing; running install-deps.sh"
    "$here/install-deps.sh"
  fi
  missing=
  for cmd in etcd kube-apiserver kube-controller-manager kube-scheduler kubelet kubectl kube-proxy pause; do
    [ -x "$E2E_BIN/$cmd" ] || missing+=" $cmd"
  done
  if [ -n "$missing" ]; then
    log "missing binaries:$missing; running build.sh (cold: ~17 min)"
    "$here/build.sh"
  fi
}

# --- already up? --------------------------------------------------------------------------------

# cluster_state: "up" if every component runs and the node is Ready, "down" if none runs,
# "partial" otherwise.
cluster_state() {
  local c alive=0 dead=0
  for c in "${COMPONENTS[@]}"; do
    if [ -n "$(pid_of "$c")" ]; then alive=$((alive + 1)); else dead=$((dead + 1)); fi
  done
  # Leftovers of a crashed run: processes in the old namespace, the CNI bridge.
  if [ $alive = 0 ]; then
    if [ -n "$(ns_pids)" ] || ip link show "$CNI_BRIDGE" >/dev/null 2>&1 || ls -d /sys/fs/cgroup/*/kubepods* >/dev/null 2>&1; then
      echo partial
    else
      echo down
    fi
    return
  fi
  if [ $dead = 0 ] && node_ready; then echo up; else echo partial; fi
}

node_ready() {
  [ "$(kubectl_admin get node "$NODE_NAME" -o 'jsonpath={.status.conditions[?(@.type=="Ready")].status}' 2>/dev/null)" = True ]
}

check_ports() {
  local p
  for p in "$ETCD_CLIENT_PORT" "$ETCD_PEER_PORT" "$APISERVER_PORT" 10257 10259 10250 10248; do
    port_free "$p" || die "port $p is in use: $(ss -Hltnp "sport = :$p" | head -1)"
  done
}

# --- configuration files ------------------------------------------------------------------------

write_configs() {
  mkdir -p "$E2E_STATE/cni/net.d" "$E2E_NS_ROOT/sysctl" "$E2E_LOGS" "$E2E_RUN"

  # containerd: all state in the namespace's private /var/lib and /run; images come from
  # images.sh, never from a registry.
  cat >"$E2E_STATE/containerd.toml" <<EOF
version = 2
root = "/var/lib/containerd"
state = "/run/containerd"
# Plugins that cannot work here; disabling them keeps the log readable.
disabled_plugins = ["io.containerd.snapshotter.v1.aufs", "io.containerd.snapshotter.v1.btrfs",
  "io.containerd.snapshotter.v1.devmapper", "io.containerd.snapshotter.v1.zfs",
  "io.containerd.tracing.processor.v1.otlp", "io.containerd.internal.v1.tracing"]

[grpc]
  address = "$CONTAINERD_SOCK"

[plugins."io.containerd.grpc.v1.cri"]
  sandbox_image = "$PAUSE_IMAGE"
  # Without CAP_SYS_RESOURCE (this VM) a container may not get a lower oom_score_adj than
  # containerd; unrestricted, runc fails every sandbox ("can't get final child's PID from pipe").
  restrict_oom_score_adj = true
  [plugins."io.containerd.grpc.v1.cri".containerd]
    snapshotter = "overlayfs"
    default_runtime_name = "runc"
    [plugins."io.containerd.grpc.v1.cri".containerd.runtimes.runc]
      runtime_type = "io.containerd.runc.v2"
      [plugins."io.containerd.grpc.v1.cri".containerd.runtimes.runc.options]
        SystemdCgroup = false
  [plugins."io.containerd.grpc.v1.cri".cni]
    bin_dir = "/usr/lib/cni"
    conf_dir = "$E2E_STATE/cni/net.d"
    max_conf_num = 1

[plugins."io.containerd.internal.v1.opt"]
  path = "/var/lib/containerd/opt"
EOF

  # CNI: one bridge, host-local IPAM. ipMasq false, so the plugin adds no iptables rules. (The CRI
  # plugin adds the loopback network itself, with /usr/lib/cni/loopback.)
  cat >"$E2E_STATE/cni/net.d/10-$CNI_NETWORK.conflist" <<EOF
{
  "cniVersion": "1.0.0",
  "name": "$CNI_NETWORK",
  "plugins": [
    {
      "type": "bridge",
      "bridge": "$CNI_BRIDGE",
      "isGateway": true,
      "ipMasq": false,
      "hairpinMode": false,
      "ipam": {
        "type": "host-local",
        "ranges": [[{"subnet": "$POD_CIDR"}]],
        "routes": [{"dst": "0.0.0.0/0"}]
      }
    }
  ]
}
EOF

  # Pods get a resolv.conf that points nowhere harmful (there is no cluster DNS).
  printf 'nameserver %s\nsearch default.svc.cluster.local svc.cluster.local cluster.local\noptions ndots:5\n' "$CLUSTER_DNS" >"$E2E_STATE/resolv.conf"

  write_kubelet_config "$E2E_STATE/kubelet.yaml"
}

# write_kubelet_config FILE: the kubelet's configuration.
write_kubelet_config() {
  cat >"$1" <<EOF
apiVersion: kubelet.config.k8s.io/v1beta1
kind: KubeletConfiguration
# cgroups are v1 here (the machine's cgroup mounts are left alone).
failCgroupV1: false
cgroupDriver: cgroupfs
# No CAP_SYS_RESOURCE: the kubelet may not lower its own oom_score_adj (default -999).
oomScoreAdj: 0
# Else it adds KUBE-FIREWALL (DROP) rules to the host's iptables.
makeIPTablesUtilChains: false
# Only check the kernel sysctls (shadowed by read-only files in the namespace), never write them.
protectKernelDefaults: true
# The apiserver reaches the kubelet at the node's InternalIP ($NODE_IP, on lo): logs, exec and
# the node proxy, which refuses loopback addresses.
address: $NODE_IP
port: 10250
readOnlyPort: 0
healthzBindAddress: 127.0.0.1
healthzPort: 10248
clusterDNS: [$CLUSTER_DNS]
clusterDomain: cluster.local
resolvConf: $E2E_STATE/resolv.conf
authentication:
  anonymous: {enabled: false}
  webhook: {enabled: true}
  x509: {clientCAFile: $E2E_PKI/ca.crt}
authorization:
  mode: Webhook
tlsCertFile: $E2E_PKI/kubelet-serving.crt
tlsPrivateKeyFile: $E2E_PKI/kubelet-serving.key
failSwapOn: false
containerRuntimeEndpoint: unix://$CONTAINERD_SOCK
podLogsDir: /var/log/pods
serializeImagePulls: true
# Images cannot be pulled again, so never garbage-collect them; evict only when really short.
imageGCHighThresholdPercent: 100
imageGCLowThresholdPercent: 99
evictionHard:
  memory.available: 50Mi
  nodefs.available: 1%
  nodefs.inodesFree: 1%
  imagefs.available: 1%
  imagefs.inodesFree: 1%
localStorageCapacityIsolation: true
registerNode: true
rotateCertificates: false
serverTLSBootstrap: false
# The node log query (GET /api/v1/nodes/NODE/proxy/logs/?query=kubelet; NodeLogQuery is GA and
# on from 1.36), and verbosity 2, at which the kubelet logs "Killing container with a grace
# period" right before the runtime signals a container: sidecar-top --node-logs reads it. The
# kubelet's log is its standard error, in .e2e/state/logs/kubelet.log, which start_kubelet
# shows in the namespace as /var/log/kubelet.log, where the kubelet's /logs/ handler serves it.
enableSystemLogHandler: true
enableSystemLogQuery: true
logging:
  verbosity: 2
EOF
}

# --- control plane ------------------------------------------------------------------------------

start_etcd() {
  mkdir -p "$E2E_STATE/etcd"
  chmod 700 "$E2E_STATE/etcd"
  start_bg etcd "$E2E_BIN/etcd" \
    --name e2e \
    --data-dir "$E2E_STATE/etcd" \
    --listen-client-urls "http://127.0.0.1:$ETCD_CLIENT_PORT" \
    --advertise-client-urls "http://127.0.0.1:$ETCD_CLIENT_PORT" \
    --listen-peer-urls "http://127.0.0.1:$ETCD_PEER_PORT" \
    --initial-advertise-peer-urls "http://127.0.0.1:$ETCD_PEER_PORT" \
    --initial-cluster "e2e=http://127.0.0.1:$ETCD_PEER_PORT" \
    --unsafe-no-fsync \
    --log-level warn
  wait_for $T_ETCD "etcd to listen on :$ETCD_CLIENT_PORT" etcd listening "$ETCD_CLIENT_PORT"
}

listening() { ! port_free "$1"; }

# start_apiserver is in apiserver.sh, which the fault tests also use to restart it.
. "$here/apiserver.sh"
# start_kube_proxy and kube_proxy_running are in kube-proxy.sh, which down.sh uses to clean up.
. "$here/kube-proxy.sh"

start_controllers() {
  start_bg kube-controller-manager "$E2E_BIN/kube-controller-manager" \
    --kubeconfig "$E2E_STATE/kube-controller-manager.kubeconfig" \
    --authentication-kubeconfig "$E2E_STATE/kube-controller-manager.kubeconfig" \
    --authorization-kubeconfig "$E2E_STATE/kube-controller-manager.kubeconfig" \
    --bind-address 127.0.0.1 \
    --leader-elect=false \
    --use-service-account-credentials \
    --service-account-private-key-file "$E2E_PKI/sa.key" \
    --root-ca-file "$E2E_PKI/ca.crt" \
    --cluster-signing-cert-file "$E2E_PKI/ca.crt" --cluster-signing-key-file "$E2E_PKI/ca.key" \
    --profiling=false
  # No leader election: one instance only, and a restart need not wait out the old lease.
  start_bg kube-scheduler "$E2E_BIN/kube-scheduler" \
    --kubeconfig "$E2E_STATE/kube-scheduler.kubeconfig" \
    --authentication-kubeconfig "$E2E_STATE/kube-scheduler.kubeconfig" \
    --authorization-kubeconfig "$E2E_STATE/kube-scheduler.kubeconfig" \
    --bind-address 127.0.0.1 \
    --leader-elect=false \
    --profiling=false
  wait_for $T_CONTROLLERS "kube-controller-manager to listen on :10257" kube-controller-manager listening 10257
  wait_for $T_CONTROLLERS "kube-scheduler to listen on :10259" kube-scheduler listening 10259
}

# --- the node: private mount namespace, containerd, kubelet -------------------------------------

# start_holder: a process that only keeps the private mount namespace alive; containerd and the
# kubelet join it with nsenter. Its namespace id goes to $E2E_RUN/mntns so that down.sh finds
# every process in it.
start_holder() {
  local pid ns
  start_bg holder unshare --mount --propagation private sleep infinity
  pid=$(pid_of holder)
  wait_for 10 "the mount namespace holder" holder ns_differs "$pid"
  ns=$(readlink "/proc/$pid/ns/mnt")
  echo "$ns" >"$E2E_RUN/mntns"
  setup_namespace
}

ns_differs() { [ "$(readlink "/proc/$1/ns/mnt")" != "$(readlink /proc/self/ns/mnt)" ]; }

# shadow_sysctl KEY VALUE: makes /proc/sys/KEY read VALUE inside the namespace (a read-only bind
# mount of a file), so the kubelet's protectKernelDefaults check passes without changing the host.
# Only done where the host's value differs.
shadow_sysctl() {
  local key=$1 value=$2 f
  [ "$(cat "/proc/sys/$key")" = "$value" ] && return 0
  f=$E2E_NS_ROOT/sysctl/${key//\//.}
  echo "$value" >"$f"
  in_ns mount --bind "$f" "/proc/sys/$key"
  in_ns mount -o remount,bind,ro "/proc/sys/$key"
}

setup_namespace() {
  # Fresh, private /run, /var/lib and /var/log: containerd's and the kubelet's state, the CNI
  # IPAM store, pod logs and network-namespace pins live there and vanish with the namespace.
  in_ns mount -t tmpfs -o mode=755 e2e-run /run
  in_ns mount -t tmpfs -o mode=755 e2e-varlib /var/lib
  in_ns mount -t tmpfs -o mode=755 e2e-varlog /var/log
  # The kubelet's protectKernelDefaults values.
  shadow_sysctl vm/overcommit_memory 1
  shadow_sysctl vm/panic_on_oom 0
  shadow_sysctl kernel/panic 10
  shadow_sysctl kernel/panic_on_oops 1
  shadow_sysctl kernel/keys/root_maxkeys 1000000
  shadow_sysctl kernel/keys/root_maxbytes 25000000
  # The bridge plugin (isGateway) writes 1 to ip_forward unless it already reads 1.
  shadow_sysctl net/ipv4/ip_forward 1
}

start_containerd() {
  start_bg containerd nsenter --target "$(pid_of holder)" --mount -- \
    containerd --config "$E2E_STATE/containerd.toml" --log-level warn
  wait_for $T_CONTAINERD "containerd's socket" containerd ctr_ns version
}

start_kubelet() {
  kubelet_started=$(date +%s)
  ensure_node_ip
  start_bg kubelet nsenter --target "$(pid_of holder)" --mount -- \
    "$E2E_BIN/kubelet" \
    --config "$E2E_STATE/kubelet.yaml" \
    --kubeconfig "$E2E_STATE/kubelet.kubeconfig" \
    --hostname-override "$NODE_NAME" \
    --node-ip "$NODE_IP"
  # --node-ip: not 127.0.0.1, which the kubelet rejects ("nodeIP can't be loopback address",
  # and it then publishes no address at all), nor the default-route interface's address it
  # would take by itself, where it does not listen: $NODE_IP, on lo. The apiserver calls the
  # kubelet there (--kubelet-preferred-address-types InternalIP,Hostname).
  show_kubelet_log
}

# ensure_node_ip: the node's address on the host's loopback interface (down.sh removes it).
ensure_node_ip() {
  ip -o addr show dev lo | grep -q " inet $NODE_IP/32 " || ip addr add "$NODE_IP/32" dev lo
}

# show_kubelet_log: the kubelet's log file (start_bg's, a new one per start) bind-mounted as
# /var/log/kubelet.log in the namespace, for the kubelet's /logs/ handler and the node log query.
show_kubelet_log() {
  in_ns sh -c 'umount /var/log/kubelet.log 2>/dev/null; touch /var/log/kubelet.log'
  in_ns mount --bind "$E2E_LOGS/kubelet.log" /var/log/kubelet.log
}

# node_current: the running node is configured as this script configures it: its address on
# lo and as its InternalIP, its log shown as /var/log/kubelet.log (the same file), the kubelet
# started with today's kubelet.yaml (kubelet.yaml.want, just written), the apiserver calling it
# by InternalIP.
node_current() {
  local ip
  ip -o addr show dev lo | grep -q " inet $NODE_IP/32 " || return 1
  ip=$(kubectl_admin get node "$NODE_NAME" -o 'jsonpath={.status.addresses[?(@.type=="InternalIP")].address}') || return 1
  [ "$ip" = "$NODE_IP" ] || return 1
  [ "$(in_ns stat -L -c %i /var/log/kubelet.log 2>/dev/null)" = "$(stat -c %i "$E2E_LOGS/kubelet.log")" ] || return 1
  cmp -s "$E2E_STATE/kubelet.yaml" "$E2E_STATE/kubelet.yaml.want" || return 1
  apiserver_calls_internal_ip && apiserver_serves_pods
}

apiserver_calls_internal_ip() {
  local pid
  pid=$(pid_of kube-apiserver)
  [ -n "$pid" ] && tr '\0' ' ' <"/proc/$pid/cmdline" | grep -q -- '--kubelet-preferred-address-types InternalIP'
}

# apiserver_serves_pods: the apiserver listens on every address and advertises $NODE_IP, so the
# `kubernetes` Service leads pods to it (apiserver.sh).
apiserver_serves_pods() {
  local pid
  pid=$(pid_of kube-apiserver)
  [ -n "$pid" ] && tr '\0' ' ' <"/proc/$pid/cmdline" | grep -q -- "--bind-address 0.0.0.0 --advertise-address $NODE_IP "
}

# stop_pid NAME PID: stops a component (SIGTERM; SIGKILL after 15 s: the apiserver drains its
# watches for up to a minute) and waits until it is gone (a zombie counts: its new parent may
# reap it late).
stop_pid() {
  local name=$1 pid=$2 i
  kill "$pid" 2>/dev/null || return 0
  for i in $(seq 150); do
    running "$pid" || return 0
    sleep 0.1
  done
  log "$name did not stop within 15 s of SIGTERM: SIGKILL"
  kill -KILL "$pid" 2>/dev/null || true
  wait_for 10 "$name to stop" - sh -c "! kill -0 $pid 2>/dev/null || grep -q '^State:.*Z' /proc/$pid/status"
}

# update_node: brings a running cluster that predates node_current's settings up to them,
# restarting only what must: the apiserver if it calls the kubelet by Hostname, then the kubelet
# (its containers keep running; it takes them up again), once the apiserver answers: a kubelet
# started while the apiserver drains its watches may never sync its Node. Watchers see their
# watches end and resume.
update_node() {
  "$here/pki.sh"
  if ! apiserver_calls_internal_ip || ! apiserver_serves_pods; then
    log "restarting kube-apiserver to call the kubelet by InternalIP and serve pods at $NODE_IP"
    stop_pid kube-apiserver "$(pid_of kube-apiserver)"
    ensure_node_ip
    start_apiserver
  fi
  log "restarting the kubelet with today's settings"
  [ -z "$(pid_of kubelet)" ] || stop_pid kubelet "$(pid_of kubelet)"
  cp "$E2E_STATE/kubelet.yaml.want" "$E2E_STATE/kubelet.yaml"
  start_kubelet
  wait_ready
}

# --- readiness ----------------------------------------------------------------------------------

# node_ready_fresh: the node is Ready per a heartbeat of the kubelet started by this run. After a
# down/up with the etcd data kept, the Node object still says Ready (the old kubelet's last word)
# for up to the 40 s node-monitor grace period, so Ready alone proves nothing.
node_ready_fresh() {
  local hb
  node_ready || return 1
  hb=$(kubectl_admin get node "$NODE_NAME" -o 'jsonpath={.status.conditions[?(@.type=="Ready")].lastHeartbeatTime}') || return 1
  [ "$(date -d "$hb" +%s)" -ge "$kubelet_started" ]
}

not_ready_taint_gone() {
  local taints
  taints=$(kubectl_admin get node "$NODE_NAME" -o 'jsonpath={.spec.taints[*].key}') || return 1
  [[ " $taints " != *" node.kubernetes.io/not-ready "* ]]
}

wait_ready() {
  wait_for $T_NODE "node $NODE_NAME Ready" kubelet node_ready_fresh
  wait_for $T_NODE "the node.kubernetes.io/not-ready taint to go" kube-controller-manager not_ready_taint_gone
  wait_for $T_SA "ServiceAccount default/default" kube-controller-manager kubectl_admin -n default get serviceaccount default
}

# --- main ---------------------------------------------------------------------------------------

main() {
  local t0=$SECONDS state
  preflight
  lock_cluster
  ensure_deps
  state=$(cluster_state)
  case $state in
    up)
      write_kubelet_config "$E2E_STATE/kubelet.yaml.want"
      if ! node_current; then
        log "cluster up, but its node predates today's settings (node logs, pods reach the API): updating it"
        update_node
      fi
      # A cluster brought up before kube-proxy was part of it: start it (no restart of anything).
      if ! kube_proxy_running; then
        "$here/pki.sh"
        log "starting kube-proxy";      start_kube_proxy
      fi
      log "cluster already up (node $NODE_NAME Ready); export KUBECONFIG=$KUBECONFIG_ADMIN"
      exit 0 ;;
    partial)
      log "cluster half up or leftovers of a crashed run: tearing down first"
      "$here/down.sh" ;;
  esac
  check_ports
  "$here/pki.sh"
  write_configs
  cp "$E2E_STATE/kubelet.yaml" "$E2E_STATE/kubelet.yaml.want"
  "$here/images.sh" build

  log "starting etcd";                 start_etcd
  ensure_node_ip # the apiserver advertises it
  log "starting kube-apiserver";       start_apiserver
  log "starting controller-manager and scheduler"; start_controllers
  log "starting containerd in a private mount namespace"
  start_holder
  start_containerd
  "$here/images.sh" import
  log "starting kubelet";              start_kubelet
  log "starting kube-proxy";           start_kube_proxy
  wait_ready
  log "cluster up in $((SECONDS - t0))s: export KUBECONFIG=$KUBECONFIG_ADMIN"
}

main "$@"
