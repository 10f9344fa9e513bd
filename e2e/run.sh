#!/usr/bin/env bash
# run.sh [--truth]: the one entry point of the end-to-end tests (`make e2e`, `make truth`).
# Brings the real one-node cluster up (e2e/cluster/up.sh installs and builds what it needs the
# first time), builds Jaeger and Prometheus (once, e2e/cluster/jaeger.sh, prometheus.sh) and
# sidecar-top into .e2e/bin, the agent's image (make image) into the node's containerd, and runs
#   (default)  go test -tags e2e -count=1 -v -parallel 4 -timeout 20m ./e2e/ (the log-robustness
#              tests, which load the node on purpose, after the rest), then the fault
#              tests alone (E2E_FAULTS=1 -run '^TestFault'; skipped when -- args are given,
#              unless E2E_FAULTS is set)
#   --truth    go run -tags e2e ./e2e/truth   (each named gap beside the runtime's ground truth)
# The cluster is ALWAYS torn down on exit (down.sh --purge), pass or fail or Ctrl-C. If it cannot
# come up, run.sh fails with the reason; it never skips the tests. Extra arguments after -- go
# to `go test` (e.g. e2e/run.sh -- -run TestStartOrder).
# On failure the evidence of each failed scenario is in /tmp/e2e-failures/<test>/<namespace>/,
# and the cluster's component logs are copied to /tmp/e2e-failures/cluster-logs-<time>/.
set -euo pipefail
cd "$(dirname "$0")/.."
. e2e/cluster/env.sh

mode=test
extra=()
while [ $# -gt 0 ]; do
  case $1 in
    --truth) mode=truth ;;
    --) shift; extra=("$@"); break ;;
    -h | --help) sed -n '2,14p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "run.sh: unknown argument $1 (usage: e2e/run.sh [--truth] [-- GO TEST ARGS])" >&2; exit 2 ;;
  esac
  shift
done

log() { printf '%s run.sh: %s\n' "$(date +%H:%M:%S)" "$*" >&2; }

teardown() {
  local status=$?
  trap - EXIT INT TERM
  if [ "$status" != 0 ] && [ -d "$E2E_LOGS" ]; then
    local keep=/tmp/e2e-failures/cluster-logs-$(date +%Y%m%d-%H%M%S)
    mkdir -p "$keep" && cp -r "$E2E_LOGS"/. "$keep"/ && log "cluster component logs kept in $keep"
  fi
  log "tearing the cluster down"
  if ! e2e/cluster/down.sh --purge; then
    log "WARNING: down.sh failed; see above"
    [ "$status" != 0 ] || status=1
  fi
  log "done in $((SECONDS))s, exit status $status"
  exit "$status"
}
trap teardown EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

log "bringing the cluster up"
if ! e2e/cluster/up.sh; then
  log "FAIL: the cluster did not come up (the reason is above); no test ran"
  exit 1
fi
export KUBECONFIG=$KUBECONFIG_ADMIN
export PATH=$E2E_BIN:$PATH

log "building Jaeger for the OTLP test (once: kept in $E2E_BIN)"
e2e/cluster/jaeger.sh

# The agent's tests (e2e/agent_*_test.go) apply deploy/ as written: its image must be in the
# node's containerd. The image is of this tree, so it is built every run (warm: seconds);
# Prometheus, which scrapes it, once.
log "building Prometheus for the agent's tests (once: kept in $E2E_BIN)"
e2e/cluster/prometheus.sh
log "building the agent's image (make image) and importing it into the node's containerd"
make -s image IMAGE=ghcr.io/sidecar-top/sidecar-top:dev IMAGE_TAR=bin/sidecar-top-image.tar
e2e/cluster/import-image.sh bin/sidecar-top-image.tar ghcr.io/sidecar-top/sidecar-top:dev

log "building sidecar-top"
go build -o "$E2E_BIN/sidecar-top" ./cmd/sidecar-top
export SIDECAR_TOP_BIN=$E2E_BIN/sidecar-top

case $mode in
  test)
    if [ ${#extra[@]} -eq 0 ]; then
      # The log-robustness tests load the node on purpose (one writes 320,000 lines at 10,000 a
      # second): beside the scenarios that hold the timeline to the kubelet's timing, they made
      # the runtime stamp lines and the kubelet act seconds late. They run after them.
      # 4 at a time: at 8 on 2 cores the node's load reached 13 to 16, the kubelet ran preStop
      # hooks and init-container restarts seconds late, and scenarios timed to it broke.
      log "running the end-to-end tests"
      go test -tags e2e -count=1 -v -parallel 4 -timeout 20m -skip '^TestLogsRobust' ./e2e/
      log "running the log-robustness tests, after the timing scenarios"
      go test -tags e2e -count=1 -v -parallel 5 -timeout 10m -run '^TestLogsRobust' ./e2e/
    else
      log "running the end-to-end tests"
      go test -tags e2e -count=1 -v -parallel 4 -timeout 20m ./e2e/ "${extra[@]}"
    fi
    if [ ${#extra[@]} -eq 0 ] || [ -n "${E2E_FAULTS:-}" ]; then
      # The faults hit the cluster itself (the API server killed, stopped): one at a time, with
      # nothing else running on it.
      log "running the fault tests (E2E_FAULTS=1), one at a time"
      E2E_FAULTS=1 go test -tags e2e -count=1 -v -p 1 -parallel 1 -run '^TestFault' -timeout 30m ./e2e/
    fi
    ;;
  truth)
    log "running the ground-truth figures"
    go run -tags e2e ./e2e/truth
    ;;
esac
