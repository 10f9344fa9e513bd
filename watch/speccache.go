package watch

import (
	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
	corev1 "k8s.io/api/core/v1"
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
	opts  json.Options // to decode a spec: the line's, without this cache
	hits  int          // specs that were not decoded again, for tests
}

// unmarshaler reads a PodSpec through the cache.
func (c *specCache) unmarshaler() *json.Unmarshalers {
	return json.UnmarshalFromFunc(func(dec *jsontext.Decoder, spec *corev1.PodSpec) error {
		raw, err := dec.ReadValue()
		if err != nil {
			return err
		}
		if s, ok := c.specs[string(raw)]; ok {
			c.hits++
			*spec = *s
			return nil
		}
		var s corev1.PodSpec
		if err := json.Unmarshal(raw, &s, c.opts); err != nil {
			return err
		}
		if c.specs == nil || len(c.specs) >= specCacheSize {
			c.specs = make(map[string]*corev1.PodSpec)
		}
		c.specs[string(raw)] = &s
		*spec = s
		return nil
	})
}
