package watch

import (
	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
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
		return err
	}
	if c.slim {
		spec = slimSpec(&spec)
	}
	if c.specs == nil || len(c.specs) >= specCacheSize {
		c.specs = make(map[string]*corev1.PodSpec)
	}
	c.specs[string(raw)] = &spec
	*s.spec = spec
	return nil
}
