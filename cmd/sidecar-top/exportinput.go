package main

import (
	"context"
	"fmt"
	"io"

	"github.com/sidecar-top/sidecar-top/export"
	"github.com/sidecar-top/sidecar-top/source"
)

// exportInput plays a recording to its end, as replay does, and returns its final timeline with
// what the header says about it and the container runtimes its pods' container IDs name.
// truncated reports a last line cut short (the recorder stopped mid-write): the lines before it
// are used.
func exportInput(ctx context.Context, r io.Reader, name string) (in export.Input, truncated bool, err error) {
	rec, err := source.Play(ctx, r, name)
	if err != nil {
		return export.Input{}, false, err
	}
	in = export.Input{Snapshot: rec.Final, About: export.About{Name: name, Runtimes: rec.Runtimes}}
	if h := rec.Header; h != nil {
		in.About.Namespace, in.About.Target = h.Namespace, h.Target
		in.About.ServerVersion, in.About.RecordedBy, in.About.Started = h.ServerVersion, h.Tool, h.StartTime
	}
	if in.Empty() {
		return in, rec.Truncated, fmt.Errorf("%s: no Pod or Job in the recording", name)
	}
	return in, rec.Truncated, nil
}
