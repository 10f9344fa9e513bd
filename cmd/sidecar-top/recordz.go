package main

import (
	"compress/gzip"
	"io"
	"strings"

	"github.com/klauspost/compress/zstd"
)

// compressor is what record --output-file NAME.gz or NAME.zst writes through: a gzip or zstd stream over
// the file, flushed after every write (one line of the recording), so that a recorder killed
// mid-run leaves every line before in the file, readable as a plain file cut mid-line is.
type compressor interface {
	io.Writer
	Flush() error
	Close() error
}

// compressorFor is the compressor a recording named path asks for by its extension, over w;
// nil for a plain one.
func compressorFor(path string, w io.Writer) (compressor, error) {
	switch {
	case strings.HasSuffix(path, ".gz"):
		return gzip.NewWriter(w), nil
	case strings.HasSuffix(path, ".zst"), strings.HasSuffix(path, ".zstd"):
		return zstd.NewWriter(w, zstd.WithEncoderConcurrency(1))
	}
	return nil, nil
}

// flushEach writes through a compressor, flushing it after each write.
type flushEach struct{ z compressor }

func (f flushEach) Write(p []byte) (int, error) {
	n, err := f.z.Write(p)
	if err == nil {
		err = f.z.Flush()
	}
	return n, err
}
