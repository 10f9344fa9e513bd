package watch

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"

	"github.com/klauspost/compress/zstd"
)

// Magic bytes of the compressed forms a recording is attached in.
var (
	gzipMagic = []byte{0x1f, 0x8b}
	zstdMagic = []byte{0x28, 0xb5, 0x2f, 0xfd}
)

// decompressed is br's content, decompressed when it starts as gzip or zstd does (people attach
// recordings as x.jsonl.gz or .zst), as it is otherwise; close ends the decompressor. The format
// is told by the content, not the name: a file renamed, or standard input, reads the same.
func decompressed(br *bufio.Reader, name string) (r *bufio.Reader, close func(), err error) {
	head, _ := br.Peek(len(zstdMagic))
	switch {
	case bytes.HasPrefix(head, gzipMagic):
		z, err := gzip.NewReader(br)
		if err != nil {
			return nil, nil, fmt.Errorf("%s: a gzip file, but not a readable one: %w", name, err)
		}
		return bufio.NewReaderSize(cutShort{z, name, "gzip"}, batchBytes), func() { z.Close() }, nil
	case bytes.HasPrefix(head, zstdMagic):
		// One goroutine and a bounded window: a hostile frame header may not make it allocate
		// what it likes.
		z, err := zstd.NewReader(br, zstd.WithDecoderConcurrency(1), zstd.WithDecoderMaxWindow(64<<20))
		if err != nil {
			return nil, nil, fmt.Errorf("%s: a zstd file, but not a readable one: %w", name, err)
		}
		return bufio.NewReaderSize(cutShort{z, name, "zstd"}, batchBytes), z.Close, nil
	}
	return br, func() {}, nil
}

// cutShort reads a decompressor, saying in words when its stream ends before its end: a file
// cut short (a recorder compressing as it wrote, stopped mid-write).
type cutShort struct {
	r            io.Reader
	name, format string
}

func (c cutShort) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	if errors.Is(err, io.ErrUnexpectedEOF) {
		err = fmt.Errorf("%s: the %s file ends early: it was cut short", c.name, c.format)
	}
	return n, err
}
