#!/usr/bin/env bash
# scope-cpu.sh OLD NEW: the CPU of `sidecar-top -A` from two builds, side by side, on the pods a
# `fleet-scale.sh -keep` run left. Both run at once on terminals (script(1), 200x50), so that
# they read the same cluster and the same updates: their CPU (utime+stime) for 60 s from 60 s
# after they started, with nothing written, then during a 30 s churn of pod statuses
# (fleetscale -mode churn) and 10 s after, and their VmHWM. Two cores shared by two programs:
# compare the CPU-seconds, not the time they took.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
export KUBECONFIG=${KUBECONFIG:-$root/.e2e/state/admin.kubeconfig}
[ $# -eq 2 ] || { echo "usage: scope-cpu.sh OLD-BINARY NEW-BINARY" >&2; exit 2; }
[ "$1" != "$2" ] || { echo "scope-cpu.sh: OLD and NEW are one file; copy one" >&2; exit 2; }
mkdir -p /tmp/perf
go build -C "$root" -o /tmp/perf/fleetscale ./e2e/perf/fleetscale
levels=$(kubectl get pods -A --no-headers 2>/dev/null | grep -c ' s[0-9]*-' || true)

declare -A pid
for bin in "$1" "$2"; do
  timeout 240 script -qfc "stty cols 200 rows 50; exec $bin -A 2>/dev/null" /dev/null >/dev/null &
done
sleep 3
for bin in "$1" "$2"; do pid[$bin]=$(pgrep -n -f "^$bin -A"); done
cpu() { awk '{print $14+$15}' "/proc/$1/stat"; }
secs() { echo "($2-$1)/100" | bc -l; }
sleep 57
declare -A a b c
for bin in "$1" "$2"; do a[$bin]=$(cpu "${pid[$bin]}"); done
sleep 60
for bin in "$1" "$2"; do b[$bin]=$(cpu "${pid[$bin]}"); done
/tmp/perf/fleetscale -mode churn -levels "$levels" -churn 30s >/tmp/perf/scope-cpu-churn.log 2>&1
sleep 10
echo "sidecar-top -A on $levels pods of the benchmark; churn: $(grep "updates written" /tmp/perf/scope-cpu-churn.log | cut -d' ' -f2-)"
label=old
for bin in "$1" "$2"; do
  c=$(cpu "${pid[$bin]}")
  printf '%-4s %-34s quiet %5.1f CPU-s in 60 s   churn and 10 s after %5.1f CPU-s   %s\n' "$label" "$bin" \
    "$(secs "${a[$bin]}" "${b[$bin]}")" "$(secs "${b[$bin]}" "$c")" "$(grep VmHWM "/proc/${pid[$bin]}/status" | tr -s ' \t' ' ')"
  kill "${pid[$bin]}" 2>/dev/null || true
  label=new
done
wait || true
