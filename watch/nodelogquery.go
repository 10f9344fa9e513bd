package watch

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"time"
)

// The node log query (kubelet setting enableSystemLogQuery, feature NodeLogQuery) runs
// journalctl with the query's options when the kubelet logs to the journal. When it logs to a
// file, options are refused, so the file is read instead, from where the last read ended
// (a Range request on /logs/FILE, which the kubelet serves from the node's /var/log/).
const (
	// nodeLogTail is how many kill lines a query asks for: the latest of the node.
	nodeLogTail = 1000
	// nodeLogFirstBytes is how much of the end of a log file the first read takes.
	nodeLogFirstBytes = 8 << 20
	// maxNodeLogBody bounds what one answer may hold.
	maxNodeLogBody = 64 << 20
)

// kubeletFiles are where under the node's /var/log the kubelet's log file may be, in the
// order the kubelet's own heuristics look.
var kubeletFiles = []string{"kubelet.log", "kubelet/kubelet.log", "kubelet"}

var errUseFile = errors.New("the query resolved to a file")

// kubeletSource reads one node's kubelet log: by query while the journal answers, else from
// the file.
type kubeletSource struct {
	n      *nodeLogs
	node   string
	file   string // the file read, once the query resolved to one; "" while querying
	files  []string
	offset int64         // bytes of the file read; -1 before the first read
	tz     time.Duration // the kubelet's time zone east of UTC, as the file's mtime tells
}

// read asks once and sends the kill lines found.
func (s *kubeletSource) read(ctx context.Context) error {
	if s.file == "" && s.files == nil {
		err := s.query(ctx)
		if !errors.Is(err, errUseFile) {
			return err
		}
		s.files, s.offset = kubeletFiles, -1
	}
	return s.readFile(ctx)
}

// query runs the node log query for the kill lines.
func (s *kubeletSource) query(ctx context.Context) error {
	u := s.n.rest.Get().AbsPath("/api/v1/nodes/"+s.node+"/proxy/logs/").
		Param("query", "kubelet").Param("pattern", killMessage).Param("tailLines", strconv.Itoa(nodeLogTail)).URL()
	resp, body, err := s.get(ctx, u.String(), "")
	if err != nil {
		return err
	}
	if err := statusError(resp, body); err != nil {
		return err
	}
	switch {
	case isHTML(resp, body):
		return errUseFile // the query was ignored and /var/log/ listed: query mode is off
	case bytes.Contains(body, []byte("options present and query resolved to log files")):
		return errUseFile
	case bytes.Contains(body, []byte("error: journal output not available")):
		return fmt.Errorf("%w: the kubelet cannot read the node's journal", errNodeLogsUnavailable)
	}
	s.scan(body, time.Now())
	return nil
}

// readFile reads what the log file gained since the last read (at first, its last 8 MiB).
func (s *kubeletSource) readFile(ctx context.Context) error {
	for {
		name := s.file
		if name == "" {
			if len(s.files) == 0 {
				return fmt.Errorf("%w: the node log query is off (kubelet setting enableSystemLogQuery, feature NodeLogQuery) and the node's /var/log has no kubelet.log", errNodeLogsUnavailable)
			}
			name = s.files[0]
		}
		u := s.n.rest.Get().AbsPath("/api/v1/nodes/" + s.node + "/proxy/logs/" + name).URL()
		rng := "bytes=" + strconv.FormatInt(s.offset, 10) + "-"
		if s.offset < 0 {
			rng = "bytes=-" + strconv.Itoa(nodeLogFirstBytes)
		}
		resp, body, err := s.get(ctx, u.String(), rng)
		if err != nil {
			return err
		}
		if resp.StatusCode == http.StatusNotFound && s.file == "" {
			s.files = s.files[1:]
			continue
		}
		if resp.StatusCode == http.StatusRequestedRangeNotSatisfiable {
			if size, ok := rangeSize(resp.Header.Get("Content-Range")); ok && size < s.offset {
				s.offset = 0 // the file was rotated or truncated: read the new one
			} else if s.offset < 0 {
				s.offset = 0
			}
			s.file = name
			return nil
		}
		if err := statusError(resp, body); err != nil {
			return err
		}
		if isHTML(resp, body) {
			s.files = s.files[1:] // a directory
			continue
		}
		s.file = name
		return s.fileChunk(resp, body)
	}
}

// fileChunk takes an answer to a Range request (or the whole file, from a server that ignored
// it): it sends the kill lines of the whole lines past the offset and moves the offset on.
func (s *kubeletSource) fileChunk(resp *http.Response, body []byte) error {
	start := int64(0)
	if resp.StatusCode == http.StatusPartialContent {
		var ok bool
		if start, ok = rangeStart(resp.Header.Get("Content-Range")); !ok {
			return fmt.Errorf("the kubelet's answer has a bad Content-Range %q", resp.Header.Get("Content-Range"))
		}
	} else if s.offset > 0 && int64(len(body)) >= s.offset {
		body, start = body[s.offset:], s.offset
	}
	if s.offset < 0 && start > 0 {
		// The first read starts mid-file: the first line is cut.
		nl := bytes.IndexByte(body, '\n')
		if nl < 0 {
			return nil
		}
		body, start = body[nl+1:], start+int64(nl+1)
	}
	last := bytes.LastIndexByte(body, '\n')
	if last < 0 {
		s.offset = max(s.offset, start)
		return nil // no whole line yet
	}
	body = body[:last+1]
	s.offset = start + int64(len(body))
	if mod, err := http.ParseTime(resp.Header.Get("Last-Modified")); err == nil {
		if at, ok := lastKlogStamp(body, mod); ok {
			s.tz = at.Sub(mod).Round(15 * time.Minute)
		}
	}
	s.scan(body, time.Now())
	return nil
}

// scan sends the kill lines of body.
func (s *kubeletSource) scan(body []byte, now time.Time) {
	for len(body) > 0 {
		line := body
		if nl := bytes.IndexByte(body, '\n'); nl >= 0 {
			line, body = body[:nl], body[nl+1:]
		} else {
			body = nil
		}
		if k, ok := parseKubeletKill(line, now, s.tz); ok {
			s.n.take(s.node, k)
		}
	}
}

// get makes one GET, with a Range header if rng is set, and reads the answer's body.
func (s *kubeletSource) get(ctx context.Context, url, rng string) (*http.Response, []byte, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return nil, nil, err
	}
	if rng != "" {
		req.Header.Set("Range", rng)
	}
	resp, err := s.n.httpc.Do(req)
	if err != nil {
		return nil, nil, err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxNodeLogBody))
	if err != nil {
		return nil, nil, err
	}
	return resp, body, nil
}

// statusError turns an answer that is not a success into an error: those that will not change
// by asking again wrap errNodeLogsUnavailable.
func statusError(resp *http.Response, body []byte) error {
	if resp.StatusCode < 300 {
		return nil
	}
	msg := firstLine(body)
	switch resp.StatusCode {
	case http.StatusForbidden:
		return fmt.Errorf("%w: forbidden (reading it needs get on nodes/proxy): %s", errNodeLogsUnavailable, msg)
	case http.StatusMethodNotAllowed:
		return fmt.Errorf("%w: the kubelet's logs endpoint is disabled (kubelet setting enableSystemLogHandler): %s", errNodeLogsUnavailable, msg)
	case http.StatusBadRequest:
		if strings.Contains(msg, "address not allowed") {
			return fmt.Errorf("%w: the API server will not proxy to the node's address (loopback or link-local): %s", errNodeLogsUnavailable, msg)
		}
		return fmt.Errorf("%w: %s: %s", errNodeLogsUnavailable, resp.Status, msg)
	case http.StatusNotFound, http.StatusNotAcceptable:
		return fmt.Errorf("%w: %s: %s", errNodeLogsUnavailable, resp.Status, msg)
	}
	return fmt.Errorf("%s: %s", resp.Status, msg)
}

// firstLine is the first line of an answer's body, cut short, for an error message. A Status
// object's message is taken from its JSON.
func firstLine(body []byte) string {
	if m := statusMessageRe.FindSubmatch(body); m != nil {
		if s, err := strconv.Unquote(`"` + string(m[1]) + `"`); err == nil {
			body = []byte(s)
		}
	}
	line, _, _ := bytes.Cut(bytes.TrimSpace(body), []byte("\n"))
	return fmt.Sprintf("%.200s", strings.ToValidUTF8(string(line), "\ufffd"))
}

var statusMessageRe = regexp.MustCompile(`"message":\s*"((?:[^"\\]|\\.)*)"`)

// isHTML says whether an answer is an HTML page: the kubelet's listing of /var/log/.
func isHTML(resp *http.Response, body []byte) bool {
	return strings.HasPrefix(resp.Header.Get("Content-Type"), "text/html") || bytes.HasPrefix(bytes.TrimSpace(body), []byte("<"))
}

// rangeStart reads the first byte's offset from "bytes START-END/SIZE".
func rangeStart(cr string) (int64, bool) {
	rest, ok := strings.CutPrefix(cr, "bytes ")
	if !ok {
		return 0, false
	}
	first, _, ok := strings.Cut(rest, "-")
	n, err := strconv.ParseInt(first, 10, 64)
	return n, ok && err == nil && n >= 0
}

// rangeSize reads the size from "bytes */SIZE" (or "bytes START-END/SIZE").
func rangeSize(cr string) (int64, bool) {
	_, size, ok := strings.Cut(cr, "/")
	n, err := strconv.ParseInt(size, 10, 64)
	return n, ok && err == nil && n >= 0
}

// klogLineStamp is a klog text header at the start of a line.
var klogLineStamp = regexp.MustCompile(`(?m)^[IWEF](\d{2})(\d{2}) (\d{2}):(\d{2}):(\d{2})\.(\d{6}) `)

// lastKlogStamp is the stamp of the last klog line in body, read as UTC (klog writes the
// kubelet's local time), with the year nearest ref.
func lastKlogStamp(body []byte, ref time.Time) (time.Time, bool) {
	all := klogLineStamp.FindAllSubmatchIndex(body[max(len(body)-64<<10, 0):], -1)
	if len(all) == 0 {
		return time.Time{}, false
	}
	tail := body[max(len(body)-64<<10, 0):]
	m := all[len(all)-1]
	g := func(i int) int { return atoi(tail[m[2*i]:m[2*i+1]]) }
	return dateNear(ref, time.Month(g(1)), g(2), g(3), g(4), g(5), g(6)*1000, time.UTC), true
}
