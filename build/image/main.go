// Command image builds sidecar-top's container image without a Docker engine, reproducibly, as an
// OCI image-layout archive that `ctr images import` (and any OCI tool) loads: `make image` writes
// bin/sidecar-top-image.tar, named ghcr.io/sidecar-top/sidecar-top:dev.
//
// The image is one layer on an empty base: /sidecar-top (built here with CGO_ENABLED=0,
// -trimpath and the version in its ldflags) and an /etc/passwd and /etc/group naming user
// 65532 (nonroot), which it runs as; the entrypoint is `/sidecar-top agent`. No CA certificates:
// in a pod the agent trusts the API server's CA from its ServiceAccount's files. Every time in
// it (the files' and the config's) is the -epoch given (make passes the last commit's time), so
// two builds of the same tree give the same digest.
//
// Usage: go run . -root REPO -o OUT.tar -epoch SECONDS [-name REF] [-version V] [-arch amd64]
// [-binary FILE] (a prebuilt linux binary instead of building one).
package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"time"
)

func main() {
	if err := run(os.Args[1:], os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, "image:", err)
		os.Exit(1)
	}
}

// options are the command's flags.
type options struct {
	root, out, name, version, arch, binary string
	epoch                                  time.Time
}

func parseFlags(args []string, stderr io.Writer) (options, error) {
	var o options
	fs := flag.NewFlagSet("image", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.StringVar(&o.root, "root", ".", "the sidecar-top repository to build")
	fs.StringVar(&o.out, "o", "bin/sidecar-top-image.tar", "the OCI archive to write")
	fs.StringVar(&o.name, "name", "ghcr.io/sidecar-top/sidecar-top:dev", "the image's name in the archive")
	fs.StringVar(&o.version, "version", "dev", "the version the binary reports")
	fs.StringVar(&o.arch, "arch", runtime.GOARCH, "the GOARCH to build for (linux only)")
	fs.StringVar(&o.binary, "binary", "", "a prebuilt linux sidecar-top to put in the image instead of building one")
	epoch := fs.String("epoch", os.Getenv("SOURCE_DATE_EPOCH"), "every time in the image, in seconds since 1970 (default $SOURCE_DATE_EPOCH)")
	if err := fs.Parse(args); err != nil {
		return o, err
	}
	if fs.NArg() > 0 {
		return o, fmt.Errorf("unexpected argument %q", fs.Arg(0))
	}
	if *epoch == "" {
		return o, fmt.Errorf("no -epoch and no SOURCE_DATE_EPOCH: the image's times must be fixed (make image passes the last commit's time)")
	}
	secs, err := strconv.ParseInt(*epoch, 10, 64)
	if err != nil || secs < 0 {
		return o, fmt.Errorf("-epoch %q: want whole seconds since 1970, such as 1765000000", *epoch)
	}
	o.epoch = time.Unix(secs, 0).UTC()
	return o, nil
}

func run(args []string, stderr io.Writer) error {
	o, err := parseFlags(args, stderr)
	if err != nil {
		return err
	}
	bin := o.binary
	if bin == "" {
		dir, err := os.MkdirTemp("", "sidecar-top-image-")
		if err != nil {
			return err
		}
		defer os.RemoveAll(dir)
		bin = filepath.Join(dir, "sidecar-top")
		if err := goBuild(o.root, bin, o.arch, o.version); err != nil {
			return err
		}
	}
	img, err := buildImage(bin, o.arch, o.version, o.epoch)
	if err != nil {
		return err
	}
	digest, err := writeArchive(o.out, img, o.name, o.arch, o.epoch)
	if err != nil {
		return err
	}
	fmt.Fprintf(stderr, "image: wrote %s: %s@%s\n", o.out, o.name, digest)
	return nil
}
