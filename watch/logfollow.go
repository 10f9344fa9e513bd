package watch

import (
	"context"
	"errors"
	"fmt"
	"io"
	"sync"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
)

// logRun is one run of a container whose log is read.
type logRun struct {
	ns, pod       string
	uid           types.UID
	container, id string
	attempt       int32     // -1 when not known
	previous      bool      // read as the run before the current one: whole, not followed
	notAfter      time.Time // a line stamped after it is a newer run's; zero: not known
}

func (r logRun) String() string {
	s := fmt.Sprintf("pod %s container %s", r.pod, r.container)
	if r.attempt >= 0 {
		s += fmt.Sprintf(" run %d", r.attempt)
	}
	return s
}

// errNotThisRun says the kubelet served a newer run's log than the one asked for: the run
// changed between the status that named it and the request.
var errNotThisRun = errors.New("the log holds lines stamped after the run ended: a newer run's, not used")

// logRetries is how many times a log whose stream broke is asked for again.
const logRetries = 5

// logReader reads one run's log and sends its lines in batches: the reading goroutine adds
// lines, and a ticker sends what has waited for Flush.
type logReader struct {
	f   *logFollowers
	run logRun

	// Owned by the reading goroutine.
	lastAt  time.Time      // the latest stamp read
	atLast  int            // lines read stamped lastAt
	nread   int            // lines read
	dedupe  int            // after a retry: lines stamped lastAt still to skip, or -1 once past them
	marking bool           // some mark applies to the container
	marked  map[string]int // lines marked, by mark

	mu    sync.Mutex // guards the batch and the order of sends
	batch []LogLine
	sent  bool
	flush *time.Timer // sends the batch Flush after its first line
}

// read reads the run's log, asking again when a stream breaks while the run may still be read.
func (r *logReader) read(ctx context.Context) {
	r.marking = r.f.opts.Marks.For(r.run.container)
	r.dedupe = -1
	previous := r.run.previous
	backoff := r.f.retryWait
	for try := 0; ; try++ {
		if try > 0 {
			var ok bool
			if previous, ok = r.f.still(r.run); !ok || try > logRetries {
				r.send(false)
				return
			}
			if !sleep(ctx, backoff) {
				r.send(false)
				return
			}
			backoff *= 2
		}
		err := r.stream(ctx, previous)
		switch {
		case err == nil:
			r.send(true)
			return
		case ctx.Err() != nil:
			r.send(false)
			return
		case apierrors.IsForbidden(err):
			r.send(false)
			r.f.forbid(err)
			return
		case apierrors.IsNotFound(err):
			r.send(false)
			r.f.sayOnce(r.run.id+"/gone", fmt.Errorf("%s: the log was gone before it could be read (the pod or the run was removed): %w", r.run, err))
			return
		case errors.Is(err, errNotThisRun):
			r.send(false)
			r.f.sayOnce(r.run.id+"/newer", fmt.Errorf("%s: %w", r.run, err))
			return
		}
		r.f.sayOnce(r.run.id+"/broke", fmt.Errorf("%s: reading the log: %w (asking again; lines read are kept)", r.run, err))
	}
}

// stream asks for the log once (from the last stamp read, after a retry) and reads it to its
// end: nil when the stream ended, which it does when the run has exited.
func (r *logReader) stream(ctx context.Context, previous bool) error {
	opts := &corev1.PodLogOptions{Container: r.run.container, Timestamps: true, Follow: !previous, Previous: previous}
	if r.nread > 0 {
		// SinceTime has whole seconds: the lines of that second come again and are skipped.
		since := metav1.NewTime(r.lastAt.Truncate(time.Second))
		opts.SinceTime = &since
		r.dedupe = r.atLast
	}
	body, err := r.f.client.CoreV1().Pods(r.run.ns).GetLogs(r.run.pod, opts).Stream(ctx)
	if err != nil {
		return err
	}
	defer body.Close()
	sc := newLogScanner(body)
	for {
		l, err := sc.next()
		if l.Len > 0 || l.Stamped || l.Whole {
			if aerr := r.add(l); aerr != nil {
				return aerr
			}
		}
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
	}
}

// add takes one line: skips it if it was read before a retry, refuses it if it is a newer
// run's, matches it against the marks, and batches its stamp and length (and text if marked or
// asked for).
func (r *logReader) add(l scannedLine) error {
	if !l.Stamped {
		r.f.sayOnce(r.run.id+"/stamp", fmt.Errorf("%s: a log line without a timestamp, not used", r.run))
		return nil
	}
	if r.readBeforeRetry(l.At) {
		return nil
	}
	if !r.run.notAfter.IsZero() && l.At.After(r.run.notAfter) {
		return errNotThisRun
	}
	line := r.lineOf(l)
	r.noteRead(l.At)
	r.batchLine(line)
	return nil
}

// readBeforeRetry reports whether a line stamped at was read before the stream was asked for
// again: a retry asks from the whole second of the last stamp read, so the lines before that
// stamp, and the first dedupe lines stamped with it, come twice. The first line past them ends
// the skipping.
func (r *logReader) readBeforeRetry(at time.Time) bool {
	if r.dedupe < 0 || r.nread == 0 {
		return false
	}
	switch {
	case at.Before(r.lastAt):
		return true
	case at.Equal(r.lastAt) && r.dedupe > 0:
		r.dedupe--
		return true
	}
	r.dedupe = -1
	return false
}

// lineOf is what is kept of a line: its stamp and length, its mark if it matches one, and its
// text if it is marked or the text is asked for.
func (r *logReader) lineOf(l scannedLine) LogLine {
	line := LogLine{At: l.At, Len: l.Len}
	if r.marking {
		line.Mark = r.markOf(l.Text)
	}
	if line.Mark != "" || r.f.opts.KeepText {
		line.Text = string(l.Text)
	}
	return line
}

// noteRead counts a line read stamped at, and how many were stamped with the latest stamp,
// which a retry skips (readBeforeRetry).
func (r *logReader) noteRead(at time.Time) {
	switch {
	case at.After(r.lastAt):
		r.lastAt, r.atLast = at, 1
	case at.Equal(r.lastAt):
		r.atLast++
	}
	r.nread++
}

// batchLine adds a line to the batch, and sends the batch once it holds FlushLines lines or
// Flush after its first line, whichever comes first.
func (r *logReader) batchLine(line LogLine) {
	r.mu.Lock()
	r.batch = append(r.batch, line)
	full := len(r.batch) >= r.f.opts.FlushLines
	if len(r.batch) == 1 && !full {
		// Sent Flush after its first line, by a timer armed only then: a log that is quiet costs
		// nothing (a ticker per stream had woken every Flush whether there was a line or not).
		if r.flush == nil {
			r.flush = time.AfterFunc(r.f.opts.Flush, func() { r.send(false) })
		} else {
			r.flush.Reset(r.f.opts.Flush)
		}
	}
	r.mu.Unlock()
	if full {
		r.send(false)
	}
}

// MaxMarkedLines is how many lines of a run one mark marks at most: a mark is a milestone, and
// a pattern that matches a line a second would bury the lane in them. Later matches are lines
// like the others, and that is said once.
const MaxMarkedLines = 16

// markOf is the mark a line matches, while that mark has marked fewer than MaxMarkedLines.
func (r *logReader) markOf(text []byte) string {
	m := r.f.opts.Marks.Match(r.run.container, text)
	if m == "" {
		return ""
	}
	if r.marked == nil {
		r.marked = map[string]int{}
	}
	if r.marked[m] >= MaxMarkedLines {
		r.f.sayOnce(r.run.id+"/marks/"+m, fmt.Errorf("%s: mark %q matched more than %d lines; later ones are not milestones", r.run, m, MaxMarkedLines))
		return ""
	}
	r.marked[m]++
	return m
}

// send sends the lines batched, if any, and with end says the log is over: the stream ended
// as the run exited. The first batch says the log was read from its start.
func (r *logReader) send(end bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if len(r.batch) == 0 && !end {
		return
	}
	c := NewContainerLog()
	c.Namespace, c.Pod, c.PodUID, c.Container = r.run.ns, r.run.pod, string(r.run.uid), r.run.container
	c.ContainerID, c.Attempt, c.FromStart, c.Lines, c.End = r.run.id, r.run.attempt, !r.sent, r.batch, end
	r.batch, r.sent = nil, true
	r.f.put(c)
}
