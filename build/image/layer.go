package main

import (
	"archive/tar"
	"bytes"
	"fmt"
	"os"
	"time"
)

// The user the image runs as, and its /etc files: a name for id 65532 (the usual "nonroot" of
// distroless images), so that tools that look the user up find one.
const (
	uid    = 65532
	passwd = "root:x:0:0:root:/root:/sbin/nologin\nnonroot:x:65532:65532:nonroot:/home/nonroot:/sbin/nologin\n"
	group  = "root:x:0:\nnonroot:x:65532:\n"
)

// layerTar is the image's one layer, uncompressed: etc/, etc/group, etc/passwd and sidecar-top
// (the binary read from bin), in that order, owned by root, every time the epoch.
func layerTar(bin string, epoch time.Time) ([]byte, error) {
	binary, err := os.ReadFile(bin)
	if err != nil {
		return nil, fmt.Errorf("the binary: %w", err)
	}
	var buf bytes.Buffer
	tw := tar.NewWriter(&buf)
	entries := []struct {
		name string
		mode int64
		data []byte
		dir  bool
	}{
		{name: "etc/", mode: 0o755, dir: true},
		{name: "etc/group", mode: 0o644, data: []byte(group)},
		{name: "etc/passwd", mode: 0o644, data: []byte(passwd)},
		{name: "sidecar-top", mode: 0o755, data: binary},
	}
	for _, e := range entries {
		h := &tar.Header{Name: e.name, Mode: e.mode, Size: int64(len(e.data)), ModTime: epoch,
			Typeflag: tar.TypeReg, Format: tar.FormatPAX}
		if e.dir {
			h.Typeflag = tar.TypeDir
		}
		if err := tw.WriteHeader(h); err != nil {
			return nil, err
		}
		if _, err := tw.Write(e.data); err != nil {
			return nil, err
		}
	}
	if err := tw.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}
