package main

import (
	"bytes"
	"io"
	"strconv"
	"time"

	v1 "github.com/google/go-containerregistry/pkg/v1"
	"github.com/google/go-containerregistry/pkg/v1/empty"
	"github.com/google/go-containerregistry/pkg/v1/mutate"
	"github.com/google/go-containerregistry/pkg/v1/tarball"
	"github.com/google/go-containerregistry/pkg/v1/types"
)

// buildImage is the OCI image of the binary bin: its one layer (gzip) on an empty base, run as
// 65532:65532 with the entrypoint `/sidecar-top agent`, created at epoch.
func buildImage(bin, arch, version string, epoch time.Time) (v1.Image, error) {
	raw, err := layerTar(bin, epoch)
	if err != nil {
		return nil, err
	}
	layer, err := tarball.LayerFromOpener(func() (io.ReadCloser, error) {
		return io.NopCloser(bytes.NewReader(raw)), nil
	}, tarball.WithMediaType(types.OCILayer), tarball.WithCompressedCaching)
	if err != nil {
		return nil, err
	}
	base := mutate.ConfigMediaType(mutate.MediaType(empty.Image, types.OCIManifestSchema1), types.OCIConfigJSON)
	created := v1.Time{Time: epoch}
	img, err := mutate.Append(base, mutate.Addendum{Layer: layer, MediaType: types.OCILayer,
		History: v1.History{Created: created, CreatedBy: "build/image: sidecar-top " + version}})
	if err != nil {
		return nil, err
	}
	cf, err := img.ConfigFile()
	if err != nil {
		return nil, err
	}
	cf = cf.DeepCopy()
	cf.Architecture, cf.OS, cf.Created = arch, "linux", created
	cf.Config = v1.Config{
		Entrypoint: []string{"/sidecar-top", "agent"},
		User:       strconv.Itoa(uid) + ":" + strconv.Itoa(uid),
		WorkingDir: "/",
		Labels: map[string]string{
			"org.opencontainers.image.title":   "sidecar-top",
			"org.opencontainers.image.version": version,
			"org.opencontainers.image.source":  "https://github.com/sidecar-top/sidecar-top",
		},
	}
	return mutate.ConfigFile(img, cf)
}
