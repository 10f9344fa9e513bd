#!/usr/bin/env bash
# pki.sh: makes the cluster's certificates (openssl, EC P-256) and kubeconfigs under $E2E_PKI and
# $E2E_STATE. Files that already exist are kept, so re-running it is cheap and certs survive
# down/up cycles (the admin kubeconfig stays valid). `down.sh --purge` removes them.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/env.sh"
. "$here/lib.sh"

days=3650

# newkey FILE: an EC P-256 private key.
newkey() { [ -s "$1" ] || openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-256 -out "$1" 2>/dev/null; }

# sign NAME SUBJECT EXTENSIONS: NAME.key + NAME.crt, signed by the CA, with x509v3 EXTENSIONS.
sign() {
  local name=$1 subj=$2 ext=$3
  [ -s "$E2E_PKI/$name.crt" ] && return 0
  newkey "$E2E_PKI/$name.key"
  openssl req -new -key "$E2E_PKI/$name.key" -subj "$subj" -out "$E2E_PKI/$name.csr"
  printf '%s\n' "$ext" >"$E2E_PKI/$name.ext"
  openssl x509 -req -in "$E2E_PKI/$name.csr" -CA "$E2E_PKI/ca.crt" -CAkey "$E2E_PKI/ca.key" \
    -CAcreateserial -days $days -sha256 -extfile "$E2E_PKI/$name.ext" \
    -out "$E2E_PKI/$name.crt" 2>/dev/null
  rm -f "$E2E_PKI/$name.csr" "$E2E_PKI/$name.ext"
}

client_ext='basicConstraints=critical,CA:FALSE
keyUsage=critical,digitalSignature,keyEncipherment
extendedKeyUsage=clientAuth'

server_ext() { # server_ext SAN
  printf 'basicConstraints=critical,CA:FALSE\nkeyUsage=critical,digitalSignature,keyEncipherment\nextendedKeyUsage=serverAuth\nsubjectAltName=%s\n' "$1"
}

# kubeconfig FILE USER CERTNAME: a kubeconfig for https://127.0.0.1:6443 with the cert embedded,
# so the file can be copied elsewhere (e.g. by the test code) and still work.
kubeconfig() {
  local file=$1 user=$2 cert=$3
  [ -s "$file" ] && return 0
  cat >"$file" <<EOF
apiVersion: v1
kind: Config
clusters:
- name: e2e
  cluster:
    server: $APISERVER_URL
    certificate-authority-data: $(base64 -w0 "$E2E_PKI/ca.crt")
users:
- name: $user
  user:
    client-certificate-data: $(base64 -w0 "$E2E_PKI/$cert.crt")
    client-key-data: $(base64 -w0 "$E2E_PKI/$cert.key")
contexts:
- name: e2e
  context: {cluster: e2e, user: $user, namespace: default}
current-context: e2e
EOF
  chmod 600 "$file"
}

mkdir -p "$E2E_PKI"
chmod 700 "$E2E_PKI"
cd "$E2E_PKI"

# CA.
if [ ! -s ca.crt ]; then
  newkey ca.key
  openssl req -x509 -new -key ca.key -subj "/CN=sidecar-top-e2e-ca" -days $days -sha256 \
    -addext "basicConstraints=critical,CA:TRUE" -addext "keyUsage=critical,keyCertSign,cRLSign" \
    -out ca.crt
fi

# The front-proxy (request-header) CA. Nothing uses it, but without a request-header CA the
# controller-manager and scheduler log an error about its missing CA bundle every few seconds.
if [ ! -s front-proxy-ca.crt ]; then
  newkey front-proxy-ca.key
  openssl req -x509 -new -key front-proxy-ca.key -subj "/CN=sidecar-top-e2e-front-proxy-ca" -days $days -sha256 \
    -addext "basicConstraints=critical,CA:TRUE" -addext "keyUsage=critical,keyCertSign,cRLSign" \
    -out front-proxy-ca.crt
fi

# Service-account token signing key pair.
newkey sa.key
[ -s sa.pub ] || openssl pkey -in sa.key -pubout -out sa.pub

# Serving certs. The apiserver's covers every name a client (or a pod) may use for it.
sign apiserver "/CN=kube-apiserver" "$(server_ext "IP:127.0.0.1,IP:$SERVICE_IP,DNS:localhost,DNS:$NODE_NAME,DNS:kubernetes,DNS:kubernetes.default,DNS:kubernetes.default.svc,DNS:kubernetes.default.svc.cluster.local")"
# The kubelet's, so the apiserver can verify it (--kubelet-certificate-authority) when it calls
# the kubelet at the node's InternalIP ($NODE_IP) for logs, exec and the node proxy. One made
# before the node had that address is made again.
if [ -s kubelet-serving.crt ] && ! openssl x509 -in kubelet-serving.crt -noout -ext subjectAltName | grep -q "IP Address:$NODE_IP\b"; then
  rm -f kubelet-serving.crt
fi
sign kubelet-serving "/CN=$NODE_NAME" "$(server_ext "IP:$NODE_IP,IP:127.0.0.1,DNS:$NODE_NAME,DNS:localhost")"

# Client certs.
sign admin "/O=system:masters/CN=admin" "$client_ext"
sign kube-controller-manager "/CN=system:kube-controller-manager" "$client_ext"
sign kube-scheduler "/CN=system:kube-scheduler" "$client_ext"
sign kubelet "/O=system:nodes/CN=system:node:$NODE_NAME" "$client_ext"
# kube-proxy's user, which the default ClusterRoleBinding system:node-proxier binds.
sign kube-proxy "/CN=system:kube-proxy" "$client_ext"
sign apiserver-kubelet-client "/O=system:masters/CN=kube-apiserver-kubelet-client" "$client_ext"

kubeconfig "$KUBECONFIG_ADMIN" admin admin
kubeconfig "$E2E_STATE/kube-controller-manager.kubeconfig" system:kube-controller-manager kube-controller-manager
kubeconfig "$E2E_STATE/kube-scheduler.kubeconfig" system:kube-scheduler kube-scheduler
kubeconfig "$E2E_STATE/kubelet.kubeconfig" "system:node:$NODE_NAME" kubelet
kubeconfig "$E2E_STATE/kube-proxy.kubeconfig" system:kube-proxy kube-proxy
