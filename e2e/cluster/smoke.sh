#!/usr/bin/env bash
# smoke.sh: proves a running e2e cluster works: in a fresh namespace, a pod with a native sidecar
# (an initContainers entry with restartPolicy: Always) and an app container, both busybox with
# imagePullPolicy: Never, must reach Running with both containers logging (which also exercises
# apiserver -> kubelet); then the namespace is deleted.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/env.sh"
. "$here/lib.sh"

ns=smoke-$$
t0=$SECONDS
cleanup() { kubectl_admin delete namespace "$ns" --wait=false >/dev/null 2>&1 || true; }
trap cleanup EXIT

"$here/wait-namespace.sh" "$ns"
kubectl_admin -n "$ns" apply -f - >/dev/null <<EOF
apiVersion: v1
kind: Pod
metadata:
  name: smoke
spec:
  terminationGracePeriodSeconds: 1
  initContainers:
  - name: sidecar
    image: $BUSYBOX_IMAGE
    imagePullPolicy: Never
    restartPolicy: Always
    command: [sh, -c, 'echo sidecar started; while true; do date; sleep 1; done']
  containers:
  - name: app
    image: $BUSYBOX_IMAGE
    imagePullPolicy: Never
    command: [sh, -c, 'echo app started; touch /tmp/ok; test -f /tmp/ok && echo app ok; sleep 3600']
EOF

pod_running() {
  [ "$(kubectl_admin -n "$ns" get pod smoke -o 'jsonpath={.status.phase}')" = Running ] &&
    [ "$(kubectl_admin -n "$ns" get pod smoke -o 'jsonpath={.status.containerStatuses[0].ready}')" = true ] &&
    [ "$(kubectl_admin -n "$ns" get pod smoke -o 'jsonpath={.status.initContainerStatuses[0].started}')" = true ]
}
deadline=$((SECONDS + 60))
until pod_running 2>/dev/null; do
  if [ $SECONDS -ge $deadline ]; then
    kubectl_admin -n "$ns" describe pod smoke >&2 || true
    die "smoke: pod did not reach Running in 60s"
  fi
  sleep 0.5
done
logged() { local out; out=$(kubectl_admin -n "$ns" logs smoke -c "$1") && grep -q "$2" <<<"$out"; }
wait_for 20 "sidecar logs" - logged sidecar 'sidecar started'
wait_for 20 "app logs" - logged app 'app ok'
kubectl_admin -n "$ns" get pod smoke -o wide
kubectl_admin -n "$ns" delete pod smoke --wait=true --timeout=60s >/dev/null
log "smoke: ok in $((SECONDS - t0))s (pod Running, sidecar and app logged, pod deleted)"
