package play

import (
	"context"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/sidecar-top/sidecar-top/timeline"
)

// script is a Source that delivers its reads in order, all at once, then ends.
type script []error // nil: a pod item

func (s *script) Next(ctx context.Context) (Input, error) {
	if len(*s) == 0 {
		return Input{}, io.EOF
	}
	err := (*s)[0]
	*s = (*s)[1:]
	if err != nil {
		return Input{}, err
	}
	return podInput(time.Now(), string(rune('a'+len(*s)))), nil
}

func (s *script) Observe(in Input) (timeline.Observation, bool) { return observing{}.Observe(in) }

// TestRunLiveWarnings: a warning that comes while items flow, faster than frames, is on a frame
// all the same (joined with the others that came before that frame); none is lost.
func TestRunLiveWarnings(t *testing.T) {
	warn := func(s string) error { return watchErr{s} }
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
