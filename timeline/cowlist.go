package timeline

// cowList is a list that snapshots share: view hands out the items so far, and a later change
// that would write inside what was handed out copies the list first. Appending writes past every
// handed-out length, so the common case (things arrive in order) never copies.
type cowList[T any] struct {
	items  []T
	shared bool // items has been handed out since it was last copied
}

func (l *cowList[T]) len() int { return len(l.items) }

func (l *cowList[T]) at(i int) *T { return &l.items[i] }

func (l *cowList[T]) own() {
	if l.shared {
		l.items = append(make([]T, 0, len(l.items)+len(l.items)/2+1), l.items...)
		l.shared = false
	}
}

// insert puts v at index i, moving the rest up.
func (l *cowList[T]) insert(i int, v T) {
	if i == len(l.items) {
		l.items = append(l.items, v)
		return
	}
	l.own()
	var zero T
	l.items = append(l.items, zero)
	copy(l.items[i+1:], l.items[i:])
	l.items[i] = v
}

// set replaces the item at index i.
func (l *cowList[T]) set(i int, v T) {
	l.own()
	l.items[i] = v
}

// reset replaces the whole list.
func (l *cowList[T]) reset(items []T) { l.items, l.shared = items, false }

// view is the list for a snapshot, capped so that appending never shows through.
func (l *cowList[T]) view() []T {
	l.shared = true
	return l.items[:len(l.items):len(l.items)]
}
