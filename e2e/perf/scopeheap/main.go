// Command scopeheap replays a scope's recording into a Builder, as the fleet view does, and
// prints the live heap after a collection: the whole, and per pod; -heap writes a profile.
package main

import (
	"flag"
	"fmt"
	"log"
	"os"
	"runtime"
	"runtime/pprof"

	"github.com/sidecar-top/sidecar-top/fleet"
	"github.com/sidecar-top/sidecar-top/recfile"
	"github.com/sidecar-top/sidecar-top/timeline"
)

func main() {
	heap := flag.String("heap", "", "write a heap profile here")
	brief := flag.Bool("brief", false, "brief mode, as the fleet view and the agent keep a pod that is not opened or counted")
	keepFindings := flag.Bool("keep-findings", false, "in brief mode, keep the pods with findings whole")
	flag.Parse()
	if *heap != "" {
		runtime.MemProfileRate = 4096 // a few MB of heap per pod's worth of kinds: sample finely
	}
	base := live()
	f, err := os.Open(flag.Arg(0))
	if err != nil {
		log.Fatal(err)
	}
	_, obs, _, err := recfile.ReadObservations(f, flag.Arg(0))
	if err != nil {
		log.Fatal(err)
	}
	b := timeline.NewBuilder()
	if *brief {
		b.Brief(func(p *timeline.Pod) bool { return *keepFindings && len(p.Findings()) > 0 })
	}
	for _, o := range obs {
		b.Apply(o)
	}
	var rs fleet.Rows
	s := b.Snapshot()
	rows := rs.Of(s, nil)
	obs = nil
	after := live()
	n := len(rows)
	fmt.Printf("%d pods: %.1f MB live (%.1f KB a pod)\n", n, float64(after-base)/1e6, float64(after-base)/float64(n)/1e3)
	if *heap != "" {
		w, _ := os.Create(*heap)
		pprof.WriteHeapProfile(w)
		w.Close()
	}
	runtime.KeepAlive(b)
	runtime.KeepAlive(&rs)
}

func live() uint64 {
	runtime.GC()
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapAlloc
}
