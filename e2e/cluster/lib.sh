# lib.sh: helpers shared by up.sh, down.sh, images.sh, pki.sh and wait-namespace.sh. Source it
# after env.sh. Everything here only reads or touches what lives under $E2E_DIR, plus the
# processes recorded in $E2E_RUN/*.pid.

# Fixed names and addresses of the cluster. Ports are checked for being free before start.
export ETCD_CLIENT_PORT=${ETCD_CLIENT_PORT:-2379}
export ETCD_PEER_PORT=${ETCD_PEER_PORT:-2380}
export APISERVER_PORT=6443
export APISERVER_URL=https://127.0.0.1:$APISERVER_PORT
export SERVICE_CIDR=10.0.0.0/24
export SERVICE_IP=10.0.0.1
export CLUSTER_DNS=10.0.0.10
export POD_CIDR=10.89.0.0/16 # not podman's default 10.88.0.0/16, to avoid clashing with it
export CNI_NETWORK=sidecar-top-e2e
export CNI_BRIDGE=stcni0
# The node's address (its InternalIP, where the kubelet listens), on the host's loopback
# interface: the apiserver proxies to a node (the node log query) only at a global-unicast
# address, never at 127.0.0.1 or a hostname that resolves there. Not in POD_CIDR or SERVICE_CIDR,
# and reachable from this machine only (nothing routes 10.90.0.0/16 here).
export NODE_IP=${NODE_IP:-10.90.0.1}
export NODE_NAME=${NODE_NAME:-$(hostname | tr '[:upper:]' '[:lower:]')}
export CONTAINERD_SOCK=/run/containerd/containerd.sock # path inside the private mount namespace
export BUSYBOX_IMAGE=docker.io/library/busybox:1.35
export PAUSE_IMAGE=registry.k8s.io/pause:3.10
export E2E_IMAGES=$E2E_STATE/images
export E2E_NS_ROOT=$E2E_STATE/ns # host-side files bind-mounted inside the private namespace

# The components, in start order.
# shellcheck disable=SC2034 # used by up.sh
COMPONENTS=(etcd kube-apiserver kube-controller-manager kube-scheduler holder containerd kubelet)

log() { printf '%s %s\n' "$(date +%H:%M:%S)" "$*" >&2; }
die() { log "ERROR: $*"; exit 1; }

pidfile() { echo "$E2E_RUN/$1.pid"; }

# stat_field PID N: field N of /proc/PID/stat, counted from the state (3) on, so that a command
# name with spaces cannot shift it.
stat_field() {
  local s
  s=$(cat "/proc/$1/stat" 2>/dev/null) || return 0
  s=${s##*) }
  cut -d' ' -f$(($2 - 2)) <<<"$s"
}

# starttime PID: the process's start time in clock ticks since boot (field 22 of stat). Recorded
# next to each PID so that a PID reused by some other process is never mistaken for ours.
starttime() { stat_field "$1" 22; }

# running PID: true if PID exists and is not a zombie. Our daemons are reparented when up.sh
# exits, and their new parent may reap them late: a killed daemon can linger as a zombie.
running() {
  local st
  st=$(stat_field "$1" 3)
  [ -n "$st" ] && [ "$st" != Z ]
}

# pid_of NAME: the recorded PID of a component if that very process is still running, else nothing.
pid_of() {
  local f pid start
  f=$(pidfile "$1")
  [ -s "$f" ] || return 0
  read -r pid start <"$f" || true
  if [ -n "$pid" ] && running "$pid" && [ "$(starttime "$pid")" = "$start" ]; then echo "$pid"; fi
  return 0
}

# start_bg NAME CMD...: starts CMD in a new session (its own process group, which down.sh kills
# as a whole), its stdout+stderr to $E2E_LOGS/NAME.log (the previous run's is kept as
# NAME.log.prev), and records "PID STARTTIME".
start_bg() {
  local name=$1 pid; shift
  mkdir -p "$E2E_LOGS" "$E2E_RUN"
  [ -f "$E2E_LOGS/$name.log" ] && mv -f "$E2E_LOGS/$name.log" "$E2E_LOGS/$name.log.prev"
  echo "==== $(date -Is) start: $*" >"$E2E_LOGS/$name.log"
  # Not a process-group leader (no job control in scripts), so setsid execs rather than forks
  # and $! is the component's own PID. 9>&-: the daemon must not inherit the cluster lock.
  setsid "$@" </dev/null >>"$E2E_LOGS/$name.log" 2>&1 9>&- &
  pid=$!
  echo "$pid $(starttime "$pid")" >"$(pidfile "$name")"
}

# ns_pids: every process living in the private mount namespace (recorded in $E2E_RUN/mntns):
# the holder, containerd, its shims, the kubelet and any `nsenter` run by these scripts. Container
# processes have mount namespaces of their own and are found through their cgroups instead.
ns_pids() {
  local ns p
  [ -s "$E2E_RUN/mntns" ] || return 0
  ns=$(cat "$E2E_RUN/mntns")
  for p in /proc/[0-9]*; do
    [ "$(readlink "$p/ns/mnt" 2>/dev/null)" = "$ns" ] && running "${p#/proc/}" && echo "${p#/proc/}"
  done
  return 0
}

# lock_cluster: serialises up.sh and down.sh (e.g. parallel test packages all calling up.sh).
# Held on fd 9 until the script exits; scripts they call inherit it (E2E_LOCKED).
lock_cluster() {
  [ -n "${E2E_LOCKED:-}" ] && return 0
  mkdir -p "$E2E_DIR"
  exec 9>>"$E2E_DIR/.lock"
  flock -w 900 9 || die "could not lock $E2E_DIR/.lock within 900 s"
  export E2E_LOCKED=1
}

# in_ns CMD...: runs CMD inside the private mount namespace that containerd and the kubelet live
# in (their /run, /var/lib and /var/log are private tmpfs mounts there).
in_ns() {
  local holder
  holder=$(pid_of holder)
  [ -n "$holder" ] || die "the mount-namespace holder is not running (is the cluster up?)"
  nsenter --target "$holder" --mount -- "$@"
}

# ctr_ns ARGS...: ctr against the cluster's containerd, in the CRI ("k8s.io") namespace.
ctr_ns() { in_ns ctr --address "$CONTAINERD_SOCK" -n k8s.io "$@"; }

kubectl_admin() { "$E2E_BIN/kubectl" --kubeconfig "$KUBECONFIG_ADMIN" "$@"; }

# wait_for TIMEOUT_SECONDS WHAT LOGNAME CMD...: polls CMD every 0.5 s until it succeeds. On
# timeout, or when component LOGNAME (if not "-") died, prints the tail of its log and exits 1.
wait_for() {
  local timeout=$1 what=$2 logname=$3; shift 3
  local deadline=$((SECONDS + timeout))
  while ! "$@" >/dev/null 2>&1; do
    if [ "$logname" != - ] && [ -z "$(pid_of "$logname")" ]; then
      fail_with_log "$logname" "$logname exited while waiting for $what"
    fi
    if [ $SECONDS -ge $deadline ]; then
      fail_with_log "$logname" "timed out after ${timeout}s waiting for $what"
    fi
    sleep 0.5
  done
}

fail_with_log() {
  local logname=$1 msg=$2
  log "ERROR: $msg"
  if [ "$logname" != - ] && [ -f "$E2E_LOGS/$logname.log" ]; then
    log "---- last 40 lines of $E2E_LOGS/$logname.log"
    tail -n 40 "$E2E_LOGS/$logname.log" >&2
  fi
  exit 1
}

# port_free PORT: true if nothing listens on 127.0.0.1:PORT (or on the wildcard address).
port_free() {
  [ -z "$(ss -Hltn "sport = :$1")" ]
}
