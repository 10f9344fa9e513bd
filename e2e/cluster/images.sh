#!/usr/bin/env bash
# images.sh [build|import|all]: the cluster's two container images, made without a registry or
# docker, as OCI image-layout tarballs under $E2E_STATE/images:
#   docker.io/library/busybox:1.35  /bin/busybox (Debian busybox-static) + a symlink per applet
#   registry.k8s.io/pause:3.10      $E2E_BIN/pause as /pause (containerd's sandbox_image)
# `build` writes the tarballs; `import` loads them into the running cluster's containerd
# (namespace k8s.io, where the CRI plugin looks) with `ctr images import`; `all` (default) does
# both. Pods must use them with imagePullPolicy: Never (or IfNotPresent): nothing can be pulled.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/env.sh"
. "$here/lib.sh"

arch=$(dpkg --print-architecture) # Debian and OCI agree on amd64/arm64

# sha FILE: the hex sha256 of FILE.
sha() { sha256sum "$1" | cut -d' ' -f1; }

# blob LAYOUT FILE: moves FILE into LAYOUT/blobs/sha256/ under its digest; prints the hex digest.
blob() {
  local layout=$1 file=$2 h
  h=$(sha "$file")
  mkdir -p "$layout/blobs/sha256"
  mv "$file" "$layout/blobs/sha256/$h"
  echo "$h"
}

# oci_archive OUT REF ROOTFS ENTRYPOINT_JSON CMD_JSON: writes OUT, an OCI image-layout tar of a
# one-layer image of ROOTFS, whose index names it REF (io.containerd.image.name is what
# `ctr images import` tags it with; org.opencontainers.image.ref.name is the standard tag).
oci_archive() {
  local out=$1 ref=$2 rootfs=$3 entrypoint=$4 cmd=$5
  local layout layer_hex layer_size config_hex config_size manifest_hex manifest_size
  layout=$(mktemp -d "$E2E_IMAGES/layout.XXXXXX")

  # The layer: an uncompressed, reproducible tar (fixed order, owner and mtime).
  tar --sort=name --mtime=@0 --owner=0 --group=0 --numeric-owner -C "$rootfs" -cf "$layout/layer" .
  layer_size=$(stat -c %s "$layout/layer")
  layer_hex=$(blob "$layout" "$layout/layer") # uncompressed, so its digest is also its diff_id

  cat >"$layout/config" <<EOF
{"architecture":"$arch","os":"linux","created":"1970-01-01T00:00:00Z",
 "config":{"Env":["PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"],
           "Entrypoint":$entrypoint,"Cmd":$cmd,"WorkingDir":"/"},
 "rootfs":{"type":"layers","diff_ids":["sha256:$layer_hex"]},
 "history":[{"created":"1970-01-01T00:00:00Z","created_by":"e2e/cluster/images.sh"}]}
EOF
  config_size=$(stat -c %s "$layout/config")
  config_hex=$(blob "$layout" "$layout/config")

  cat >"$layout/manifest" <<EOF
{"schemaVersion":2,"mediaType":"application/vnd.oci.image.manifest.v1+json",
 "config":{"mediaType":"application/vnd.oci.image.config.v1+json","digest":"sha256:$config_hex","size":$config_size},
 "layers":[{"mediaType":"application/vnd.oci.image.layer.v1.tar","digest":"sha256:$layer_hex","size":$layer_size}]}
EOF
  manifest_size=$(stat -c %s "$layout/manifest")
  manifest_hex=$(blob "$layout" "$layout/manifest")

  cat >"$layout/index.json" <<EOF
{"schemaVersion":2,"mediaType":"application/vnd.oci.image.index.v1+json",
 "manifests":[{"mediaType":"application/vnd.oci.image.manifest.v1+json",
   "digest":"sha256:$manifest_hex","size":$manifest_size,
   "platform":{"architecture":"$arch","os":"linux"},
   "annotations":{"io.containerd.image.name":"$ref","org.opencontainers.image.ref.name":"${ref##*:}"}}]}
EOF
  echo '{"imageLayoutVersion":"1.0.0"}' >"$layout/oci-layout"

  tar --sort=name --mtime=@0 --owner=0 --group=0 --numeric-owner -C "$layout" -cf "$out.tmp" oci-layout index.json blobs
  mv "$out.tmp" "$out"
  rm -rf "$layout"
}

# base_rootfs DIR: the directories and files every image here has.
base_rootfs() {
  local d=$1
  mkdir -p "$d"/{bin,sbin,usr/bin,usr/sbin,etc,proc,sys,dev,root,var,tmp}
  chmod 1777 "$d/tmp"
  printf 'root:x:0:0:root:/root:/bin/sh\nnobody:x:65534:65534:nobody:/:/bin/false\n' >"$d/etc/passwd"
  printf 'root:x:0:\nnobody:x:65534:\n' >"$d/etc/group"
}

build_busybox() {
  local rootfs applet
  [ -x /bin/busybox ] || die "/bin/busybox missing: run e2e/cluster/install-deps.sh (busybox-static)"
  # A dynamically linked busybox (the `busybox` package) would not run in an empty rootfs.
  if ldd /bin/busybox >/dev/null 2>&1; then
    die "/bin/busybox is dynamically linked: install busybox-static"
  fi
  rootfs=$(mktemp -d "$E2E_IMAGES/rootfs.XXXXXX")
  base_rootfs "$rootfs"
  cp /bin/busybox "$rootfs/bin/busybox"
  # One symlink per applet, where busybox itself would install it (bin/sh, bin/sleep, ...).
  while read -r applet; do
    [ "$applet" = bin/busybox ] && continue
    [ -e "$rootfs/$applet" ] || ln -s /bin/busybox "$rootfs/$applet"
  done < <(/bin/busybox --list-full)
  oci_archive "$E2E_IMAGES/busybox.oci.tar" "$BUSYBOX_IMAGE" "$rootfs" 'null' '["sh"]'
  rm -rf "$rootfs"
}

build_pause() {
  local rootfs
  [ -x "$E2E_BIN/pause" ] || die "$E2E_BIN/pause missing: run e2e/cluster/build.sh"
  rootfs=$(mktemp -d "$E2E_IMAGES/rootfs.XXXXXX")
  base_rootfs "$rootfs"
  cp "$E2E_BIN/pause" "$rootfs/pause"
  oci_archive "$E2E_IMAGES/pause.oci.tar" "$PAUSE_IMAGE" "$rootfs" '["/pause"]' 'null'
  rm -rf "$rootfs"
}

build() {
  mkdir -p "$E2E_IMAGES"
  rm -rf "$E2E_IMAGES"/layout.* "$E2E_IMAGES"/rootfs.* # leftovers of an interrupted run
  build_busybox
  build_pause
  log "images: built $(cd "$E2E_IMAGES" && echo *.oci.tar)"
}

# import: feeds each tarball to ctr on stdin (ctr runs inside the private mount namespace, where
# the containerd socket is) and checks that the tag exists afterwards.
import() {
  local tarball ref refs
  for tarball in busybox pause; do
    ref=$BUSYBOX_IMAGE; [ $tarball = pause ] && ref=$PAUSE_IMAGE
    ctr_ns images import - <"$E2E_IMAGES/$tarball.oci.tar" >/dev/null
    # Not `ctr ... | grep -q`: grep exits at the first match, ctr dies of SIGPIPE, and pipefail
    # turns that into a failure.
    refs=$(ctr_ns images ls -q)
    grep -qxF "$ref" <<<"$refs" || die "images: $ref missing after import"
  done
  log "images: imported $BUSYBOX_IMAGE $PAUSE_IMAGE"
}

case ${1:-all} in
  build) build ;;
  import) import ;;
  all) build; import ;;
  *) die "usage: $0 [build|import|all]" ;;
esac
