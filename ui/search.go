package ui

import (
	"sort"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/sidecar-top/sidecar-top/present"
	"github.com/sidecar-top/sidecar-top/timeline"
)

// tableFocus says which table PgUp/PgDn and search act on.
type tableFocus uint8

const (
	focusMilestones tableFocus = iota
	focusEvents
)

// search is the search of the table in focus: `/` starts typing a query, each key moves the
// cursor to the first row at or after where the search began that matches, enter keeps the
// query (n and N then go from match to match) and esc goes back to where the search began. It
// lives in the root's view state, not beside it: both tables mark the rows its query matches.
type search struct {
	keys   searchKeyMap
	query  string // what a row must contain, every word of it in any case; empty: no search
	typing bool   // the query is being typed
	// What esc while typing goes back to.
	prevQuery  string
	prevCursor int
}

// searchKeyMap are the search's keys: while typing, and once the query is kept.
type searchKeyMap struct {
	Done, Cancel         key.Binding // end the typing and keep the query, or go back
	NextMatch, PrevMatch key.Binding
	End                  key.Binding // end the search kept (the root's esc)
	Help, Quit           key.Binding // for the status line
}

func newSearch(k KeyMap) search {
	return search{keys: searchKeyMap{
		Done: withDesc(k.Accept, "done"), Cancel: withDesc(k.Cancel, "cancel"), NextMatch: k.NextMatch, PrevMatch: k.PrevMatch,
		End: withDesc(k.Cancel, "end search"), Help: k.Help, Quit: k.Quit,
	}}
}

// ShortHelp is the status line's help while the query is typed, or once it is kept.
func (s search) ShortHelp() []key.Binding {
	k := s.keys
	if s.typing {
		return []key.Binding{k.Done, k.Cancel}
	}
	return []key.Binding{k.NextMatch, k.PrevMatch, k.End, k.Help, k.Quit}
}

// start starts typing a query for a table whose cursor is at cursor.
func (s search) start(cursor int) search {
	s.prevQuery, s.prevCursor = s.query, cursor
	s.query, s.typing = "", true
	return s
}

// Update handles a key while the query is typed: cur is the cursor of the table searched, which
// goes to the first match of the query as typed (rows gives a query's matches), or back to where
// the search began.
func (s search) Update(msg tea.KeyMsg, cur *int, rows func(query string) []int) search {
	switch {
	case key.Matches(msg, s.keys.Done):
		s.typing = false
	case key.Matches(msg, s.keys.Cancel), msg.Type == tea.KeyBackspace && s.query == "":
		// Backspace past the start ends the search too, as in less.
		s.query, s.typing = s.prevQuery, false
		*cur = s.prevCursor
	default:
		q, ok := editQuery(s.query, msg)
		if !ok {
			return s
		}
		s.query = q
		*cur = seekMatch(rows(q), s.prevCursor)
	}
	return s
}

// maxQuery is the longest query kept, in runes: a paste of a log line must not grow it for ever.
const maxQuery = 64

// query is a search or filter made ready to match: its words in lower case.
type query []string

func newQuery(s string) query { return strings.Fields(strings.ToLower(s)) }

// match reports whether text holds every word of q, in any case.
func (q query) match(text string) bool {
	if len(q) == 0 {
		return false
	}
	text = strings.ToLower(text)
	for _, w := range q {
		if !strings.Contains(text, w) {
			return false
		}
	}
	return true
}

// rowText is what a search of the milestone table looks at: what the row shows but its times.
func rowText(r *timeline.Row) string {
	m := r.Milestone
	return laneName(r.Lane) + " " + kindName(*m) + " " + detail(*m) + " " + present.Safe(string(m.Source))
}

// eventText is what a search of the Events looks at: what the row shows but its time.
func eventText(e *timeline.Event) string {
	return eventWho(*e) + " " + present.Safe(e.Reason) + " " + safeFields(e.Message)
}

// editQuery applies a key to a query being typed: a printable character or a space is added,
// backspace takes the last one away. It reports whether the key was one of those.
func editQuery(q string, msg tea.KeyMsg) (string, bool) {
	switch msg.Type {
	case tea.KeyBackspace:
		if q == "" {
			return q, true
		}
		_, n := utf8.DecodeLastRuneInString(q)
		return q[:len(q)-n], true
	case tea.KeySpace:
		msg.Runes = []rune{' '}
	case tea.KeyRunes:
	default:
		return q, false
	}
	if msg.Alt {
		return q, false
	}
	for _, r := range msg.Runes {
		if utf8.RuneCountInString(q) >= maxQuery {
			break
		}
		if unicode.IsPrint(r) || r == ' ' {
			q += string(r)
		}
	}
	return q, true
}

// searching reports whether a search holds: n and N go from match to match.
func (m *Model) searching() bool { return m.view.search.query != "" && !m.view.search.typing }

// tableCursor is the cursor of the table in focus: -1 follows the newest rows.
func (m *Model) tableCursor() *int {
	if m.view.focus == focusEvents {
		return &m.view.evCursor
	}
	return &m.view.cursor
}

// startSearch starts typing a query for the table in focus.
func (m *Model) startSearch() {
	m.helpScreen.open = false // the help would hide the table searched
	m.view.search = m.view.search.start(*m.tableCursor())
}

// seekMatch is the first of rows at or after from (wrapping around), or from when none matches.
func seekMatch(rows []int, from int) int {
	if len(rows) == 0 {
		return from
	}
	i := sort.SearchInts(rows, max(from, 0))
	if i == len(rows) {
		i = 0
	}
	return rows[i]
}

// jumpMatch moves the cursor to the next match after it (d > 0) or the one before, wrapping
// around. From no cursor (the newest rows), n goes to the first match and N to the last.
func (m *Model) jumpMatch(d int) {
	rows := m.matchRows(m.view.search.query)
	if len(rows) == 0 {
		return
	}
	cur := m.tableCursor()
	c := *cur
	if d > 0 {
		i := sort.SearchInts(rows, c+1)
		if i == len(rows) {
			i = 0
		}
		*cur = rows[i]
		return
	}
	if c < 0 {
		*cur = rows[len(rows)-1]
		return
	}
	i := sort.SearchInts(rows, c) - 1
	if i < 0 {
		i = len(rows) - 1
	}
	*cur = rows[i]
}

// matchRows are the rows of the table in focus that match query, for the selected pod.
func (m *Model) matchRows(query string) []int {
	f := m.frameView()
	p := f.pod()
	if p == nil || query == "" {
		return nil
	}
	return m.navMemo().matches(m.view.focus, p, f.jobOf(p), query)
}

// navMemo is the model's memo, or a new one for a Model not made by NewModel.
func (m *Model) navMemo() *navMemo {
	if m.memo == nil {
		m.memo = newNavMemo()
	}
	return m.memo
}

// lead is what the status line says of the search: the query, and where the cursor is among
// the matches.
func (s search) lead(f *frame, memo *navMemo, p *timeline.Pod) string {
	text := "/" + present.Safe(s.query)
	if s.typing {
		text += typingCaret(f)
	}
	if s.query == "" || p == nil {
		return text
	}
	rows := memo.matches(f.view.focus, p, f.jobOf(p), s.query)
	cur := f.view.cursor
	if f.view.focus == focusEvents {
		cur = f.view.evCursor
	}
	switch i := sort.SearchInts(rows, cur); {
	case len(rows) == 0:
		text += "  " + f.styled(sWarning, "no match")
	case cur >= 0 && i < len(rows) && rows[i] == cur:
		text += "  " + f.styled(sMuted, strconv.Itoa(i+1)+" of "+strconv.Itoa(len(rows)))
	case len(rows) == 1:
		text += "  " + f.styled(sMuted, "1 match")
	default:
		text += "  " + f.styled(sMuted, strconv.Itoa(len(rows))+" matches")
	}
	return text
}

// typingCaret marks where typed text goes: a reversed space, or an underscore when the styles
// draw no reverse video.
func typingCaret(f *frame) string {
	if c := f.styled(sCursor, " "); c != " " {
		return c
	}
	return "_"
}

// matchMark marks the rows a search matches, in the column where the cursor goes.
const matchMark = "*"

// isMatch reports whether row i is one of matches, which are in order.
func isMatch(matches []int, i int) bool {
	j := sort.SearchInts(matches, i)
	return j < len(matches) && matches[j] == i
}
