package watch

import (
	"bytes"
	"context"
	"io"
	"os"
	"path/filepath"
	"testing"
)

// benchRecording is the input of the reader's benchmarks: the file named by
// SIDECAR_TOP_BENCH_RECORDING (e.g. one made by ../shared/tools/gen_recording.py), or else the
// item lines of the real recordings repeated to about 16 MB.
func benchRecording(b *testing.B) []byte {
	b.Helper()
	if path := os.Getenv("SIDECAR_TOP_BENCH_RECORDING"); path != "" {
		data, err := os.ReadFile(path)
		if err != nil {
			b.Fatal(err)
		}
		return data
	}
	paths, err := filepath.Glob(filepath.Join("..", "recordings", "*.jsonl"))
	if err != nil || len(paths) == 0 {
		b.Fatalf("no recordings found: %v", err)
	}
	var items []byte
	for _, path := range paths {
		data, err := os.ReadFile(path)
		if err != nil {
			b.Fatal(err)
		}
		_, rest, _ := bytes.Cut(data, []byte("\n")) // drop the header
		items = append(items, rest...)
	}
	out := []byte(headerLine + "\n")
	for len(out) < 16<<20 {
		out = append(out, items...)
	}
	return out
}

// BenchmarkReaderNext measures decoding a recording item by item through Next, as replay does.
func BenchmarkReaderNext(b *testing.B) {
	data := benchRecording(b)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		rd, err := NewReader(bytes.NewReader(data), "bench.jsonl")
		if err != nil {
			b.Fatal(err)
		}
		for {
			it, err := rd.Next(context.Background())
			if err == io.EOF {
				break
			}
			if err != nil {
				b.Fatal(err)
			}
			if _, ok := Observe(it); !ok {
				b.Fatalf("%T not observable", it.Object)
			}
		}
	}
}
