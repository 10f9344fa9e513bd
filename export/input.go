package export

import (
	"context"
	"fmt"
	"io"
	"strings"

	corev1 "k8s.io/api/core/v1"

	"github.com/sidecar-top/sidecar-top/play"
	"github.com/sidecar-top/sidecar-top/watch"
)

// FromRecording plays a recording to its end, as replay does, and returns its final timeline
// with what the header says about it and the container runtimes its pods' container IDs name.
// truncated reports a last line cut short (the recorder stopped mid-write): the lines before it
// are used.
func FromRecording(ctx context.Context, r io.Reader, name string) (in Input, truncated bool, err error) {
	rd, err := watch.NewReader(r, name)
	if err != nil {
		return Input{}, false, err
	}
	defer rd.Close()
	rd.Slim() // its items are translated and their container IDs read (runtimeSource), which Slim keeps
	in.About.Name = name
	if h := rd.Header(); h != nil {
		in.About.Namespace, in.About.Target = h.Namespace, h.Target
		in.About.ServerVersion, in.About.RecordedBy, in.About.Started = h.ServerVersion, h.Tool, h.StartTime
	}
	src := &runtimeSource{src: rd, runtimes: map[string]string{}}
	res, err := play.RunFile(ctx, src, 0, play.Options{}, nil)
	if err != nil {
		return Input{}, false, err
	}
	in.Snapshot, in.About.Runtimes = res.Final, src.runtimes
	if in.Empty() {
		return in, rd.Truncated, fmt.Errorf("%s: no Pod or Job in the recording", name)
	}
	return in, rd.Truncated, nil
}

// runtimeSource passes a source's items on and notes, per pod, the container runtime that the
// scheme of its containers' IDs names ("containerd://0123…" is containerd).
type runtimeSource struct {
	src      watch.Source
	runtimes map[string]string // by pod UID
}

func (s *runtimeSource) Next(ctx context.Context) (watch.Item, error) {
	it, err := s.src.Next(ctx)
	if err != nil {
		return it, err
	}
	if p, ok := it.Object.(*corev1.Pod); ok && s.runtimes[string(p.UID)] == "" {
		for _, set := range [][]corev1.ContainerStatus{p.Status.InitContainerStatuses, p.Status.ContainerStatuses} {
			for _, cs := range set {
				if scheme, _, ok := strings.Cut(cs.ContainerID, "://"); ok && scheme != "" {
					s.runtimes[string(p.UID)] = scheme
				}
			}
		}
	}
	return it, nil
}
