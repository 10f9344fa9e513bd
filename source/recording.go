package source

import (
	"context"
	"io"
	"strings"

	corev1 "k8s.io/api/core/v1"

	"github.com/sidecar-top/sidecar-top/play"
	"github.com/sidecar-top/sidecar-top/recfile"
	"github.com/sidecar-top/sidecar-top/timeline"
)

// Recording is a recording played to its end, as replay plays it.
type Recording struct {
	Header *recfile.Header // nil for a recording without one
	Final  timeline.Snapshot
	// Runtimes are the container runtimes by pod UID that the scheme of the pods' container IDs
	// names ("containerd://0123…" is containerd).
	Runtimes map[string]string
	// Truncated says the last line was cut short (the recorder stopped mid-write): the lines
	// before it were played.
	Truncated bool
}

// Play reads the recording in r (named name in errors) and plays it to its end.
func Play(ctx context.Context, r io.Reader, name string) (Recording, error) {
	// Its items are translated and their container IDs read (runtimes), which Slim keeps.
	rd, err := recfile.NewReader(r, name, recfile.Options{Objects: recfile.Slim})
	if err != nil {
		return Recording{}, err
	}
	defer rd.Close()
	src := &runtimes{Records: rd, by: map[string]string{}}
	res, err := play.RunFile(ctx, OfRecording(src), 0, play.Options{}, nil)
	if err != nil {
		return Recording{}, err
	}
	return Recording{Header: rd.Header(), Final: res.Final, Runtimes: src.by, Truncated: rd.Truncated}, nil
}

// runtimes passes a recording's records on and notes, per pod, the container runtime that the
// scheme of its containers' IDs names.
type runtimes struct {
	Records
	by map[string]string // by pod UID
}

func (s *runtimes) Next(ctx context.Context) (recfile.Record, error) {
	r, err := s.Records.Next(ctx)
	if err != nil {
		return r, err
	}
	if p, ok := r.Object.(*corev1.Pod); ok && s.by[string(p.UID)] == "" {
		for _, set := range [][]corev1.ContainerStatus{p.Status.InitContainerStatuses, p.Status.ContainerStatuses} {
			for _, cs := range set {
				if scheme, _, ok := strings.Cut(cs.ContainerID, "://"); ok && scheme != "" {
					s.by[string(p.UID)] = scheme
				}
			}
		}
	}
	return r, nil
}
