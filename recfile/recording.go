package recfile

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"runtime"
	"strconv"
	"sync/atomic"
	"time"

	jsonv2 "github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"

	"github.com/sidecar-top/sidecar-top/internal/jsonsafe"
	"github.com/sidecar-top/sidecar-top/timeline"
	"github.com/sidecar-top/sidecar-top/watch"
)

// Recording format, version 1: JSON Lines. The first line is a Header; every other line is a
// watch event as kubectl prints it with --output-watch-events, plus its local receive time:
//
//	{"time":"2026-12-02T08:00:01.123456789Z","type":"ADDED","object":{"kind":"Pod",...}}
//
// Objects of kind ContainerLog and KubeletLog (apiVersion sidecar-top.dev/v1; see watch/logitem.go)
// carry what sidecar-top read from the containers' logs and the kubelet's.
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
	// Logs says the recording has the container logs' items (stamps and lengths of lines);
	// LogText that they keep every line's text, not only that of lines that matched one of
	// Marks (the --mark rules, as given). NodeLogs says it has the kubelet's lines.
	Logs     bool     `json:"logs,omitempty"`
	LogText  bool     `json:"logText,omitempty"`
	Marks    []string `json:"marks,omitempty"`
	NodeLogs bool     `json:"nodeLogs,omitempty"`
	// Redacted names the fields removed from every object, wherever they were (Redacted, as
	// Sanitize removes them).
	Redacted []string `json:"redacted,omitempty"`
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
func (r *Recorder) Write(it watch.Item) error {
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
	// What a terminal could obey is spelled as JSON escapes: -o - may write to one.
	if _, err := r.w.Write(append(jsonsafe.Escape(b), '\n')); err != nil {
		return fmt.Errorf("write recording: %w", err)
	}
	return nil
}

// Reader reads a recording as a stream: it is a Source. Each line is decoded once, straight
// into its typed object, and translated by Observe; when GOMAXPROCS allows, lines are decoded by
// worker goroutines, in order, with at most a few batches of about 256 KB in flight, so memory
// does not grow with the file. Errors name the file and line ("rec.jsonl:7: ...").
type Reader struct {
	name      string
	lines     *lineReader
	header    *Header
	first     *batch // line 1 when it is not the header, or nothing
	workers   int
	slim      bool // decode Pods and Events as Slim keeps them
	transient bool // and into one object per worker, handed out as observations only
	reuse     bool // and the observations into memory of their batch (Reuse)
	pipe      *pipeline
	dec       *lineDecoder // for the batches decoded here, with one worker
	pending   *batch       // taken from the pipeline, maybe still being decoded
	cur       *batch       // decoded, being handed out from pos
	pos       int
	err       error        // io.EOF, the first error, or errClosed: every later call returns it
	closeZ    func()       // ends the decompressor of a compressed recording
	zCut      *atomic.Bool // the compressed stream ended before its end

	// Truncated is set when the file ended in a partial line (a recorder killed mid-write);
	// that line is ignored. It is known once Next has returned io.EOF.
	Truncated bool
	// Skipped counts lines whose object kind this version does not use.
	Skipped int
	// Notes are the notes NextObservation passed, in order (Next returns them as items).
	Notes []*watch.Note
}

var errClosed = errors.New("recording reader is closed")

// errTransient is Next's error on a transient reader, whose items hold no objects to hand out.
var errTransient = errors.New("recording reader is transient: its items are read with NextObserved")

var bom = []byte("\xef\xbb\xbf")

// NewReader reads the optional header at once; name is used in errors. A UTF-8 byte order mark
// before the first line is ignored.
func NewReader(r io.Reader, name string) (*Reader, error) {
	return newReader(r, name, runtime.GOMAXPROCS(0), MaxLineBytes)
}

func newReader(r io.Reader, name string, workers, maxLine int) (*Reader, error) {
	br, closeZ, zCut, err := decompressed(bufio.NewReaderSize(r, batchBytes), name)
	if err != nil {
		return nil, err
	}
	if p, _ := br.Peek(len(bom)); bytes.Equal(p, bom) {
		_, _ = br.Discard(len(bom))
	}
	rd := &Reader{name: name, lines: &lineReader{r: br, name: name, max: maxLine}, workers: workers, closeZ: closeZ, zCut: zCut}
	first := newBatch()
	b, whole, err := rd.lines.next(first.buf)
	switch {
	case err == io.EOF || err == nil && !whole && isBlank(b):
		closeZ()
		return nil, fmt.Errorf("%s: empty recording", name)
	case err != nil:
		closeZ()
		return nil, err
	}
	h, err := parseHeader(b)
	if err != nil {
		closeZ()
		return nil, fmt.Errorf("%s:1: %w", name, err)
	}
	if h != nil {
		rd.header = h
		first.buf = b[:0]
	} else {
		// Line 1 is an item: it goes first into the first batch, as fill would have read it.
		first.buf = b
		switch {
		case !whole && !isBlank(b) && !json.Valid(b):
			if err := crOnly(name, 1, b); err != nil {
				return nil, err
			}
			first.buf, first.cut = b[:0], true
		case !isBlank(b):
			first.lines = append(first.lines, span{0, len(b), 1})
		}
	}
	// NewReader reads no further than line 1: more may not have been written yet.
	first.end = !whole
	rd.first = first
	return rd, nil
}

// parseHeader reads line 1 as a header, or returns nil if it is not one (a recording without a
// header starts with its first item).
func parseHeader(b []byte) (*Header, error) {
	var probe struct {
		Kind string `json:"kind"`
	}
	if jsonv2.Unmarshal(b, &probe, decodeOptions) != nil || probe.Kind != RecordingKind {
		return nil, nil
	}
	var w struct {
		Kind          string         `json:"kind"`
		Version       jsontext.Value `json:"version"`
		Tool          string         `json:"tool"`
		ServerVersion string         `json:"serverVersion"`
		Namespace     string         `json:"namespace"`
		Target        string         `json:"target"`
		StartTime     time.Time      `json:"startTime"`
		Logs          bool           `json:"logs"`
		LogText       bool           `json:"logText"`
		Marks         []string       `json:"marks"`
		NodeLogs      bool           `json:"nodeLogs"`
		Redacted      []string       `json:"redacted"`
	}
	if err := jsonv2.Unmarshal(b, &w, decodeOptions); err != nil {
		return nil, fmt.Errorf("malformed recording header: %w", err)
	}
	v, err := headerVersion(w.Version)
	if err != nil {
		return nil, err
	}
	return &Header{Kind: w.Kind, Version: v, Tool: w.Tool, ServerVersion: w.ServerVersion,
		Namespace: w.Namespace, Target: w.Target, StartTime: w.StartTime,
		Logs: w.Logs, LogText: w.LogText, Marks: w.Marks, NodeLogs: w.NodeLogs, Redacted: w.Redacted}, nil
}

// headerVersion reads the header's "version": a whole number from 1 to RecordingVersion.
func headerVersion(v jsontext.Value) (int, error) {
	n, err := strconv.Atoi(string(v))
	switch {
	case v.Kind() != '0' || err != nil || n < 1:
		what := "missing"
		if len(v) > 0 {
			what = describe(v)
		}
		return 0, fmt.Errorf("recording header has no valid version: \"version\" is %s, want a whole number such as %d", what, RecordingVersion)
	case n > RecordingVersion:
		return 0, fmt.Errorf("recording version %d is newer than this sidecar-top reads (%d): upgrade sidecar-top", n, RecordingVersion)
	}
	return n, nil
}

// Slim has the reader decode each Pod and core/v1 Event into what Slim keeps of it, the members
// translation reads, and skip the rest of the object unread but for its syntax: for a reader
// whose items are only translated (replay), not written again or looked into. It must be called
// before the first Next.
func (rd *Reader) Slim() { rd.slim = true }

// Transient makes the reader slim (Slim) and has each decoding worker decode every Pod and core/v1
// Event into one object of its own, used again for the next line once translated: the items
// NextObserved hands out then hold no Pod or Event (Object is nil), only their observations, and
// Next refuses to hand out items at all. For a reader whose items are only translated (replay,
// check): a new object for every line was a third of what reading a recording allocated. It
// must be called before the first Next.
func (rd *Reader) Transient() { rd.slim, rd.transient = true, true }

func (rd *Reader) newDecoder() *lineDecoder {
	if rd.slim {
		d := newSlimLineDecoder(rd.transient)
		d.reuse = rd.reuse
		return d
	}
	return newLineDecoder()
}

// Progress has f told, on the goroutine that reads the recording, how many bytes the lines read
// so far hold, after each batch of them is read: what memory sized by the recording should follow
// (replay's heap limit), rather than the file's size, which a sparse file does not hold, nor a
// file whose line 22 is refused. A line refused is not counted. It must be called before the
// first Next.
func (rd *Reader) Progress(f func(kept int64)) { rd.lines.progress = f }

// Header is the recording's header, or nil for a file without one.
func (rd *Reader) Header() *Header { return rd.header }

// Next returns the next item, io.EOF at the end.
func (rd *Reader) Next(ctx context.Context) (watch.Item, error) {
	if rd.transient {
		return watch.Item{}, errTransient
	}
	d, err := rd.next(ctx)
	if err != nil {
		return watch.Item{}, err
	}
	return d.item, nil
}

// NextObservation returns the next item's observation, translated by Observe as it was decoded
// (on a worker goroutine): what replay needs, without the objects. It returns io.EOF at the end.
// Notes are not observations: it passes them, keeping them in Notes. Next and NextObservation
// may be mixed; each consumes one item.
func (rd *Reader) NextObservation(ctx context.Context) (timeline.Observation, error) {
	for {
		d, err := rd.next(ctx)
		if err != nil {
			return timeline.Observation{}, err
		}
		if n, ok := d.item.Object.(*watch.Note); ok {
			rd.Notes = append(rd.Notes, n)
			continue
		}
		return d.obs, nil
	}
}

// NextObserved returns the next item with its observation, translated as it was decoded; ok is
// false for an item that is not one (a Note). It implements ObservedSource. On a transient reader
// (Transient) the item of a Pod or a core/v1 Event holds no object.
func (rd *Reader) NextObserved(ctx context.Context) (it watch.Item, o timeline.Observation, ok bool, err error) {
	d, err := rd.next(ctx)
	if err != nil {
		return watch.Item{}, timeline.Observation{}, false, err
	}
	return d.item, d.obs, d.isObs, nil
}

// Close stops the reader's goroutines. It is needed only when the reader is dropped before Next
// returned io.EOF or an error; after that, it does nothing. It does not close the input.
func (rd *Reader) Close() error {
	if rd.err == nil {
		rd.finish(errClosed)
	}
	return nil
}

func (rd *Reader) next(ctx context.Context) (decoded, error) {
	if err := ctx.Err(); err != nil {
		return decoded{}, err
	}
	for rd.err == nil {
		if b := rd.cur; b != nil && rd.pos < len(b.out) {
			d := b.out[rd.pos]
			rd.pos++
			if d.skipped {
				rd.Skipped++
				continue
			}
			return d, nil
		}
		if b := rd.cur; b != nil {
			rd.cur = nil
			switch {
			case b.badLine != nil:
				rd.finish(b.badLine)
			case b.readErr != nil:
				rd.finish(b.readErr)
			case b.end:
				rd.Truncated = b.cut || rd.zCut.Load()
				rd.finish(io.EOF)
			}
			b.release()
			continue
		}
		b, err := rd.nextBatch(ctx)
		if err != nil {
			return decoded{}, err
		}
		rd.cur, rd.pos = b, 0
	}
	return decoded{}, rd.err
}

// nextBatch returns the next decoded batch: read and decoded here when there is one worker,
// else from the pipeline, started at the first call.
func (rd *Reader) nextBatch(ctx context.Context) (*batch, error) {
	if rd.workers <= 1 {
		b := rd.first
		if b == nil {
			b = newBatch()
			rd.lines.fill(b)
		}
		rd.first = nil
		if rd.dec == nil {
			rd.dec = rd.newDecoder()
		}
		b.decode(rd.name, rd.dec)
		return b, nil
	}
	if rd.pipe == nil {
		rd.pipe = startPipeline(rd.lines, rd.first, rd.workers, rd.name, rd.newDecoder, rd.closeZ)
		rd.closeZ = nil // the pipeline's reader closes it when it stops reading
		rd.first = nil
	}
	if rd.pending == nil {
		select {
		case rd.pending = <-rd.pipe.order:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
	select {
	case <-rd.pending.done:
		b := rd.pending
		rd.pending = nil
		return b, nil
	case <-ctx.Done():
		return nil, ctx.Err() // the batch is waited for at the next call
	}
}

// finish ends reading with err: every later call returns it. A pending batch may still be in a
// worker's hands; it is left to the garbage collector.
func (rd *Reader) finish(err error) {
	rd.err, rd.pending = err, nil
	if rd.pipe != nil {
		rd.pipe.close()
	}
	if rd.closeZ != nil {
		rd.closeZ() // read here, not by a pipeline: nothing reads the input any more
		rd.closeZ = nil
	}
	for _, b := range []*batch{rd.cur, rd.first} {
		if b != nil {
			b.release()
		}
	}
	rd.cur, rd.first = nil, nil
}

// ReadAll reads every item of a recording. It holds every object: for small files and tests.
func ReadAll(r io.Reader, name string) (*Header, []watch.Item, *Reader, error) {
	rd, err := NewReader(r, name)
	if err != nil {
		return nil, nil, nil, err
	}
	var items []watch.Item
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

// ReadObservations reads every item of a recording as its observation, holding no object: what
// an interactive replay, which seeks, needs in memory.
func ReadObservations(r io.Reader, name string) (*Header, []timeline.Observation, *Reader, error) {
	rd, err := NewReader(r, name)
	if err != nil {
		return nil, nil, nil, err
	}
	var obs []timeline.Observation
	for {
		o, err := rd.NextObservation(context.Background())
		if err == io.EOF {
			return rd.header, obs, rd, nil
		}
		if err != nil {
			return nil, nil, nil, err
		}
		obs = append(obs, o)
	}
}
