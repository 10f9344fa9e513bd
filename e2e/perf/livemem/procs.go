//go:build linux

package main

import "github.com/sidecar-top/sidecar-top/e2e/perf/perfproc"

// proc is one watcher under measurement.
type proc struct {
	*perfproc.Proc
	label string // what it watches, as the table shows it
	bin   string // which binary: a -bin name, or kubectl
}

type sample = perfproc.Sample

// start runs argv with its output in outPath.
func start(label, bin, outPath string, argv ...string) (*proc, error) {
	p, err := perfproc.Start(label, outPath, nil, argv...)
	if err != nil {
		return nil, err
	}
	return &proc{Proc: p, label: label, bin: bin}, nil
}

func (p *proc) measure() (sample, error) { return p.Measure() }
func (p *proc) stop()                    { p.Stop() }

func evict(path string) error { return perfproc.Evict(path) }
