package main

import "testing"

// TestTerminalAnswers: the answers to OSC 11 and CSI 6n are read whole or not at all, with
// either terminator, past stray bytes, and the cursor's answer alone says OSC 11 is unknown.
func TestTerminalAnswers(t *testing.T) {
	tests := []struct {
		in     string
		osc    string
		cursor bool
	}{
		{"", "", false},
		{"\x1b]11;rgb:ffff/ffff/ffff\x1b\\\x1b[12;1R", "11;rgb:ffff/ffff/ffff", true},
		{"\x1b]11;rgb:0000/0000/0000\a\x1b[1;1R", "11;rgb:0000/0000/0000", true},
		{"\x1b]11;rgb:0000/0000/0000\a", "11;rgb:0000/0000/0000", false},
		{"\x1b]11;rgb:0000/00", "", false},
		{"\x1b[3;40R", "", true},
		{"x\x1b[3;4", "", false},
		{"q\x1b]11;rgb:1/2/3\x1b\\", "11;rgb:1/2/3", false},
	}
	for _, tt := range tests {
		osc, cursor := answers([]byte(tt.in))
		if osc != tt.osc || cursor != tt.cursor {
			t.Errorf("answers(%q) = %q, %v; want %q, %v", tt.in, osc, cursor, tt.osc, tt.cursor)
		}
	}
}

// TestDarkColour: a colour is dark when its HSL lightness is below one half, whatever the
// number of hex digits a channel; what is not a colour is not known.
func TestDarkColour(t *testing.T) {
	tests := []struct {
		osc         string
		dark, known bool
	}{
		{"11;rgb:1b1b/1d1d/2323", true, true},
		{"11;rgb:ffff/ffff/ffff", false, true},
		{"11;rgb:fd/f6/e3", false, true}, // Solarized light
		{"11;rgb:0/0/0", true, true},
		{"11;rgba:ffff/ffff/ffff/ffff", false, true},
		{"11;rgb:8000/8000/8000", false, true}, // one half exactly: light, as termenv
		{"11;rgb:7fff/7fff/7fff", true, true},
		{"11;?", false, false},
		{"11;rgb:zz/00/00", false, false},
		{"11;rgb:12345/0/0", false, false},
		{"rgb", false, false},
	}
	for _, tt := range tests {
		dark, known := darkColour(tt.osc)
		if dark != tt.dark || known != tt.known {
			t.Errorf("darkColour(%q) = %v, %v; want %v, %v", tt.osc, dark, known, tt.dark, tt.known)
		}
	}
	for env, want := range map[string][2]bool{"15;0": {true, true}, "0;15": {false, true}, "0;default;7": {false, true},
		"12;6": {true, true}, "": {false, false}, "15": {false, false}, "0;x": {false, false}, "0;16": {false, false}} {
		if dark, known := darkFromEnv(env); dark != want[0] || known != want[1] {
			t.Errorf("darkFromEnv(%q) = %v, %v; want %v", env, dark, known, want)
		}
	}
}
