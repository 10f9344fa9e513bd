package watch

import (
	"bytes"
	"encoding/json"
	"math"
	"regexp"
	"strconv"
	"strings"
	"time"
)

// killMessage is what the kubelet logs (at verbosity 2) right before it has the runtime stop a
// container, after its preStop hook and its turn: the runtime sends SIGTERM then.
const killMessage = "Killing container with a grace period"

// kubeletKill is a kill line of the kubelet's log, parsed.
type kubeletKill struct {
	At                                time.Time // UTC, microseconds
	Namespace, Pod, PodUID, Container string
	ContainerID                       string
	GracePeriod                       int64
}

var (
	// journalPrefix is journalctl's --output=short-precise --utc prefix: "Dec 02 14:51:42.018100 host kubelet[2399]: ".
	journalPrefix = regexp.MustCompile(`^([A-Z][a-z]{2}) +(\d{1,2}) (\d{2}):(\d{2}):(\d{2})\.(\d{6}) \S+ [^:]+: `)
	// klogHeader is klog's text header: "I1202 14:51:42.018100    2399 kuberuntime_container.go:912] ".
	klogHeader = regexp.MustCompile(`([IWEF])(\d{2})(\d{2}) (\d{2}):(\d{2}):(\d{2})\.(\d{6}) +\d+ [^ \]]+:\d+\] $`)
)

// parseKubeletKill reads a line of the kubelet's log, as the node log query serves it from the
// journal (prefix in UTC) or from a file (klog's text or JSON format alone). ref is a time near
// the line's (for the year, which klog omits); offset is the kubelet's time zone east of UTC,
// when no journal prefix tells it. ok is false for any other line.
func parseKubeletKill(line []byte, ref time.Time, offset time.Duration) (k kubeletKill, ok bool) {
	if !bytes.Contains(line, []byte(killMessage)) {
		return k, false
	}
	var journal time.Time
	if m := journalPrefix.FindSubmatch(line); m != nil {
		mon, err := time.Parse("Jan", string(m[1]))
		if err != nil {
			return k, false
		}
		journal = dateNear(ref, mon.Month(), atoi(m[2]), atoi(m[3]), atoi(m[4]), atoi(m[5]), atoi(m[6])*1000, time.UTC)
		line = line[len(m[0]):]
	}
	if len(line) > 0 && line[0] == '{' {
		return parseKubeletKillJSON(line)
	}
	msg := bytes.Index(line, []byte(`"`+killMessage+`"`))
	if msg < 0 {
		return k, false
	}
	h := klogHeader.FindSubmatch(line[:msg])
	if h == nil {
		return k, false
	}
	local := dateNear(ref.Add(offset), time.Month(atoi(h[2])), atoi(h[3]), atoi(h[4]), atoi(h[5]), atoi(h[6]), atoi(h[7])*1000, time.UTC)
	if !journal.IsZero() {
		// The journal's stamp is UTC and a little later than klog's, which is the kubelet's
		// local time: their difference, to the quarter hour, is the time zone.
		offset = local.Sub(journal).Round(15 * time.Minute)
	}
	k.At = local.Add(-offset)
	kv := keyValues(string(line[msg+len(killMessage)+2:]))
	k.Namespace, k.Pod, _ = strings.Cut(kv["pod"], "/")
	k.PodUID, k.Container, k.ContainerID = kv["podUID"], kv["containerName"], kv["containerID"]
	k.GracePeriod, _ = strconv.ParseInt(kv["gracePeriod"], 10, 64)
	return k, k.Container != "" && k.ContainerID != "" && (k.PodUID != "" || k.Pod != "")
}

// parseKubeletKillJSON reads a kill line of the kubelet's JSON log format, whose "ts" is
// milliseconds since the epoch.
func parseKubeletKillJSON(line []byte) (k kubeletKill, ok bool) {
	var j struct {
		TS  float64 `json:"ts"`
		Msg string  `json:"msg"`
		Pod struct {
			Name      string `json:"name"`
			Namespace string `json:"namespace"`
		} `json:"pod"`
		PodUID        string `json:"podUID"`
		ContainerName string `json:"containerName"`
		ContainerID   string `json:"containerID"`
		GracePeriod   int64  `json:"gracePeriod"`
	}
	if json.Unmarshal(line, &j) != nil || j.Msg != killMessage || j.TS <= 0 || j.TS > math.MaxInt64/1e6 {
		return k, false
	}
	us := int64(math.Round(j.TS * 1000))
	k = kubeletKill{At: time.UnixMicro(us).UTC(), Namespace: j.Pod.Namespace, Pod: j.Pod.Name, PodUID: j.PodUID,
		Container: j.ContainerName, ContainerID: j.ContainerID, GracePeriod: j.GracePeriod}
	return k, k.Container != "" && k.ContainerID != "" && (k.PodUID != "" || k.Pod != "")
}

// keyValues reads klog's key="value" key=value pairs; quoted values are Go-quoted.
func keyValues(s string) map[string]string {
	out := map[string]string{}
	for {
		s = strings.TrimLeft(s, " ")
		eq := strings.IndexByte(s, '=')
		if eq <= 0 || strings.ContainsAny(s[:eq], " \"") {
			return out
		}
		key, rest := s[:eq], s[eq+1:]
		var val string
		if strings.HasPrefix(rest, `"`) {
			end := quotedEnd(rest)
			if end < 0 {
				return out
			}
			v, err := strconv.Unquote(rest[:end])
			if err != nil {
				return out
			}
			val, rest = v, rest[end:]
		} else {
			sp := strings.IndexByte(rest, ' ')
			if sp < 0 {
				sp = len(rest)
			}
			val, rest = rest[:sp], rest[sp:]
		}
		out[key] = val
		s = rest
	}
}

// quotedEnd is the index after the closing quote of the Go string that s begins with, or -1.
func quotedEnd(s string) int {
	for i := 1; i < len(s); i++ {
		switch s[i] {
		case '\\':
			i++
		case '"':
			return i + 1
		}
	}
	return -1
}

// dateNear is the date with month and day (and no year) nearest to ref: klog and the journal's
// short format leave the year out.
func dateNear(ref time.Time, mon time.Month, day, h, m, s, ns int, loc *time.Location) time.Time {
	best := time.Time{}
	for _, y := range []int{ref.Year() - 1, ref.Year(), ref.Year() + 1} {
		t := time.Date(y, mon, day, h, m, s, ns, loc)
		if best.IsZero() || absDur(t.Sub(ref)) < absDur(best.Sub(ref)) {
			best = t
		}
	}
	return best
}

func absDur(d time.Duration) time.Duration {
	if d < 0 {
		return -d
	}
	return d
}

func atoi(b []byte) int {
	n, _ := strconv.Atoi(string(b))
	return n
}
