package watch

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"time"
)

// MaxLogText is how much of a log line is matched against the marks and kept as its text: the
// first 16 KiB. A longer line (a 1 MB JSON document, binary output without newlines) is
// counted whole and costs no more memory than that.
const MaxLogText = 16 << 10

// logReadBuffer is the size of the buffer a log stream is read through.
const logReadBuffer = 64 << 10

// logScanner splits a pods/log stream read with timestamps=true into lines: the runtime's
// RFC 3339 stamp, a space, the line as the container wrote it, a newline. (The kubelet writes
// one stamp per line: a line the runtime split into parts comes with the first part's stamp.)
type logScanner struct {
	r    *bufio.Reader
	text []byte // the current line's first MaxLogText bytes
}

// scannedLine is one line of a log stream.
type scannedLine struct {
	At      time.Time
	Stamped bool   // the line began with a stamp; At is it
	Len     int    // the line's bytes after the stamp, without the newline
	Text    []byte // its first MaxLogText bytes; valid until the next call
	Whole   bool   // it ended with a newline (the last line of a stream may not)
}

func newLogScanner(r io.Reader) *logScanner {
	return &logScanner{r: bufio.NewReaderSize(r, logReadBuffer)}
}

// next returns the next line, or io.EOF after the last, or the stream's error (with the part
// of a line read before it, if any). A line that does not end before the stream does is
// returned with Whole false.
func (s *logScanner) next() (scannedLine, error) {
	var l scannedLine
	s.text = s.text[:0]
	first := true
	for {
		frag, err := s.r.ReadSlice('\n')
		if first {
			first = false
			if len(frag) == 0 && err != nil {
				return l, err
			}
			frag = l.stamp(frag)
		}
		if err == nil {
			frag = frag[:len(frag)-1]
			l.Whole = true
		}
		l.Len += len(frag)
		if room := MaxLogText - len(s.text); room > 0 {
			s.text = append(s.text, frag[:min(room, len(frag))]...)
		}
		switch {
		case err == nil, errors.Is(err, io.EOF):
			l.Text = s.text
			return l, nil // the next call reads io.EOF again
		case errors.Is(err, bufio.ErrBufferFull):
			continue
		default:
			l.Text = s.text
			return l, err
		}
	}
}

// stamp reads the stamp at the start of frag and returns the rest of the line.
func (l *scannedLine) stamp(frag []byte) []byte {
	sp := bytes.IndexByte(frag[:min(len(frag), 40)], ' ')
	if sp < 0 {
		return frag
	}
	at, err := time.Parse(time.RFC3339Nano, string(frag[:sp]))
	if err != nil {
		return frag
	}
	l.At, l.Stamped = at, true
	return frag[sp+1:]
}
