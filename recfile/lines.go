package recfile

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"sync"
)

// MaxLineBytes is the longest line a recording may have. A longer line (or an endless one, such
// as /dev/zero gives) is an error naming it, so input cannot grow memory without bound. The
// largest Pod the API server stores is well under 2 MB (etcd's default request limit is 1.5 MiB).
const MaxLineBytes = 64 << 20

// A batch is a run of consecutive lines, read by one goroutine and decoded by another. Batches
// bound the reader's memory: at most a few are in flight, each of about batchBytes of input.
type batch struct {
	buf     []byte
	lines   []span
	out     []decoded
	badLine error // the first line that did not decode: the batch ends before it
	readErr error // the error of reading after the batch's lines: a line too long, or the file's
	end     bool  // the input ends after this batch
	cut     bool  // the input ended in a partial line, dropped
	done    chan struct{}
}

// span is one line of a batch: buf[start:end], line number n.
type span struct{ start, end, n int }

// A batch of 128 KB is read and decoded as fast as one twice its size (BenchmarkReader on the
// big Job recording) and holds half the decoded objects while it waits; half of it was slower.
const (
	batchBytes = 128 << 10
	batchLines = 1024
)

var batchPool = sync.Pool{New: func() any { return new(batch) }}

func newBatch() *batch {
	b := batchPool.Get().(*batch)
	b.done = make(chan struct{})
	return b
}

// release clears a consumed batch, so that it holds no object, and pools it. The buffer of a
// batch that held a very long line is left to the garbage collector.
func (b *batch) release() {
	clear(b.out)
	buf := b.buf[:0]
	if cap(buf) > 4*batchBytes {
		buf = nil
	}
	*b = batch{buf: buf, lines: b.lines[:0], out: b.out[:0]}
	batchPool.Put(b)
}

// lineReader splits its input into lines of at most max bytes and counts them.
type lineReader struct {
	r    *bufio.Reader
	name string
	max  int
	n    int   // the number of the last line read
	kept int64 // the bytes of the lines read, newlines included: not those of a line refused
	// progress, if set, is told kept after each batch is read (Options.Progress).
	progress func(kept int64)
}

// next appends the next line, without its newline, to buf. whole is false for a last line that
// has no newline. It returns io.EOF when no bytes remain.
func (lr *lineReader) next(buf []byte) (out []byte, whole bool, err error) {
	frag, err := lr.r.ReadSlice('\n')
	if errors.Is(err, bufio.ErrBufferFull) {
		return lr.long(buf, frag)
	}
	return lr.end(append(buf, frag...), len(buf), len(frag), err)
}

// end finishes the line that ends buf, from start, after the error reading its last fragment:
// n bytes of it were read, its newline included.
func (lr *lineReader) end(buf []byte, start, n int, err error) ([]byte, bool, error) {
	switch {
	case err == nil && n-1 > lr.max:
		return buf[:start], false, lr.tooLong(buf[start:])
	case err == nil:
		lr.n++
		lr.kept += int64(n)
		return buf[:len(buf)-1], true, nil
	case err == io.EOF && n == 0:
		return buf, false, io.EOF
	case err == io.EOF && n > lr.max:
		return buf[:start], false, lr.tooLong(buf[start:])
	case err == io.EOF:
		lr.n++
		lr.kept += int64(n)
		return buf, false, nil
	}
	return buf[:start], false, fmt.Errorf("%s: %w", lr.name, err)
}

// long reads a line longer than the reader's buffer, whose first fragment is frag, into chunks
// of its own, then appends it to buf at once: a line refused as too long costs what it read,
// the limit at most, and never a buffer grown by copying (grown by append, a refused line had
// allocated several times its size). A line kept costs its chunks and its
// copy in buf.
func (lr *lineReader) long(buf, frag []byte) ([]byte, bool, error) {
	var chunks [][]byte
	n := 0
	for {
		for len(frag) > 0 {
			if len(chunks) == 0 || len(chunks[len(chunks)-1]) == cap(chunks[len(chunks)-1]) {
				chunks = append(chunks, make([]byte, 0, lineChunk))
			}
			c := &chunks[len(chunks)-1]
			k := min(len(frag), cap(*c)-len(*c))
			*c, frag, n = append(*c, frag[:k]...), frag[k:], n+k
		}
		if n > lr.max+1 { // the limit and a newline
			return buf, false, lr.tooLong(chunks[0])
		}
		var err error
		frag, err = lr.r.ReadSlice('\n')
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		start := len(buf)
		buf = slices.Grow(buf, n+len(frag))
		for _, c := range chunks {
			buf = append(buf, c...)
		}
		return lr.end(append(buf, frag...), start, n+len(frag), err)
	}
}

// lineChunk is the size of the chunks a long line is read into.
const lineChunk = 1 << 20

// tooLong is the error of a line longer than the limit, whose start is some: a line of a file
// whose lines end in a carriage return alone is the whole file, and is said to be.
func (lr *lineReader) tooLong(some []byte) error {
	if err := crOnly(lr.name, lr.n+1, some); err != nil {
		return err
	}
	return fmt.Errorf("%s:%d: line is longer than %s, the most a recording line may hold", lr.name, lr.n+1, byteSize(lr.max))
}

// crOnly is an error naming line n of file name if the line holds a carriage return that ends
// no line (one before its newline does: a line may end in CR LF): the file's lines end in CR
// alone, as old Mac files did, so that this one line is many. Nil otherwise.
func crOnly(name string, n int, line []byte) error {
	if i := bytes.IndexByte(bytes.TrimRight(line, "\r"), '\r'); i < 0 {
		return nil
	}
	return fmt.Errorf("%s:%d: the lines end in a carriage return alone (CR), not a newline (LF), so they read as one line: convert the file first, e.g. tr '\\r' '\\n'", name, n)
}

// fill reads lines into b until it holds about batchBytes, the input ends, reading fails, or
// reading on would wait for input that has not come (a recording still being written to a pipe:
// its lines are handed on as they come). A last line without its newline is a partial write: it
// is dropped, and b.cut set, unless it is whole JSON.
func (lr *lineReader) fill(b *batch) {
	if lr.progress != nil {
		defer func() { lr.progress(lr.kept) }()
	}
	for len(b.buf) < batchBytes && len(b.lines) < batchLines && (len(b.lines) == 0 || lr.r.Buffered() > 0) {
		start := len(b.buf)
		buf, whole, err := lr.next(b.buf)
		if err == io.EOF {
			b.end = true
			return
		}
		if err != nil {
			b.buf, b.readErr = buf[:start], err
			return
		}
		b.buf = buf
		line := buf[start:]
		if !whole && !isBlank(line) && !json.Valid(line) {
			if err := crOnly(lr.name, lr.n, line); err != nil {
				b.buf, b.readErr = buf[:start], err
				return
			}
			b.buf, b.end, b.cut = buf[:start], true, true
			return
		}
		if !isBlank(line) {
			b.lines = append(b.lines, span{start, len(buf), lr.n})
		}
		if !whole {
			b.end = true
			return
		}
	}
}

// decode decodes b's lines, stopping at the first that fails.
func (b *batch) decode(name string, dec *lineDecoder) {
	for _, l := range b.lines {
		d, err := dec.decode(b.buf[l.start:l.end])
		if err != nil {
			b.badLine = crOnly(name, l.n, b.buf[l.start:l.end])
			if b.badLine == nil {
				b.badLine = fmt.Errorf("%s:%d: %w", name, l.n, err)
			}
			return
		}
		b.out = append(b.out, d)
	}
}

func isBlank(b []byte) bool { return len(bytes.TrimSpace(b)) == 0 }

func byteSize(n int) string {
	if n >= 1<<20 && n%(1<<20) == 0 {
		return fmt.Sprintf("%d MiB", n>>20)
	}
	return fmt.Sprintf("%d bytes", n)
}

// pipeline reads batches in one goroutine and decodes them in workers, handing them on in order.
// At most cap(order) batches wait for the consumer, so memory stays bounded: one per worker.
// Decoding is the slow side (the consumer applies a batch in a fraction of the time), so a
// deeper queue only held more decoded objects: more of a replay's live heap, and so more work
// for the collector under replay's memory limit.
type pipeline struct {
	order chan *batch
	stop  chan struct{}
	once  sync.Once
}

// done, if set, is called once the pipeline reads no more (a decompressor may be closed then).
func startPipeline(lr *lineReader, first *batch, workers int, name string, newDecoder func() *lineDecoder, done func()) *pipeline {
	p := &pipeline{order: make(chan *batch, workers), stop: make(chan struct{})}
	work := make(chan *batch)
	for range workers {
		go func() {
			dec := newDecoder()
			for b := range work {
				b.decode(name, dec)
				close(b.done)
			}
		}()
	}
	go func() {
		defer close(work)
		if done != nil {
			defer done()
		}
		b := first
		for {
			if b == nil {
				b = newBatch()
				lr.fill(b)
			}
			last := b.end || b.readErr != nil // read before a worker has b
			select {
			case p.order <- b:
			case <-p.stop:
				return
			}
			select {
			case work <- b:
			case <-p.stop:
				return
			}
			if last {
				return
			}
			b = nil
		}
	}()
	return p
}

// close stops reading; the goroutines end once they finish the batch at hand.
func (p *pipeline) close() { p.once.Do(func() { close(p.stop) }) }
