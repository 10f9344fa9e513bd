package export

import "strings"

// code is s as a Markdown code span: made safe for the eye (present.Safe), on one line, fenced with
// more backticks than any run of them in s, so that nothing in it is Markdown, HTML, a mention
// or a link. An empty s is an empty pair of quotes in a code span.
func code(s string) string {
	s = strings.Join(strings.Fields(safe(s)), " ")
	if s == "" {
		return "`\"\"`"
	}
	longest, run := 0, 0
	for _, r := range s {
		if r == '`' {
			run++
			longest = max(longest, run)
		} else {
			run = 0
		}
	}
	fence := strings.Repeat("`", longest+1)
	if strings.HasPrefix(s, "`") || strings.HasSuffix(s, "`") {
		s = " " + s + " "
	}
	return fence + s + fence
}

// codeOrEmpty is code(s), or nothing for an empty s.
func codeOrEmpty(s string) string {
	if strings.TrimSpace(s) == "" {
		return ""
	}
	return code(s)
}

// cell makes Markdown fit a table cell: a pipe, even in a code span, would end the cell.
func cell(s string) string { return strings.ReplaceAll(s, "|", `\|`) }

// mdSpecial are the characters that Markdown or HTML may read as more than text in the middle
// of a line: emphasis, code, links and images, HTML and entities, tables, strikethrough, and the
// @ of e-mail autolinks. The colon of a URL (://) is escaped too.
const mdSpecial = "\\`*_[]<>|~&@"

// escapeText escapes every Markdown and HTML character of s with a backslash, so that it reads
// as the characters it is.
func escapeText(s string) string {
	var b strings.Builder
	for i, r := range s {
		if strings.ContainsRune(mdSpecial, r) || (r == ':' && strings.HasPrefix(s[i+1:], "//")) {
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	return b.String()
}

// prose is the tool's own sentence s, in which text from the cluster is quoted in backticks: the
// quoted parts become code spans and the rest has every Markdown character escaped. With
// unbalanced backticks everything is escaped.
func prose(s string) string {
	s = safe(s)
	parts := strings.Split(s, "`")
	if len(parts)%2 == 0 {
		return escapeText(s)
	}
	var b strings.Builder
	for i, p := range parts {
		if i%2 == 1 {
			b.WriteString(code(p))
		} else {
			b.WriteString(escapeText(p))
		}
	}
	return b.String()
}
