//go:build linux

package main

import (
	"bufio"
	"context"
	"fmt"
	"log"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"time"

	"k8s.io/client-go/kubernetes"

	"github.com/sidecar-top/sidecar-top/e2e/perf/perfproc"
)

// replayKeys measures key → frame in the fleet table under more pod updates a second than this
// machine's API server can write: `record -A` records the kept pods while the churn writes as
// many as it can, and `replay --speed` plays the recording on a terminal, its updates coming
// speed times as fast as they were written, while keys are pressed as in the view mode. The
// replay runs the table and the frames the live view runs, fed by the recording's reader
// instead of the watch, and derives every pod whole (the live view keeps briefs). The rate it
// says is the recording's pod updates between the playhead before the first press and after the
// last, over the wall time between.
func replayKeys(ctx context.Context, client kubernetes.Interface, c config, s shape) error {
	apps, err := appStatuses(ctx, client, s, s.total)
	if err != nil {
		return err
	}
	rec := filepath.Join(c.out, "replay-keys.jsonl")
	if err := os.Remove(rec); err != nil && !os.IsNotExist(err) {
		return err
	}
	p, err := perfproc.Start("sidecar-top record -A", outPath(c, "record", s.total), nil,
		c.bin, "--kubeconfig", c.kubeconfig, "record", "-A", "--plain", "--output-file", rec)
	if err != nil {
		return err
	}
	if err := waitRecorded(rec, s.total, 2*time.Minute); err != nil {
		p.Stop()
		return err
	}
	log.Printf("recording the churn: %d pod status updates a second asked for %s", c.rate, c.churn)
	n, err := churn(ctx, client, s, apps, c.rate, c.churn)
	time.Sleep(2 * time.Second) // the last updates reach the recording
	p.Stop()
	if err != nil {
		return err
	}
	log.Printf("%d updates written in %s: %.0f a second", n, c.churn, float64(n)/c.churn.Seconds())
	times, err := updateTimes(rec)
	if err != nil {
		return err
	}
	return replayUnderChurn(ctx, c, rec, s.total, times)
}

// replayRecorded measures the replay of a recording made before (c.recording).
func replayRecorded(ctx context.Context, c config) error {
	pods, err := countAddedPods(c.recording)
	if err != nil {
		return err
	}
	times, err := updateTimes(c.recording)
	if err != nil {
		return err
	}
	return replayUnderChurn(ctx, c, c.recording, pods, times)
}

// replayUnderChurn plays rec at c.speed on a terminal, waits for its full table and for the
// playhead to reach the churn, presses the keys, and says what the presses took and at which
// rate the updates came meanwhile.
func replayUnderChurn(ctx context.Context, c config, rec string, pods int, times []time.Duration) error {
	if len(times) < 2 {
		return fmt.Errorf("%s holds %d pod updates: no churn to replay", rec, len(times))
	}
	t, err := perfproc.StartTerminal("sidecar-top replay", rows, cols, []string{"TERM=xterm-256color", "NO_COLOR=1"},
		c.bin, "replay", "--speed", strconv.FormatFloat(c.speed, 'f', -1, 64), rec)
	if err != nil {
		return err
	}
	defer t.Stop()
	if _, err := t.WaitForCount(0, " pods ·", pods, 3*time.Minute); err != nil {
		return err
	}
	// The churn's first twentieth of updates is not waited for: a stray update before the churn
	// (the node lifecycle controller's, say) would put the playhead's start before it.
	churnFrom, churnTo := times[len(times)/20], times[len(times)-1]
	if _, err := waitPlayhead(t, churnFrom, time.Minute); err != nil {
		return err
	}
	from, _ := playhead(t.Drawn())
	began := time.Now()
	ctx, cancel := context.WithTimeout(ctx, time.Duration(float64(churnTo-from)/c.speed))
	defer cancel()
	took := keyFramesEvery(ctx, t, 10, 700*time.Millisecond)
	to, _ := playhead(t.Drawn())
	wall := time.Since(began).Seconds() // the replay's own clock would hide a replay that fell behind
	updates := countBetween(times, from, to)
	log.Printf("replay at %g×: playhead %s → %s, %d pod updates in %.1f s: %.0f a second",
		c.speed, from.Round(time.Millisecond), to.Round(time.Millisecond), updates, wall, float64(updates)/wall)
	p50, most := quantiles(took)
	log.Printf("key → frame over %d presses: p50 %s, max %s; each: %v", len(took), p50, most, took)
	return nil
}

// waitRecorded waits until the recording at path holds pods added pods: the initial list is in.
func waitRecorded(path string, pods int, timeout time.Duration) error {
	for deadline := time.Now().Add(timeout); time.Now().Before(deadline); time.Sleep(time.Second) {
		n, err := countAddedPods(path)
		if err == nil && n >= pods {
			return nil
		}
	}
	return fmt.Errorf("%s did not record %d pods in %s", path, pods, timeout)
}

// recordLine is what replayKeys reads of a recording's line.
type recordLine struct {
	Time       time.Time
	Type, Kind string
}

// lineStart is the start of a recording's line, as record writes it: its time, the watch
// event's type and the object's kind. Read so, a line costs no JSON decoding: the recording is
// read again each second while it is made.
var lineStart = regexp.MustCompile(`^\{"time":"([^"]+)","type":"(\w+)","object":\{"kind":"(\w+)"`)

// countAddedPods counts the pods a recording says were added.
func countAddedPods(path string) (int, error) {
	n := 0
	err := eachLine(path, func(l recordLine) {
		if l.Type == "ADDED" && l.Kind == "Pod" {
			n++
		}
	})
	return n, err
}

// updateTimes are the times of a recording's pod updates, from its first line, in order.
func updateTimes(path string) ([]time.Duration, error) {
	var first time.Time
	var out []time.Duration
	err := eachLine(path, func(l recordLine) {
		if first.IsZero() {
			first = l.Time
		}
		if l.Type == "MODIFIED" && l.Kind == "Pod" {
			out = append(out, l.Time.Sub(first))
		}
	})
	sort.Slice(out, func(i, j int) bool { return out[i] < out[j] })
	return out, err
}

// eachLine hands fn each line of a recording but its header.
func eachLine(path string, fn func(recordLine)) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	for sc.Scan() {
		m := lineStart.FindSubmatch(sc.Bytes())
		if m == nil {
			continue // the header
		}
		at, err := time.Parse(time.RFC3339Nano, string(m[1]))
		if err != nil {
			return fmt.Errorf("%s: %w", path, err)
		}
		fn(recordLine{Time: at, Type: string(m[2]), Kind: string(m[3])})
	}
	return sc.Err()
}

// countBetween is how many of the sorted times lie in [from, to].
func countBetween(times []time.Duration, from, to time.Duration) int {
	i := sort.Search(len(times), func(i int) bool { return times[i] >= from })
	j := sort.Search(len(times), func(i int) bool { return times[i] > to })
	return j - i
}

// headerPlayhead is the replay's playhead in its header: "replay ▶ 8× 21.07s/2m10.0s".
var headerPlayhead = regexp.MustCompile(`× ([0-9hms.]+)/[0-9hms.]+`)

// playhead is the last playhead drawn, and whether one was.
func playhead(drawn string) (time.Duration, bool) {
	all := headerPlayhead.FindAllStringSubmatch(drawn[max(0, len(drawn)-1<<16):], -1)
	if len(all) == 0 {
		return 0, false
	}
	d, err := time.ParseDuration(all[len(all)-1][1])
	return d, err == nil
}

// waitPlayhead waits until the replay's playhead is at least at.
func waitPlayhead(t *perfproc.Terminal, at time.Duration, timeout time.Duration) (time.Duration, error) {
	for deadline := time.Now().Add(timeout); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if d, ok := playhead(t.Drawn()); ok && d >= at {
			return d, nil
		}
	}
	return 0, fmt.Errorf("the replay's playhead did not reach %s in %s", at, timeout)
}
