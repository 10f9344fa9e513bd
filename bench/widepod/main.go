// Command widepod writes a recording of one pod with a native sidecar and N app containers,
// for the benchmark of a pod's cost in its lanes (scripts/bench-wide-pod.sh):
//
//	go run ./bench/widepod N OUT
//
// The apps start in ten batches, each with its Created and Started Events, become ready, and
// exit when the pod is deleted: fourteen updates of the whole pod, so the file grows with N.
package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"strconv"
	"time"
)

func main() {
	if err := run(os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, "widepod:", err)
		os.Exit(1)
	}
}

type obj = map[string]any

// state is an app container's status as the recording goes.
type state struct {
	started, finished float64 // seconds from t0; < 0: not yet
	ready             bool
}

func run(args []string) error {
	if len(args) != 2 {
		return fmt.Errorf("usage: widepod N OUT")
	}
	n, err := strconv.Atoi(args[0])
	if err != nil || n < 1 {
		return fmt.Errorf("N %q: want a positive number", args[0])
	}
	f, err := os.Create(args[1])
	if err != nil {
		return err
	}
	w := bufio.NewWriter(f)
	t0 := time.Date(2026, 12, 2, 8, 0, 0, 0, time.UTC)
	at := func(s float64) string {
		return t0.Add(time.Duration(s * float64(time.Second))).Format(time.RFC3339Nano)
	}
	sec := func(s float64) string { return t0.Add(time.Duration(s) * time.Second).Format(time.RFC3339) }
	enc := json.NewEncoder(w)
	line := func(v any) {
		if err == nil {
			err = enc.Encode(v)
		}
	}
	line(obj{"kind": "SidecarTopRecording", "version": 1, "serverVersion": "v1.33.0", "namespace": "ns",
		"target": "pod/wide", "startTime": at(0)})
	names := make([]string, n)
	apps := make([]state, n)
	for i := range names {
		names[i], apps[i] = fmt.Sprintf("c%05d", i), state{started: -1, finished: -1}
	}
	rv := 100
	status := func(name string, st state) obj {
		cs := obj{"name": name, "image": "busybox", "imageID": "", "restartCount": 0, "ready": st.ready,
			"started": st.started >= 0 && st.finished < 0}
		switch {
		case st.started < 0:
			cs["state"] = obj{"waiting": obj{"reason": "ContainerCreating"}}
		case st.finished < 0:
			cs["containerID"], cs["state"] = "containerd://"+name, obj{"running": obj{"startedAt": sec(st.started)}}
		default:
			cs["containerID"], cs["state"] = "containerd://"+name, obj{"terminated": obj{"exitCode": 0, "reason": "Completed",
				"startedAt": sec(st.started), "finishedAt": sec(st.finished), "containerID": "containerd://" + name}}
		}
		return cs
	}
	pod := func(s float64, typ string, deletion float64) {
		rv++
		meta := obj{"name": "wide", "namespace": "ns", "uid": "u-wide", "resourceVersion": strconv.Itoa(rv), "creationTimestamp": sec(0)}
		if deletion > 0 {
			meta["deletionTimestamp"], meta["deletionGracePeriodSeconds"] = sec(deletion), 30
		}
		specs, statuses := make([]obj, n), make([]obj, n)
		for i, name := range names {
			specs[i], statuses[i] = obj{"name": name, "image": "busybox"}, status(name, apps[i])
		}
		line(obj{"time": at(s), "type": typ, "object": obj{"kind": "Pod", "apiVersion": "v1", "metadata": meta,
			"spec": obj{"initContainers": []obj{{"name": "side", "image": "busybox", "restartPolicy": "Always"}},
				"containers": specs, "restartPolicy": "Always", "terminationGracePeriodSeconds": 30, "nodeName": "vm"},
			"status": obj{"phase": "Running", "conditions": []obj{{"type": "PodScheduled", "status": "True", "lastTransitionTime": sec(0)}},
				"initContainerStatuses": []obj{status("side", state{started: 1, finished: -1, ready: true})},
				"containerStatuses":     statuses}}})
	}
	events := 0
	event := func(s float64, name, reason string) {
		events++
		line(obj{"time": at(s + 0.01), "type": "ADDED", "object": obj{"kind": "Event", "apiVersion": "v1",
			"metadata":       obj{"name": fmt.Sprintf("wide.%x", events), "namespace": "ns", "uid": fmt.Sprint("e", events), "resourceVersion": strconv.Itoa(rv)},
			"involvedObject": obj{"kind": "Pod", "namespace": "ns", "name": "wide", "uid": "u-wide", "fieldPath": "spec.containers{" + name + "}"},
			"reason":         reason, "message": reason + " container " + name, "source": obj{"component": "kubelet", "host": "vm"},
			"firstTimestamp": sec(s), "lastTimestamp": sec(s), "count": 1, "type": "Normal"}})
	}
	pod(0.1, "ADDED", 0)
	for b := range 10 {
		s := float64(2 + b)
		for i := b * n / 10; i < (b+1)*n/10; i++ {
			event(s, names[i], "Created")
			event(s, names[i], "Started")
			apps[i].started = s
		}
		pod(s+0.5, "MODIFIED", 0)
	}
	for i := range apps {
		apps[i].ready = true
	}
	pod(20, "MODIFIED", 0)
	pod(30, "MODIFIED", 60)
	for i, name := range names {
		event(30, name, "Killing")
		apps[i].ready, apps[i].finished = false, 31
	}
	pod(32, "MODIFIED", 60)
	pod(33, "DELETED", 60)
	if err != nil {
		return err
	}
	if err := w.Flush(); err != nil {
		return err
	}
	return f.Close()
}
