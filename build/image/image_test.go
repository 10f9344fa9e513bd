package main

import (
	"archive/tar"
	"bytes"
	"crypto/sha256"
	"errors"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	v1 "github.com/google/go-containerregistry/pkg/v1"
	"github.com/google/go-containerregistry/pkg/v1/layout"
)

var epoch = time.Unix(1765000000, 0).UTC()

// fakeBinary is a file standing in for sidecar-top: the image's assembly does not look inside.
func fakeBinary(t *testing.T) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "sidecar-top")
	if err := os.WriteFile(p, bytes.Repeat([]byte("sidecar-top\x00"), 100000), 0o755); err != nil {
		t.Fatal(err)
	}
	return p
}

func build(t *testing.T, bin string, at time.Time) (string, v1.Hash) {
	t.Helper()
	img, err := buildImage(bin, "amd64", "v1.2.3", at)
	if err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "image.tar")
	digest, err := writeArchive(out, img, "ghcr.io/sidecar-top/sidecar-top:dev", "amd64", at)
	if err != nil {
		t.Fatal(err)
	}
	return out, digest
}

func fileSum(t *testing.T, path string) [32]byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return sha256.Sum256(b)
}

// TestReproducible: the same binary and epoch give the same digest and the same archive, byte
// for byte; another epoch gives another digest (the times are in it, so the epoch is what fixes
// them).
func TestReproducible(t *testing.T) {
	bin := fakeBinary(t)
	a, da := build(t, bin, epoch)
	b, db := build(t, bin, epoch)
	if da != db {
		t.Errorf("two builds: digests %s and %s", da, db)
	}
	if fileSum(t, a) != fileSum(t, b) {
		t.Errorf("two builds: the archives differ")
	}
	_, dc := build(t, bin, epoch.Add(time.Second))
	if dc == da {
		t.Errorf("a build one second later has the same digest %s: the epoch is not in the image", dc)
	}
}

// TestArchive reads the archive back as an OCI layout, as an importer does: the index names the
// image, the config runs /sidecar-top agent as 65532:65532 at the epoch, and the layer holds the
// binary (executable) and the passwd entry, root-owned, stamped with the epoch.
func TestArchive(t *testing.T) {
	out, digest := build(t, fakeBinary(t), epoch)
	dir := untar(t, out)
	idx, err := layout.ImageIndexFromPath(dir)
	if err != nil {
		t.Fatal(err)
	}
	im, err := idx.IndexManifest()
	if err != nil {
		t.Fatal(err)
	}
	if len(im.Manifests) != 1 {
		t.Fatalf("index has %d manifests, want 1", len(im.Manifests))
	}
	d := im.Manifests[0]
	if d.Digest != digest || d.Annotations["io.containerd.image.name"] != "ghcr.io/sidecar-top/sidecar-top:dev" ||
		d.Annotations["org.opencontainers.image.ref.name"] != "dev" || d.Platform == nil || d.Platform.Architecture != "amd64" {
		t.Errorf("index entry: %+v (platform %+v), want digest %s named ghcr.io/sidecar-top/sidecar-top:dev", d, d.Platform, digest)
	}
	img, err := idx.Image(d.Digest)
	if err != nil {
		t.Fatal(err)
	}
	cf, err := img.ConfigFile()
	if err != nil {
		t.Fatal(err)
	}
	c := cf.Config
	if c.User != "65532:65532" || !slices.Equal(c.Entrypoint, []string{"/sidecar-top", "agent"}) || len(c.Cmd) != 0 {
		t.Errorf("config: user %q entrypoint %q cmd %q, want 65532:65532 [/sidecar-top agent] []", c.User, c.Entrypoint, c.Cmd)
	}
	if !cf.Created.Equal(epoch) || cf.OS != "linux" || cf.Architecture != "amd64" || c.Labels["org.opencontainers.image.version"] != "v1.2.3" {
		t.Errorf("config: created %s %s/%s labels %v", cf.Created, cf.OS, cf.Architecture, c.Labels)
	}
	checkLayer(t, img)
}

func checkLayer(t *testing.T, img v1.Image) {
	t.Helper()
	layers, err := img.Layers()
	if err != nil || len(layers) != 1 {
		t.Fatalf("layers: %d, %v; want 1", len(layers), err)
	}
	rc, err := layers[0].Uncompressed()
	if err != nil {
		t.Fatal(err)
	}
	defer rc.Close()
	tr := tar.NewReader(rc)
	var names []string
	for {
		h, err := tr.Next()
		if errors.Is(err, io.EOF) {
			break
		} else if err != nil {
			t.Fatal(err)
		}
		names = append(names, h.Name)
		if !h.ModTime.Equal(epoch) || h.Uid != 0 || h.Gid != 0 {
			t.Errorf("%s: mtime %s uid %d gid %d, want %s 0 0", h.Name, h.ModTime, h.Uid, h.Gid, epoch)
		}
		b, _ := io.ReadAll(tr)
		switch h.Name {
		case "sidecar-top":
			if h.Mode&0o111 == 0 || !bytes.HasPrefix(b, []byte("sidecar-top\x00")) {
				t.Errorf("sidecar-top: mode %o, %d bytes", h.Mode, len(b))
			}
		case "etc/passwd":
			if !strings.Contains(string(b), ":x:65532:65532:") {
				t.Errorf("etc/passwd has no user 65532:\n%s", b)
			}
		}
	}
	if want := []string{"etc/", "etc/group", "etc/passwd", "sidecar-top"}; !slices.Equal(names, want) {
		t.Errorf("layer files %q, want %q", names, want)
	}
}

// untar extracts the archive into a new directory (flat names only: the layout's).
func untar(t *testing.T, path string) string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	dir := t.TempDir()
	tr := tar.NewReader(f)
	for {
		h, err := tr.Next()
		if errors.Is(err, io.EOF) {
			return dir
		} else if err != nil {
			t.Fatal(err)
		}
		p := filepath.Join(dir, filepath.FromSlash(h.Name))
		if h.Typeflag == tar.TypeDir {
			if err := os.MkdirAll(p, 0o755); err != nil {
				t.Fatal(err)
			}
			continue
		}
		b, _ := io.ReadAll(tr)
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
