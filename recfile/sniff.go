package recfile

// Reading a line's kind and apiVersion from its bytes, before the typed decode.

// sniffTypeMeta reads the top-level kind and apiVersion of the object at the start of b, in any
// order, with plain string values: sidecar-top's recorder writes kind first, kubectl writes
// apiVersion first, and Events written with their members sorted hold kind in the middle. It
// reads bytes only, skipping the values of other members without decoding them; the typed
// decode that follows reads the whole object again and validates it, so anything unusual here
// (an escape in a member name, a value that is not a plain string, a member named twice, the
// end of b) is left to the slower path: ok is false. b may begin with the colon before the
// object.
func sniffTypeMeta(b []byte) (kind, apiVersion string, ok bool) {
	i, ok := sniffOpen(b)
	if !ok {
		return "", "", false
	}
	for kind == "" || apiVersion == "" {
		name, value, next, last, ok := sniffMember(b, i)
		switch {
		case !ok:
			return "", "", false
		case value == nil: // a member other than kind and apiVersion
		case string(name) == "kind" && kind == "":
			kind = typeMetaString(value)
		case string(name) == "apiVersion" && apiVersion == "":
			apiVersion = typeMetaString(value)
		default: // named twice
			return "", "", false
		}
		if last {
			break
		}
		i = next
	}
	if kind == "" || apiVersion == "" {
		return "", "", false
	}
	return kind, apiVersion, true
}

// sniffOpen is the index just past the brace that opens the object at the start of b, after
// space and a colon.
func sniffOpen(b []byte) (int, bool) {
	i := skipSpace(b, 0)
	if i < len(b) && b[i] == ':' {
		i = skipSpace(b, i+1)
	}
	if i >= len(b) || b[i] != '{' {
		return i, false
	}
	return i + 1, true
}

// sniffMember reads the member at b[i] and the comma or brace after it: its name, and its value
// when the name is kind or apiVersion (a plain string, else not ok), the other values skipped;
// next is the index past the comma, and last says a brace closed the object instead.
func sniffMember(b []byte, i int) (name, value []byte, next int, last, ok bool) {
	if name, i, ok = sniffString(b, skipSpace(b, i)); !ok {
		return nil, nil, i, false, false
	}
	if i = skipSpace(b, i); i >= len(b) || b[i] != ':' {
		return nil, nil, i, false, false
	}
	i = skipSpace(b, i+1)
	if n := string(name); n == "kind" || n == "apiVersion" {
		value, i, ok = sniffString(b, i)
	} else {
		i, ok = skipJSONValue(b, i)
	}
	if i = skipSpace(b, i); !ok || i >= len(b) || b[i] != ',' && b[i] != '}' {
		return nil, nil, i, false, false
	}
	return name, value, i + 1, b[i] == '}', true
}

// skipJSONValue returns the index just past the JSON value at b[i], reading bytes only: strings
// (with their escapes) and the brackets of objects and arrays are matched, anything else runs to
// the next delimiter. It does not validate: ok is false only when b ends first.
func skipJSONValue(b []byte, i int) (end int, ok bool) {
	depth := 0
	for ; i < len(b); i++ {
		switch b[i] {
		case '"':
			if i, ok = closingQuote(b, i); !ok {
				return i, false
			}
		case '{', '[':
			depth++
		case '}', ']':
			if depth == 0 {
				return i, true // the end of the enclosing object: a scalar ran up to it
			}
			depth--
		case ',', ' ', '\t', '\n', '\r':
			if depth == 0 {
				return i, true
			}
		}
		if depth == 0 && (b[i] == '"' || b[i] == '}' || b[i] == ']') {
			return i + 1, true
		}
	}
	return i, false
}

// closingQuote is the index of the quote that ends the string opened at b[i], its escapes
// skipped; not ok when b ends first.
func closingQuote(b []byte, i int) (int, bool) {
	for i++; i < len(b) && b[i] != '"'; i++ {
		if b[i] == '\\' {
			i++
		}
	}
	return i, i < len(b)
}

// sniffString reads a JSON string at b[i] made of printable ASCII without escapes.
func sniffString(b []byte, i int) (s []byte, end int, ok bool) {
	if i >= len(b) || b[i] != '"' {
		return nil, i, false
	}
	for j := i + 1; j < len(b); j++ {
		switch c := b[j]; {
		case c == '"':
			return b[i+1 : j], j + 1, j > i+1
		case c < 0x20 || c >= 0x7f || c == '\\':
			return nil, j, false
		}
	}
	return nil, len(b), false
}

// typeMetaString is b as a string, without making one for the kinds and apiVersions a
// recording holds on nearly every line.
func typeMetaString(b []byte) string {
	switch string(b) {
	case "Pod":
		return "Pod"
	case "Event":
		return "Event"
	case "v1":
		return "v1"
	}
	return string(b)
}

func skipSpace(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r') {
		i++
	}
	return i
}
