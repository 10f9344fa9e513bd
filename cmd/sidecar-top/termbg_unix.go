//go:build linux || darwin

package main

import (
	"os"
	"strings"
	"time"

	"golang.org/x/sys/unix"
	"golang.org/x/term"
)

// askDarkBackground asks the terminal tty (whose TERM is termName) whether its background is dark, waiting at most wait
// for the answer; known is false when it did not say (no answer in time, no OSC 11, not a
// terminal this process may ask). Only the view asks, before its program owns the terminal.
// Like termenv, it asks no terminal multiplexer (screen and tmux may stand for several
// terminals) and no dumb terminal, and not from the background, where writing to the terminal
// would stop the process.
func askDarkBackground(tty *os.File, termName string, wait time.Duration) (dark, known bool) {
	for _, skip := range []string{"screen", "tmux", "dumb"} {
		if strings.HasPrefix(termName, skip) {
			return false, false
		}
	}
	fd := int(tty.Fd())
	if pgrp, err := unix.IoctlGetInt(fd, unix.TIOCGPGRP); err != nil || pgrp != unix.Getpgrp() {
		return false, false
	}
	saved, err := term.MakeRaw(fd) // the answer is read as it comes, and not shown
	if err != nil {
		return false, false
	}
	defer term.Restore(fd, saved) //nolint:errcheck // as it was, or as good as it gets
	if _, err := tty.WriteString(queryBackground + queryCursor); err != nil {
		return false, false
	}
	osc, cursor := readAnswers(tty, wait)
	if !cursor {
		// What came late would reach the view as keys: drop what has come of it.
		flushInput(fd)
	}
	if osc == "" {
		return false, false
	}
	return darkColour(osc)
}

// readAnswers reads from tty until the cursor position's answer is in, or wait has passed.
func readAnswers(tty *os.File, wait time.Duration) (osc string, cursor bool) {
	deadline := time.Now().Add(wait)
	fd := int(tty.Fd())
	var got []byte
	buf := make([]byte, 256)
	for !cursor {
		left := time.Until(deadline)
		if left <= 0 || len(got) > 4096 {
			return osc, false
		}
		var set unix.FdSet
		set.Set(fd)
		tv := unix.NsecToTimeval(left.Nanoseconds())
		n, err := unix.Select(fd+1, &set, nil, nil, &tv)
		if err == unix.EINTR {
			continue
		}
		if err != nil || n == 0 {
			return osc, false
		}
		m, err := unix.Read(fd, buf)
		if err != nil || m <= 0 {
			return osc, false
		}
		got = append(got, buf[:m]...)
		osc, cursor = answers(got)
	}
	return osc, cursor
}
