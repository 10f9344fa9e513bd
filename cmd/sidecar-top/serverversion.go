package main

import (
	"fmt"
	"io"

	utilversion "k8s.io/apimachinery/pkg/util/version"

	"github.com/sidecar-top/sidecar-top/timeline"
)

// nativeSidecarsMinor is the first minor release of Kubernetes 1 with native sidecars on by
// default: the SidecarContainers feature is beta from 1.29, alpha (off) in 1.28, absent before.
const nativeSidecarsMinor = 29

// oldServerNote says, for an API server older than 1.29, what becomes of native sidecars there;
// it is "" for a newer server, or a version it cannot read (a recording without one). It names
// the version as parsed (numbers only), never the server's string, which could hold anything.
func oldServerNote(gitVersion string) string {
	v, err := utilversion.ParseGeneric(gitVersion)
	if err != nil || v.Major() != 1 || v.Minor() >= nativeSidecarsMinor {
		return ""
	}
	return fmt.Sprintf("the API server is %s, older than 1.29: it has no native sidecars (SidecarContainers is "+
		"alpha and off in 1.28, absent before), so an init container's restartPolicy: Always is rejected or "+
		"dropped, and the container runs as a plain init container that must exit before the next one starts",
		"v"+v.String())
}

// sayNote prints a note once on w (standard error), unless it is empty.
func sayNote(w io.Writer, note string) {
	if note != "" {
		say(w, "note: %s", note)
	}
}

// withNote is s with note added to its notes (s itself is not changed); s when note is empty.
func withNote(s timeline.Snapshot, note string) timeline.Snapshot {
	if note == "" {
		return s
	}
	s.Notes = append(append([]string(nil), s.Notes...), note)
	return s
}
