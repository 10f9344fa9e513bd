package main

import (
	"fmt"
	"io"
)

// say prints a message of sidecar-top's own on w (standard error) as one line, "sidecar-top: "
// and the message, made one line and safe for a terminal (oneLine). Every message besides the
// output goes through it, errors and warnings alike: a message can quote a file name, a target,
// an endpoint or what the API server said, and any of them can hold what a terminal obeys (a
// recording named with ESC ] 0 ; title BEL would set the window's title).
func say(w io.Writer, format string, args ...any) {
	fmt.Fprintln(w, "sidecar-top: "+oneLine(fmt.Sprintf(format, args...)))
}
