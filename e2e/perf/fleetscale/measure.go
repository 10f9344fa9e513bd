//go:build linux

package main

import (
	"context"
	"fmt"
	"log"
	"path/filepath"
	"strings"
	"time"

	"k8s.io/client-go/kubernetes"

	"github.com/sidecar-top/sidecar-top/e2e/perf/perfproc"
)

// level is one cluster size's measurements.
type level struct {
	pods      int           // the benchmark's pods
	all       int           // every pod of the cluster, as a list counts them
	list      time.Duration // a bare list of every pod and Event
	wrote     int           // status updates written during the churn
	churnSecs float64
	rows      []*measured
}

// measured is one program at one size.
type measured struct {
	name        string
	settled     perfproc.Sample // once it has read the cluster and is quiet
	after       perfproc.Sample // after the churn
	ready       time.Duration   // start → first full table (or all pods seen); 0 if not measured
	keyFrames   []time.Duration // key → the frame that answers it, during the churn
	scrapes     []time.Duration // GET /metrics, after settling
	scrapeBytes int
	note        string
}

// program is one thing to run and how to know it has read the cluster.
type program struct {
	name  string
	start func(n int) (running, error)
}

// running is a started program: its process, and what is measured while the churn goes on.
type running struct {
	proc   *perfproc.Proc
	ready  time.Duration
	during func(ctx context.Context, m *measured) // runs beside the churn; may be nil
	scrape string                                 // its /metrics address, if it has one
}

// measureLevel runs every program of the mode at this size, one after the other until each has
// read the cluster and is quiet, then churns with all of them running and samples them again.
func measureLevel(ctx context.Context, client kubernetes.Interface, c config, s shape, n int) (*level, error) {
	l := &level{pods: n}
	var err error
	if l.list, l.all, err = listTime(ctx, client); err != nil {
		return nil, err
	}
	log.Printf("%d pods in the cluster; a bare list of pods and Events took %s", l.all, l.list.Round(time.Millisecond))
	progs := viewPrograms(c, s, l)
	if c.mode == "agent" {
		progs = agentPrograms(c, l)
	}
	var runs []running
	defer func() {
		for _, r := range runs {
			r.proc.Stop()
		}
	}()
	for _, p := range progs {
		r, err := p.start(n)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", p.name, err)
		}
		runs = append(runs, r)
		m := &measured{name: p.name, ready: r.ready}
		if _, err := r.proc.Settle(3*time.Second, 0.05, 3*time.Minute); err != nil {
			m.note = err.Error()
		}
		if m.settled, err = r.proc.Measure(); err != nil {
			return nil, err
		}
		if r.scrape != "" {
			m.scrapes, m.scrapeBytes = scrapeTimes(r.scrape, 5)
		}
		l.rows = append(l.rows, m)
		log.Printf("  %s: ready in %s, peak RSS %s", p.name, r.ready.Round(time.Millisecond), perfproc.MB(m.settled.RSSKiB))
	}
	if n == 0 {
		for i, r := range runs {
			l.rows[i].after, _ = r.proc.Measure()
		}
		return l, nil
	}
	return l, churnAll(ctx, client, c, s, l, runs)
}

// churnAll writes the updates while every program runs, runs what each measures meanwhile, and
// samples them all after.
func churnAll(ctx context.Context, client kubernetes.Interface, c config, s shape, l *level, runs []running) error {
	apps, err := appStatuses(ctx, client, s, l.pods)
	if err != nil {
		return err
	}
	log.Printf("  churn: %d pod status updates a second for %s", c.rate, c.churn)
	done := make(chan struct{})
	for i, r := range runs {
		if r.during != nil {
			go func() { r.during(ctx, l.rows[i]); done <- struct{}{} }()
		} else {
			go func() { done <- struct{}{} }()
		}
	}
	began := time.Now()
	wrote, err := churn(ctx, client, s, apps, c.rate, c.churn)
	l.wrote, l.churnSecs = wrote, time.Since(began).Seconds()
	if err != nil {
		log.Printf("  churn: %v", err)
	}
	for range runs {
		<-done
	}
	time.Sleep(3 * time.Second) // what is still in flight
	for i, r := range runs {
		var err error
		if l.rows[i].after, err = r.proc.Measure(); err != nil {
			return err
		}
	}
	return nil
}

// outPath is where a program's output goes at a size.
func outPath(c config, name string, n int) string {
	return filepath.Join(c.out, fmt.Sprintf("%d-%s.out", n, strings.NewReplacer(" ", "_", "/", "_").Replace(name)))
}
