package recfile

import (
	"bytes"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
	"github.com/sidecar-top/sidecar-top/watch"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// specCacheSize is how many distinct pod specs a specCache holds before it starts again: more
// than the pods whose updates a stretch of a recording interleaves.
const specCacheSize = 4096

// specCache decodes each distinct pod spec once. A pod's spec is nearly half of each of its
// lines in a recording, and it rarely changes: the scheduler sets nodeName, and that is all for
// most pods. So a spec whose JSON text is byte for byte one seen before is not decoded again;
// its pod gets a copy of the PodSpec decoded then, sharing its slices and maps, which nothing
// that reads a recording changes. One decoding worker owns one specCache.
type specCache struct {
	specs map[string]*corev1.PodSpec
	hits  int  // specs that were not decoded again, for tests
	marks int  // of hits, those a line was read with marked (markedSpec), for tests
	slim  bool // it holds what Slim keeps of each spec
}

// wirePod decodes a Pod as a line holds it into the Pod it points into, with the spec read
// through a specCache: a type of its own, whose method the decoder finds once, rather than an
// unmarshaler by type in the options, which the decoder would look up for every value of every
// object. Its members are the Pod's (TestWirePodIsPod); the Pod is new, so a null member leaves
// the zero value, as decoding the Pod itself does.
type wirePod struct {
	Kind       *string            `json:"kind,omitempty"`
	APIVersion *string            `json:"apiVersion,omitempty"`
	ObjectMeta *metav1.ObjectMeta `json:"metadata,omitempty"`
	Spec       cachedSpec         `json:"spec,omitempty"`
	Status     *corev1.PodStatus  `json:"status,omitempty"`
}

func newWirePod(p *corev1.Pod, c *specCache) *wirePod {
	return &wirePod{Kind: &p.Kind, APIVersion: &p.APIVersion, ObjectMeta: &p.ObjectMeta, Spec: cachedSpec{c, &p.Spec}, Status: &p.Status}
}

// cachedSpec is a PodSpec read through a cache.
type cachedSpec struct {
	cache *specCache
	spec  *corev1.PodSpec
}

// UnmarshalJSONFrom implements json.UnmarshalerFrom.
func (s *cachedSpec) UnmarshalJSONFrom(dec *jsontext.Decoder) error {
	from := dec.StackPointer()
	raw, err := dec.ReadValue()
	if err != nil {
		return err
	}
	c := s.cache
	if cached, ok := c.specs[string(raw)]; ok {
		c.hits++
		*s.spec = *cached
		return nil
	}
	var spec corev1.PodSpec
	if err := json.Unmarshal(raw, &spec, dec.Options()); err != nil {
		return within(err, from, dec.InputOffset()-int64(len(raw)))
	}
	if c.slim {
		spec = watch.SlimSpec(&spec)
	}
	if c.specs == nil || len(c.specs) >= specCacheSize {
		c.specs = make(map[string]*corev1.PodSpec)
	}
	c.specs[string(raw)] = &spec
	*s.spec = spec
	return nil
}

// A pod's lines repeat its spec, and the decoder's tokenizer checked every byte of it again
// (jsontext.Decoder.ReadValue, names and all) only for the cache to find the text it had seen:
// over a third of a Job's recording. So before a line is read by the token, find looks for a
// spec text the cache holds where the recorder writes it, between "spec": and ,"status":, and
// tokenLine reads a copy of the line with that text replaced by a single digit (specMark); the
// pod's "spec" member takes the cached spec where it reads that digit at that very place
// (markedSpec). The text cut out is a whole JSON value, as valid as when it was cached, for the
// cache holds only what a decoder read as one: so the marked line is as valid as the line, and a
// match anywhere else (a member "spec" deeper down) is skipped there, or read where no number
// may be, which has the line read again by the library, from the line itself. What it saves a replay
// is small (docs/performance.md, "What it took", has the rounds).

// specMark is what a spec the cache holds is replaced by in a line read by the token.
const specMark = '0'

// find is the spec a line holds as the member "spec" before "status", if the cache holds its
// text, and where that text is in the line.
func (c *specCache) find(b []byte) (spec *corev1.PodSpec, from, to int) {
	if len(c.specs) == 0 {
		return nil, 0, 0
	}
	i := bytes.Index(b, []byte(`"spec":{`))
	if i < 0 {
		return nil, 0, 0
	}
	i += len(`"spec":`)
	n := bytes.Index(b[i:], []byte(`,"status":`))
	if n < 0 {
		return nil, 0, 0
	}
	spec, ok := c.specs[string(b[i:i+n])]
	if !ok {
		return nil, 0, 0
	}
	return spec, i, i + n
}

// markedSpec reads the mark that stands for the spec find found, into s; anything else where a
// mark could be (a number in the line itself, or a mark not where find put it) gives up.
func (r *tokenReader) markedSpec(s *cachedSpec) {
	raw, err := r.dec.ReadValue()
	if err != nil || len(raw) != 1 || r.dec.InputOffset() != r.markEnd {
		r.bad = true
		return
	}
	*s.spec = *r.spec
	s.cache.hits++
	s.cache.marks++
}
