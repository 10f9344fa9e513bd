package play

import (
	"time"

	"github.com/sidecar-top/sidecar-top/timeline"
)

// podInput is an input of the pod web received at at, in resource version rv.
func podInput(at time.Time, rv string) Input {
	return Input{Time: at, Type: timeline.Modified, Item: &timeline.PodObservation{
		Namespace: "ns", Name: "web", UID: "uid-web", ResourceVersion: rv, Created: t0}}
}

// observing is the Observe of the tests' sources: their Items are pod observations.
type observing struct{}

func (observing) Observe(in Input) (timeline.Observation, bool) {
	p, ok := in.Item.(*timeline.PodObservation)
	if !ok {
		return timeline.Observation{}, false
	}
	return timeline.Observation{Received: in.Time, Type: in.Type, Pod: p}, true
}

// watchErr is an error a watch retries on its own.
type watchErr struct{ what string }

func (e watchErr) Error() string   { return "watching logs: " + e.what }
func (e watchErr) Transient() bool { return true }

// staleAfter is when the tests' silent source says it is stale, as a watch does.
const staleAfter = 5 * time.Second
