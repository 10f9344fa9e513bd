package play

import (
	"context"
	"errors"
	"io"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/sidecar-top/sidecar-top/timeline"
	"github.com/sidecar-top/sidecar-top/watch"
)

// script is a Source that delivers its reads in order, all at once, then ends.
type script []error // nil: a pod item

func (s *script) Next(ctx context.Context) (watch.Item, error) {
	if len(*s) == 0 {
		return watch.Item{}, io.EOF
	}
	err := (*s)[0]
	*s = (*s)[1:]
	if err != nil {
		return watch.Item{}, err
	}
	pod := &corev1.Pod{TypeMeta: metav1.TypeMeta{Kind: "Pod", APIVersion: "v1"}, ObjectMeta: metav1.ObjectMeta{
		Namespace: "ns", Name: "web", UID: "uid-web", ResourceVersion: string(rune('a' + len(*s))),
		CreationTimestamp: metav1.NewTime(t0)}}
	return watch.Item{Time: time.Now(), Type: timeline.Modified, Object: pod}, nil
}

// TestRunLiveWarnings: a warning that comes while items flow, faster than frames, is on a frame
// all the same (joined with the others that came before that frame); none is lost.
func TestRunLiveWarnings(t *testing.T) {
	warn := func(s string) error { return &watch.WatchError{Resource: "logs", Err: errors.New(s)} }
	src := script{nil, warn("one"), nil, nil, warn("two"), warn("three"), nil, nil, nil, warn("four")}
	for range 50 {
		src = append(src, nil)
	}
	var seen []string
	_, err := RunLive(context.Background(), &src, Options{Frame: time.Hour}, func(f Frame) {
		if f.WatchErr != nil {
			seen = append(seen, f.WatchErr.Error())
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	all := strings.Join(seen, " | ")
	for _, w := range []string{"one", "two", "three", "four"} {
		if !strings.Contains(all, "watching logs: "+w) {
			t.Errorf("warning %q not on any frame: %q", w, seen)
		}
	}
}
