package recfile

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"sync/atomic"

	"github.com/klauspost/compress/zstd"
)

// Magic bytes of the compressed forms a recording is attached in.
var (
	gzipMagic = []byte{0x1f, 0x8b}
	zstdMagic = []byte{0x28, 0xb5, 0x2f, 0xfd}
)

// decompressed is br's content, decompressed when it starts as gzip or zstd does (people attach
// recordings as x.jsonl.gz or .zst, and record --output-file x.jsonl.gz writes one), as it is otherwise;
// close ends the decompressor, and cut reports whether the compressed stream ended before its
// end. The format is told by the content, not the name: a file renamed, or standard input,
// reads the same.
func decompressed(br *bufio.Reader, name string) (r *bufio.Reader, close func(), cut *atomic.Bool, err error) {
	cut = new(atomic.Bool)
	head, _ := br.Peek(len(zstdMagic))
	switch {
	case bytes.HasPrefix(head, gzipMagic):
		z, err := gzip.NewReader(br)
		if err != nil {
			return nil, nil, nil, fmt.Errorf("%s: a gzip file, but not a readable one: %w", name, err)
		}
		return bufio.NewReaderSize(cutShort{z, cut}, batchBytes), func() { z.Close() }, cut, nil
	case bytes.HasPrefix(head, zstdMagic):
		// One goroutine and a bounded window: a hostile frame header may not make it allocate
		// what it likes.
		z, err := zstd.NewReader(br, zstd.WithDecoderConcurrency(1), zstd.WithDecoderMaxWindow(64<<20))
		if err != nil {
			return nil, nil, nil, fmt.Errorf("%s: a zstd file, but not a readable one: %w", name, err)
		}
		return bufio.NewReaderSize(cutShort{z, cut}, batchBytes), z.Close, cut, nil
	}
	return br, func() {}, cut, nil
}

// cutShort reads a decompressor whose stream may end before its end: a file cut short (a
// recorder compressing as it wrote, killed; it flushes after every line, so what came before
// is whole). Like a plain file's partial last line, that ends the input, and cut says so.
type cutShort struct {
	r   io.Reader
	cut *atomic.Bool
}

func (c cutShort) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	if errors.Is(err, io.ErrUnexpectedEOF) {
		c.cut.Store(true)
		err = io.EOF
	}
	return n, err
}
