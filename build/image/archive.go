package main

import (
	"archive/tar"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	v1 "github.com/google/go-containerregistry/pkg/v1"
	"github.com/google/go-containerregistry/pkg/v1/empty"
	"github.com/google/go-containerregistry/pkg/v1/mutate"
	"github.com/google/go-containerregistry/pkg/v1/types"
)

// writeArchive writes img as an OCI image layout in a tar at path (through a temporary file
// beside it): oci-layout, index.json naming it ref, and its blobs. The index carries ref both as
// io.containerd.image.name, the name `ctr images import` gives it, and as the standard
// org.opencontainers.image.ref.name (the tag). Entries are sorted, root-owned and stamped with
// epoch. It returns the manifest's digest.
func writeArchive(path string, img v1.Image, ref, arch string, epoch time.Time) (v1.Hash, error) {
	tag := ref[strings.LastIndex(ref, ":")+1:]
	idx := mutate.AppendManifests(mutate.IndexMediaType(empty.Index, types.OCIImageIndex), mutate.IndexAddendum{
		Add: img,
		Descriptor: v1.Descriptor{
			Platform:    &v1.Platform{OS: "linux", Architecture: arch},
			Annotations: map[string]string{"io.containerd.image.name": ref, "org.opencontainers.image.ref.name": tag},
		},
	})
	files, err := layoutFiles(img, idx)
	if err != nil {
		return v1.Hash{}, err
	}
	digest, err := img.Digest()
	if err != nil {
		return v1.Hash{}, err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return v1.Hash{}, err
	}
	tmp := path + ".tmp"
	if err := writeTar(tmp, files, epoch); err != nil {
		os.Remove(tmp)
		return v1.Hash{}, err
	}
	return digest, os.Rename(tmp, path)
}

// layoutFiles are the OCI layout's files by path: the layer, config and manifest blobs, the
// index and the layout marker.
func layoutFiles(img v1.Image, idx v1.ImageIndex) (map[string][]byte, error) {
	files := map[string][]byte{"oci-layout": []byte(`{"imageLayoutVersion":"1.0.0"}`)}
	var err error
	if files["index.json"], err = idx.RawManifest(); err != nil {
		return nil, err
	}
	blob := func(h v1.Hash, b []byte) { files["blobs/"+h.Algorithm+"/"+h.Hex] = b }
	m, err := img.RawManifest()
	if err != nil {
		return nil, err
	}
	h, _ := img.Digest()
	blob(h, m)
	c, err := img.RawConfigFile()
	if err != nil {
		return nil, err
	}
	h, _ = img.ConfigName()
	blob(h, c)
	layers, err := img.Layers()
	if err != nil {
		return nil, err
	}
	for _, l := range layers {
		if err := layerBlob(l, blob); err != nil {
			return nil, err
		}
	}
	return files, nil
}

func layerBlob(l v1.Layer, blob func(v1.Hash, []byte)) error {
	h, err := l.Digest()
	if err != nil {
		return err
	}
	rc, err := l.Compressed()
	if err != nil {
		return err
	}
	defer rc.Close()
	b, err := io.ReadAll(rc)
	if err != nil {
		return fmt.Errorf("layer %s: %w", h, err)
	}
	blob(h, b)
	return nil
}

// writeTar writes files, with their directories, to path in name order.
func writeTar(path string, files map[string][]byte, epoch time.Time) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	defer f.Close()
	tw := tar.NewWriter(f)
	names := []string{"blobs/", "blobs/sha256/"}
	for name := range files {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, name := range names {
		h := &tar.Header{Name: name, Mode: 0o644, Size: int64(len(files[name])), ModTime: epoch,
			Typeflag: tar.TypeReg, Format: tar.FormatPAX}
		if strings.HasSuffix(name, "/") {
			h.Mode, h.Typeflag = 0o755, tar.TypeDir
		}
		if err := tw.WriteHeader(h); err != nil {
			return err
		}
		if _, err := tw.Write(files[name]); err != nil {
			return err
		}
	}
	if err := tw.Close(); err != nil {
		return err
	}
	return f.Close()
}
