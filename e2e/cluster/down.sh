#!/usr/bin/env bash
# down.sh [--purge]: stops what up.sh started and removes what it left on the host, so that no
# process, mount, cgroup, bridge or iptables rule of the cluster remains. Idempotent.
#   processes  the PIDs in $E2E_RUN/*.pid (each checked against its recorded start time), every
#              process in the private mount namespace (containerd's shims too), and every process
#              in the kubepods cgroups (the containers)
#   mounts     all live in the private mount namespace, which is freed with its last process
#   cgroups    /sys/fs/cgroup/*/kubepods* (made by the kubelet and runc)
#   network    the CNI bridge and its veths; kube-proxy's iptables rules (kube-proxy --cleanup)
#              and those of the CNI network, if any; the node's address on lo
# --purge also deletes $E2E_STATE (etcd data, certs, kubeconfigs, logs); built binaries stay.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/env.sh"
. "$here/lib.sh"

purge=
case ${1:-} in
  --purge) purge=1 ;;
  "") ;;
  *) die "usage: $0 [--purge]" ;;
esac
[ "$(id -u)" = 0 ] || die "run as root"
shopt -s globstar nullglob # for the cgroup globs below

# alive PID...: the given PIDs that still run (zombies are as good as gone).
alive() {
  local p
  for p in "$@"; do
    if running "$p"; then echo "$p"; fi
  done
  return 0
}

# stop_pids TIMEOUT PID...: SIGTERM, wait up to TIMEOUT seconds, then SIGKILL what is left.
stop_pids() {
  local timeout=$1; shift
  local left deadline=$((SECONDS + timeout)) killed=
  [ $# -gt 0 ] || return 0
  kill -TERM "$@" 2>/dev/null || true
  while true; do
    mapfile -t left < <(alive "$@")
    [ ${#left[@]} -gt 0 ] || return 0
    if [ $SECONDS -ge $deadline ]; then
      [ -n "$killed" ] && { log "down: WARNING: still running after SIGKILL: ${left[*]}"; return 0; }
      log "down: SIGKILL to ${left[*]}"
      kill -KILL "${left[@]}" 2>/dev/null || true
      killed=1 deadline=$((SECONDS + 5))
    fi
    sleep 0.2
  done
}

# group_pids PID: the members of PID's process group (start_bg gives each component its own).
group_pids() {
  ps -e -o pid=,pgid= | awk -v g="$1" '$2 == g {print $1}'
}

# stop NAME [TIMEOUT]: stops a component and whatever else runs in its process group.
stop() {
  local name=$1 timeout=${2:-10} pid
  pid=$(pid_of "$name")
  if [ -n "$pid" ]; then
    log "down: stopping $name ($pid)"
    # shellcheck disable=SC2046
    stop_pids "$timeout" $(group_pids "$pid") "$pid"
  fi
  rm -f "$(pidfile "$name")"
}

# kubepods_pids: every process in a kubepods cgroup, i.e. the containers (pause included).
kubepods_pids() {
  local files=(/sys/fs/cgroup/*/kubepods*/**/cgroup.procs) # ** also matches no directory
  [ ${#files[@]} -gt 0 ] || return 0
  # A cgroup can go between the glob and cat (its last process just died): cat then fails, which
  # under pipefail and set -e ended the whole teardown right after the kubelet stopped.
  { cat "${files[@]}" 2>/dev/null || true; } | sort -un
}

kill_containers() {
  local i pids
  # SIGKILL, repeatedly, in case one of them forks meanwhile.
  for i in $(seq 1 50); do
    pids=$(kubepods_pids)
    [ -n "$pids" ] || return 0
    [ "$i" = 1 ] && log "down: killing $(echo "$pids" | wc -l) container processes"
    # shellcheck disable=SC2086
    kill -KILL $pids 2>/dev/null || true
    sleep 0.1
  done
  log "down: WARNING: container processes survive: $(kubepods_pids | tr '\n' ' ')"
}

# remove_cgroups: the kubepods trees, deepest first. A cgroup whose last process just died can be
# busy for a moment, hence the retries.
remove_cgroups() {
  local i dirs
  for i in $(seq 1 50); do
    dirs=(/sys/fs/cgroup/*/kubepods*)
    [ ${#dirs[@]} -gt 0 ] || return 0
    [ "$i" = 1 ] && log "down: removing kubepods cgroups"
    find "${dirs[@]}" -depth -type d -exec rmdir {} + 2>/dev/null || true
    sleep 0.1
  done
  log "down: WARNING: cgroups left: $(echo /sys/fs/cgroup/*/kubepods*)"
}

remove_network() {
  local veth
  if ip link show "$CNI_BRIDGE" >/dev/null 2>&1; then
    log "down: deleting bridge $CNI_BRIDGE and its veths"
    # Deleting the host end of a veth deletes its pair; pod network namespaces are already gone
    # with the mount namespace that pinned them, which usually removes the veths by itself.
    for veth in $(ip -o link show master "$CNI_BRIDGE" 2>/dev/null | awk -F': ' '{print $2}' | cut -d@ -f1); do
      ip link del "$veth" 2>/dev/null || true
    done
    ip link del "$CNI_BRIDGE" 2>/dev/null || true
  fi
  if ip -o addr show dev lo | grep -q " inet $NODE_IP/32 "; then
    log "down: removing the node's address $NODE_IP from lo"
    ip addr del "$NODE_IP/32" dev lo 2>/dev/null || true
  fi
  remove_iptables
  "$here/kube-proxy.sh" cleanup
}

# remove_iptables: with ipMasq false the bridge plugin adds no rule; if it ever did (ipMasq true),
# its rules carry the network's name in a comment and jump to CNI-* chains: drop those lines and
# chains from the nat table.
remove_iptables() {
  local saved chains line skip c
  command -v iptables-save >/dev/null || return 0
  saved=$(iptables-save -t nat 2>/dev/null) || return 0
  grep -qF "$CNI_NETWORK" <<<"$saved" || return 0
  log "down: removing the iptables rules of CNI network $CNI_NETWORK"
  chains=$(grep -E "$CNI_NETWORK" <<<"$saved" | grep -oE -- '-j CNI-[0-9a-f]+' | awk '{print $2}' | sort -u)
  {
    while IFS= read -r line; do
      case $line in
        *"$CNI_NETWORK"*) continue ;;
      esac
      skip=
      for c in $chains; do
        case $line in ":$c "* | "-A $c "*) skip=1 ;; esac
      done
      [ -n "$skip" ] || printf '%s\n' "$line"
    done <<<"$saved"
  } | iptables-restore -T nat
}

main() {
  local pids
  lock_cluster
  # The node first, so that nothing restarts containers while they are being killed.
  stop kube-proxy 10
  stop kubelet 15
  kill_containers
  stop containerd 10
  stop holder 5
  # Whatever is left in the namespace: the shims (their own sessions, so not in containerd's
  # process group), a leftover nsenter. With the last of them the namespace and all its mounts
  # (tmpfs on /run, /var/lib, /var/log, overlay rootfs, netns pins, sysctl shadows) go away.
  pids=$(ns_pids)
  if [ -n "$pids" ]; then
    log "down: stopping $(echo "$pids" | wc -l) processes left in the mount namespace"
    # shellcheck disable=SC2086
    stop_pids 5 $pids
  fi
  kill_containers # a shim killed early may have left a container behind
  rm -f "$E2E_RUN/mntns"

  stop kube-scheduler
  stop kube-controller-manager
  stop kube-apiserver 15
  stop etcd 15

  remove_cgroups
  remove_network

  if [ -n "$purge" ]; then
    log "down: removing $E2E_STATE"
    rm -rf "$E2E_STATE"
  fi
  log "down: done"
}

main "$@"
