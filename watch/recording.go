package watch

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"time"

	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/kubernetes/scheme"

	"github.com/sidecar-top/sidecar-top/timeline"
)

// Recording format, version 1: JSON Lines. The first line is a Header; every other line is a
// watch event as kubectl prints it with --output-watch-events, plus its local receive time:
//
//	{"time":"2026-12-02T08:00:01.123456789Z","type":"ADDED","object":{"kind":"Pod",...}}
const (
	RecordingKind    = "SidecarTopRecording"
	RecordingVersion = 1
)

// Header is a recording's first line.
type Header struct {
	Kind          string    `json:"kind"`
	Version       int       `json:"version"`
	Tool          string    `json:"tool,omitempty"`
	ServerVersion string    `json:"serverVersion,omitempty"`
	Namespace     string    `json:"namespace"`
	Target        string    `json:"target"`
	StartTime     time.Time `json:"startTime"`
}

type line struct {
	Time   time.Time          `json:"time"`
	Type   timeline.WatchType `json:"type"`
	Object json.RawMessage    `json:"object"`
}

// Recorder writes a recording. Each line goes out in one Write, so a recorder killed at any
// moment leaves a file that replays up to its last whole line.
type Recorder struct{ w io.Writer }

// NewRecorder writes the header and returns a Recorder for the rest.
func NewRecorder(w io.Writer, h Header) (*Recorder, error) {
	h.Kind, h.Version = RecordingKind, RecordingVersion
	r := &Recorder{w}
	return r, r.writeLine(h)
}

// Write appends one item; its object should have been through Sanitize.
func (r *Recorder) Write(it Item) error {
	obj, err := json.Marshal(it.Object)
	if err != nil {
		return fmt.Errorf("encode %T: %w", it.Object, err)
	}
	return r.writeLine(line{Time: it.Time.UTC(), Type: it.Type, Object: obj})
}

func (r *Recorder) writeLine(v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	if _, err := r.w.Write(append(b, '\n')); err != nil {
		return fmt.Errorf("write recording: %w", err)
	}
	return nil
}

// Reader reads a recording line by line. It is a Source. Errors name the line.
type Reader struct {
	r       *bufio.Reader
	name    string
	n       int
	header  *Header
	decoder runtime.Decoder
	// Truncated is set when the file ended in a partial line (a recorder killed mid-write);
	// that line is ignored.
	Truncated bool
	// Skipped counts lines whose object kind this version does not use.
	Skipped int
}

// NewReader reads the optional header at once; name is used in errors.
func NewReader(r io.Reader, name string) (*Reader, error) {
	rd := &Reader{r: bufio.NewReaderSize(r, 1<<16), name: name, decoder: scheme.Codecs.UniversalDeserializer()}
	b, err := rd.peekLine()
	if err != nil && err != io.EOF {
		return nil, err
	}
	var h Header
	if json.Unmarshal(b, &h) == nil && h.Kind == RecordingKind {
		if h.Version > RecordingVersion {
			return nil, fmt.Errorf("%s: recording version %d is newer than this sidecar-top reads (%d): upgrade sidecar-top", name, h.Version, RecordingVersion)
		}
		if h.Version < 1 {
			return nil, fmt.Errorf("%s:1: recording header has no valid version", name)
		}
		rd.header = &h
		_, _ = rd.readLine()
	} else if len(bytes.TrimSpace(b)) == 0 && err == io.EOF {
		return nil, fmt.Errorf("%s: empty recording", name)
	}
	return rd, nil
}

// Header is the recording's header, or nil for a file without one.
func (rd *Reader) Header() *Header { return rd.header }

// Next returns the next item, io.EOF at the end.
func (rd *Reader) Next(ctx context.Context) (Item, error) {
	for {
		if err := ctx.Err(); err != nil {
			return Item{}, err
		}
		b, err := rd.readLine()
		if err == io.EOF {
			return Item{}, io.EOF
		}
		if err != nil {
			return Item{}, err
		}
		if len(bytes.TrimSpace(b)) == 0 {
			continue
		}
		it, ok, err := rd.decode(b)
		if err != nil {
			return Item{}, fmt.Errorf("%s:%d: %w", rd.name, rd.n, err)
		}
		if ok {
			return it, nil
		}
		rd.Skipped++
	}
}

func (rd *Reader) decode(b []byte) (Item, bool, error) {
	var l line
	if err := json.Unmarshal(b, &l); err != nil {
		return Item{}, false, fmt.Errorf("malformed line: %w", err)
	}
	switch {
	case l.Time.IsZero():
		return Item{}, false, errors.New("malformed line: no \"time\"")
	case l.Type != timeline.Added && l.Type != timeline.Modified && l.Type != timeline.Deleted:
		return Item{}, false, fmt.Errorf("malformed line: \"type\" is %q, not ADDED, MODIFIED or DELETED", l.Type)
	case len(l.Object) == 0 || string(l.Object) == "null":
		return Item{}, false, errors.New("malformed line: no \"object\"")
	}
	obj, _, err := rd.decoder.Decode(l.Object, nil, nil)
	if err != nil {
		if runtime.IsNotRegisteredError(err) {
			return Item{}, false, nil
		}
		return Item{}, false, fmt.Errorf("malformed object: %w", err)
	}
	if _, known := Observe(Item{Object: obj}); !known {
		return Item{}, false, nil
	}
	return Item{Time: l.Time, Type: l.Type, Object: obj}, true, nil
}

// readLine returns the next whole line. A last line without its newline is a partial write:
// it is dropped, and Truncated set, unless it parses as a whole.
func (rd *Reader) readLine() ([]byte, error) {
	b, err := rd.r.ReadBytes('\n')
	if err == io.EOF {
		if len(bytes.TrimSpace(b)) == 0 {
			return nil, io.EOF
		}
		if !json.Valid(b) {
			rd.Truncated = true
			return nil, io.EOF
		}
		err = nil
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w", rd.name, err)
	}
	rd.n++
	return b, nil
}

func (rd *Reader) peekLine() ([]byte, error) {
	for size := 4096; ; size *= 2 {
		b, err := rd.r.Peek(size)
		if i := bytes.IndexByte(b, '\n'); i >= 0 {
			return b[:i], nil
		}
		if err != nil {
			return b, err
		}
		if size >= 1<<16 {
			return b, nil
		}
	}
}

// ReadAll reads every item of a recording.
func ReadAll(r io.Reader, name string) (*Header, []Item, *Reader, error) {
	rd, err := NewReader(r, name)
	if err != nil {
		return nil, nil, nil, err
	}
	var items []Item
	for {
		it, err := rd.Next(context.Background())
		if err == io.EOF {
			return rd.header, items, rd, nil
		}
		if err != nil {
			return nil, nil, nil, err
		}
		items = append(items, it)
	}
}
