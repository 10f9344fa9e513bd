package ui

import "testing"

// TestTruncateNeverInANumber: a cut that would fall inside a number goes back before it.
func TestTruncateNeverInANumber(t *testing.T) {
	for _, tc := range []struct {
		in    string
		width int
		want  string
	}{
		{"terminated: exit 137 (SIGKILL)", 19, "terminated: exit …"},
		{"terminated: exit 137 (SIGKILL)", 21, "terminated: exit 137…"},
		{"took 4.36s ±0.5", 9, "took …"},
		{"plain words here", 8, "plain w…"},
		{"12345", 3, "…"},
	} {
		if got := truncate(tc.in, tc.width); got != tc.want {
			t.Errorf("truncate(%q, %d) = %q, want %q", tc.in, tc.width, got, tc.want)
		}
	}
}
