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
	i := skipSpace(b, 0)
	if i < len(b) && b[i] == ':' {
		i = skipSpace(b, i+1)
	}
	if i >= len(b) || b[i] != '{' {
		return "", "", false
	}
	i++
	for kind == "" || apiVersion == "" {
		var name, value []byte
		if name, i, ok = sniffString(b, skipSpace(b, i)); !ok {
			return "", "", false
		}
		if i = skipSpace(b, i); i >= len(b) || b[i] != ':' {
			return "", "", false
		}
		i = skipSpace(b, i+1)
		switch n := string(name); {
		case n == "kind" || n == "apiVersion":
			if value, i, ok = sniffString(b, i); !ok {
				return "", "", false
			}
			if n == "kind" && kind == "" {
				kind = typeMetaString(value)
			} else if n == "apiVersion" && apiVersion == "" {
				apiVersion = typeMetaString(value)
			} else {
				return "", "", false
			}
		default:
			if i, ok = skipJSONValue(b, i); !ok {
				return "", "", false
			}
		}
		if i = skipSpace(b, i); i >= len(b) || b[i] != ',' && b[i] != '}' {
			return "", "", false
		}
		if b[i] == '}' {
			break
		}
		i++
	}
	if kind == "" || apiVersion == "" {
		return "", "", false
	}
	return kind, apiVersion, true
}

// skipJSONValue returns the index just past the JSON value at b[i], reading bytes only: strings
// (with their escapes) and the brackets of objects and arrays are matched, anything else runs to
// the next delimiter. It does not validate: ok is false only when b ends first.
func skipJSONValue(b []byte, i int) (end int, ok bool) {
	depth := 0
	for ; i < len(b); i++ {
		switch b[i] {
		case '"':
			for i++; i < len(b) && b[i] != '"'; i++ {
				if b[i] == '\\' {
					i++
				}
			}
			if i >= len(b) {
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
