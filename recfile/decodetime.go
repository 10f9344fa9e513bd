package recfile

import (
	"fmt"
	"time"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// timeUnmarshalers read metav1.Time and metav1.MicroTime as their UnmarshalJSON methods do (null
// is the zero time; a string is parsed with RFC 3339, seconds or microseconds, and made local),
// but from the decoder's token: each of those methods decodes its string again with
// encoding/json, whose fresh decoder state was a sixth of everything the reader allocated. A
// pod line holds a dozen times, so that garbage was collector work on every replay.
var timeUnmarshalers = json.JoinUnmarshalers(
	json.UnmarshalFromFunc(func(dec *jsontext.Decoder, t *metav1.Time) error {
		v, err := readTime(dec, time.RFC3339)
		if err == nil {
			t.Time = v
		}
		return err
	}),
	json.UnmarshalFromFunc(func(dec *jsontext.Decoder, t *metav1.MicroTime) error {
		v, err := readTime(dec, metav1.RFC3339Micro)
		if err == nil {
			t.Time = v
		}
		return err
	}),
)

// readTime reads null (the zero time) or a string in the layout, as local time.
func readTime(dec *jsontext.Decoder, layout string) (time.Time, error) {
	tok, err := dec.ReadToken()
	if err != nil {
		return time.Time{}, err
	}
	switch tok.Kind() {
	case 'n':
		return time.Time{}, nil
	case '"':
		t, err := time.Parse(layout, tok.String())
		if err != nil {
			return time.Time{}, err
		}
		return t.Local(), nil
	}
	return time.Time{}, fmt.Errorf("a time is %s, not a string", tok.Kind())
}
