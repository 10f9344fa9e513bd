// Package source makes what packages watch and recfile read (a live watch, a recording, a
// test's items) into what package play runs on (play.Source): each item recorded on the way
// when a recorder is given, a watch note said as its text, a watch's retried errors marked
// transient, and each object translated into an observation on the goroutine that applies it,
// into memory reused from one to the next (watch.Translator), or as the recording reader
// translated it.
package source

import (
	"context"
	"time"

	"k8s.io/apimachinery/pkg/runtime"

	"github.com/sidecar-top/sidecar-top/play"
	"github.com/sidecar-top/sidecar-top/recfile"
	"github.com/sidecar-top/sidecar-top/timeline"
	"github.com/sidecar-top/sidecar-top/watch"
)

// Feed is a play.Source reading a watch.Source or a recording's records.
type Feed struct {
	src     watch.Source
	records Records // instead of src: a recording's, translated as they were read
	rec     *recfile.Recorder
	tr      watch.Translator // used on the goroutine that applies what Next read
}

// Records are what a recording's reader hands out (recfile.Reader): each item with the
// observation the reader made of it as it decoded it.
type Records interface {
	Next(ctx context.Context) (recfile.Record, error)
}

// Of is a Feed of src.
func Of(src watch.Source) *Feed { return Recorded(src, nil) }

// Recorded is a Feed of src that writes every item it reads to rec (nil: none), before it is
// applied: what a run saw is what its recording holds.
func Recorded(src watch.Source, rec *recfile.Recorder) *Feed { return &Feed{src: src, rec: rec} }

// OfRecording is a Feed of a recording's records, each applied as its reader translated it.
func OfRecording(src Records) *Feed { return &Feed{records: src} }

// Next reads the next item.
func (f *Feed) Next(ctx context.Context) (play.Input, error) {
	r, err := f.read(ctx)
	if err != nil {
		return play.Input{}, err
	}
	it := r.Item
	if n, ok := it.Object.(*watch.Note); ok && n.Reason == watch.Listed {
		return play.Input{Time: it.Time, Listed: true}, nil // a mark, not what the API sent: not recorded
	}
	if f.rec != nil {
		if err := f.rec.Write(it); err != nil {
			return play.Input{}, err
		}
	}
	in := play.Input{Time: it.Time, Type: it.Type, Item: it.Object}
	if n, isNote := it.Object.(*watch.Note); isNote {
		in.Item, in.Note = nil, n.Text()
	} else if f.records != nil {
		in.Translated, in.IsObs, in.Obs = true, r.IsObs, r.Obs // carried with the input: Next may run ahead
	}
	return in, nil
}

// read reads the next record, or the next item of src as one yet to be translated.
func (f *Feed) read(ctx context.Context) (recfile.Record, error) {
	if f.records != nil {
		return f.records.Next(ctx)
	}
	it, err := f.src.Next(ctx)
	return recfile.Record{Item: it}, err
}

// Observe translates an input Next returned: the observation its source made as it read it, or
// one made now into the translator's memory.
func (f *Feed) Observe(in play.Input) (timeline.Observation, bool) {
	if in.Translated {
		return in.Obs, in.IsObs
	}
	obj, ok := in.Item.(runtime.Object)
	if !ok {
		return timeline.Observation{}, false
	}
	return f.tr.Observe(watch.Item{Time: in.Time, Type: in.Type, Object: obj})
}

// silent is a source that knows how long its server has not answered (watch.Live).
type silent interface{ Silent() time.Duration }

// Stale is how long the watch's server has not answered, once that is watch.StaleAfter or more;
// zero otherwise, or when the source cannot tell.
func (f *Feed) Stale() time.Duration {
	if s, ok := f.src.(silent); ok {
		if d := s.Silent(); d >= watch.StaleAfter {
			return d
		}
	}
	return 0
}
