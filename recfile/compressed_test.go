package recfile

import (
	"bytes"
	"compress/gzip"
	"io"
	"strings"
	"testing"

	"github.com/klauspost/compress/zstd"

	"github.com/sidecar-top/sidecar-top/recordings"
	"github.com/sidecar-top/sidecar-top/watch"
)

// TestCompressedRecordings: a recording gzipped or zstd-compressed reads as the recording does,
// told by its first bytes whatever its name; a compressed file that is not readable is one error.
func TestCompressedRecordings(t *testing.T) {
	f, err := recordings.Open("startup-probe")
	if err != nil {
		t.Fatal(err)
	}
	plain, err := io.ReadAll(f)
	f.Close()
	if err != nil {
		t.Fatal(err)
	}
	var gz, zs bytes.Buffer
	gw := gzip.NewWriter(&gz)
	_, _ = gw.Write(plain)
	_ = gw.Close()
	zw, err := zstd.NewWriter(&zs)
	if err != nil {
		t.Fatal(err)
	}
	_, _ = zw.Write(plain)
	_ = zw.Close()
	_, want, _, err := ReadAll(bytes.NewReader(plain), "plain.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	for name, b := range map[string][]byte{"x.jsonl.gz": gz.Bytes(), "x.jsonl.zst": zs.Bytes(), "no-suffix": gz.Bytes()} {
		for _, workers := range []int{1, 4} {
			rd, err := newReader(bytes.NewReader(b), name, Options{}, workers, MaxLineBytes)
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			var got []watch.Item
			for {
				it, err := rd.Next(t.Context())
				if err == io.EOF {
					break
				}
				if err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				got = append(got, it.Item)
			}
			if rd.Header() == nil || len(got) != len(want) {
				t.Errorf("%s, %d workers: header %v, %d items; want %d", name, workers, rd.Header(), len(got), len(want))
			}
		}
	}
	bad := append([]byte{0x1f, 0x8b}, "not really gzip"...)
	if _, err := NewReader(bytes.NewReader(bad), "bad.gz", Options{}); err == nil || !strings.Contains(err.Error(), "bad.gz: a gzip file, but not a readable one") {
		t.Errorf("a broken gzip file: %v", err)
	}
	// Cut in two, a compressed file ends where it was cut, as a plain one cut mid-line does: the
	// items before are read, and Truncated says so.
	cut := gz.Bytes()[:gz.Len()/2]
	rd, err := NewReader(bytes.NewReader(cut), "cut.gz", Options{})
	n := 0
	for err == nil {
		if _, err = rd.Next(t.Context()); err == nil {
			n++
		}
	}
	if err != io.EOF || !rd.Truncated || n == 0 || n >= len(want) {
		t.Errorf("a gzip file cut in two: %d of %d items, then %v, Truncated %v; want some items, io.EOF and Truncated", n, len(want), err, rd.Truncated)
	}
}
