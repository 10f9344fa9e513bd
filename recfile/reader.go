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
	"sync/atomic"

	"github.com/sidecar-top/sidecar-top/timeline"
	"github.com/sidecar-top/sidecar-top/watch"
)

// Options say what a caller wants of a Reader, once, when it is made. The zero value hands out
// every item with its object whole.
type Options struct {
	// Objects is what a record holds of the object of a Pod or a core/v1 Event.
	Objects Objects
	// Progress, if set, is told, on the goroutine that reads the recording, how many bytes the
	// lines read so far hold, after each batch of them is read: what memory sized by the
	// recording should follow (replay's heap limit), rather than the file's size, which a
	// sparse file does not hold, nor a file whose line 22 is refused. A line refused is not
	// counted.
	Progress func(kept int64)
}

// Objects is what the records of a Reader hold of the Pods and core/v1 Events of a recording.
// Every other object (a Job, an events.k8s.io Event, a log item, a Note) is handed out whole.
type Objects int

const (
	// Whole objects: each as its line holds it, for a caller that writes items again or looks
	// into them.
	Whole Objects = iota
	// Slim objects: what watch.Slim keeps of each, the members translation reads; the rest of
	// the line is skipped unread but for its syntax. For a caller that translates them and reads
	// a little more (source.Play reads the containers' IDs).
	Slim
	// NoObjects: a record of a Pod or a core/v1 Event holds its observation only (Object is
	// nil), each decoding worker decoding every such line into one object of its own, used again
	// once the line is translated. For a caller that only applies the observations (replay,
	// check): a new object for every line was a third of what reading a recording allocated.
	NoObjects
)

// A Record is one item of a recording with its observation, which the reader made (Observe) on
// the goroutine that decoded the line.
type Record struct {
	watch.Item
	// Obs is the item's observation when IsObs; an item that is not one (a Note) has none.
	Obs   timeline.Observation
	IsObs bool
}

// Reader reads a recording as a stream of records. Each line is decoded once, straight into its
// typed object, and translated by Observe; when GOMAXPROCS allows, lines are decoded by worker
// goroutines, in order, with at most a few batches of about 256 KB in flight, so memory does not
// grow with the file. Errors name the file and line ("rec.jsonl:7: ..."). What a caller may keep
// of a record is the package doc's rule.
type Reader struct {
	name    string
	opts    Options
	lines   *lineReader
	header  *Header
	first   *batch // line 1 when it is not the header, or nothing
	workers int
	pipe    *pipeline
	dec     *lineDecoder // for the batches decoded here, with one worker
	pending *batch       // taken from the pipeline, maybe still being decoded
	cur     *batch       // decoded, being handed out from pos
	pos     int
	err     error        // io.EOF, the first error, or errClosed: every later call returns it
	closeZ  func()       // ends the decompressor of a compressed recording
	zCut    *atomic.Bool // the compressed stream ended before its end

	// Truncated is set when the file ended in a partial line (a recorder killed mid-write);
	// that line is ignored. It is known once Next has returned io.EOF.
	Truncated bool
	// Skipped counts lines whose object kind this version does not use.
	Skipped int
}

var errClosed = errors.New("recording reader is closed")

var bom = []byte("\xef\xbb\xbf")

// NewReader reads the optional header at once; name is used in errors. A UTF-8 byte order mark
// before the first line is ignored.
func NewReader(r io.Reader, name string, opts Options) (*Reader, error) {
	return newReader(r, name, opts, runtime.GOMAXPROCS(0), MaxLineBytes)
}

func newReader(r io.Reader, name string, opts Options, workers, maxLine int) (*Reader, error) {
	br, closeZ, zCut, err := decompressed(bufio.NewReaderSize(r, batchBytes), name)
	if err != nil {
		return nil, err
	}
	if p, _ := br.Peek(len(bom)); bytes.Equal(p, bom) {
		_, _ = br.Discard(len(bom))
	}
	rd := &Reader{name: name, opts: opts, workers: workers, closeZ: closeZ, zCut: zCut,
		lines: &lineReader{r: br, name: name, max: maxLine, progress: opts.Progress}}
	first, err := rd.readFirst()
	if err != nil {
		closeZ()
		return nil, err
	}
	rd.first = first
	return rd, nil
}

// readFirst reads line 1: the header, or the first item, which goes first into the first batch,
// as fill would have read it. It reads no further: more may not have been written yet.
func (rd *Reader) readFirst() (*batch, error) {
	first := newBatch()
	b, whole, err := rd.lines.next(first.buf)
	switch {
	case err == io.EOF || err == nil && !whole && isBlank(b):
		return nil, fmt.Errorf("%s: empty recording", rd.name)
	case err != nil:
		return nil, err
	}
	h, err := parseHeader(b)
	if err != nil {
		return nil, fmt.Errorf("%s:1: %w", rd.name, err)
	}
	first.buf, first.end = b[:0], !whole
	switch {
	case h != nil:
		rd.header = h
	case !whole && !isBlank(b) && !json.Valid(b):
		if err := crOnly(rd.name, 1, b); err != nil {
			return nil, err
		}
		first.cut = true
	case !isBlank(b):
		first.buf = b
		first.lines = append(first.lines, span{0, len(b), 1})
	}
	return first, nil
}

func (rd *Reader) newDecoder() *lineDecoder {
	if rd.opts.Objects == Whole {
		return newLineDecoder()
	}
	return newSlimLineDecoder(rd.opts.Objects == NoObjects)
}

// Header is the recording's header, or nil for a file without one.
func (rd *Reader) Header() *Header { return rd.header }

// Next returns the next record, io.EOF at the end.
func (rd *Reader) Next(ctx context.Context) (Record, error) {
	d, err := rd.next(ctx)
	return d.Record, err
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
	return readEach(r, name, Options{}, func(rec Record) (watch.Item, bool) { return rec.Item, true })
}

// ReadObservations reads every item of a recording as its observation, holding no object: what
// an interactive replay, which seeks, needs in memory.
func ReadObservations(r io.Reader, name string) (*Header, []timeline.Observation, *Reader, error) {
	return readEach(r, name, Options{Objects: NoObjects}, func(rec Record) (timeline.Observation, bool) { return rec.Obs, rec.IsObs })
}

// readEach reads a whole recording with opts, keeping what pick takes of each record.
func readEach[T any](r io.Reader, name string, opts Options, pick func(Record) (T, bool)) (*Header, []T, *Reader, error) {
	rd, err := NewReader(r, name, opts)
	if err != nil {
		return nil, nil, nil, err
	}
	var out []T
	for {
		rec, err := rd.Next(context.Background())
		if err == io.EOF {
			return rd.header, out, rd, nil
		}
		if err != nil {
			return nil, nil, nil, err
		}
		if v, ok := pick(rec); ok {
			out = append(out, v)
		}
	}
}
