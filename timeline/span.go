package timeline

import (
	"encoding/json"
	"math"
	"strconv"
	"time"
)

// Span is a duration with the bounds it certainly lies in. A side with no bound known (one of
// its milestones has none there) is NoMin or NoMax; JSON leaves that member out.
type Span struct {
	Value time.Duration `json:"value"`
	Min   time.Duration `json:"min"`
	Max   time.Duration `json:"max"`
}

// NoMin and NoMax are a Span's bounds on a side where none is known.
const (
	NoMin = time.Duration(math.MinInt64)
	NoMax = time.Duration(math.MaxInt64)
)

// Bounded reports whether both of the span's bounds are known.
func (s Span) Bounded() bool { return s.Min != NoMin && s.Max != NoMax }

// Plus is the larger distance from Value to a bound: the ± to print; NoMax when a side has no
// bound.
func (s Span) Plus() time.Duration {
	if !s.Bounded() {
		return NoMax
	}
	return max(s.Value-s.Min, s.Max-s.Value)
}

// MarshalJSON writes {"value":v,"min":lo,"max":hi}, without min or max where no bound is known:
// the sentinel's -9223372036854775808 read as a bound would be a false statement.
func (s Span) MarshalJSON() ([]byte, error) { return s.appendJSON(make([]byte, 0, 64)), nil }

func (s Span) appendJSON(b []byte) []byte {
	b = append(b, `{"value":`...)
	b = strconv.AppendInt(b, int64(s.Value), 10)
	if s.Min != NoMin {
		b = append(b, `,"min":`...)
		b = strconv.AppendInt(b, int64(s.Min), 10)
	}
	if s.Max != NoMax {
		b = append(b, `,"max":`...)
		b = strconv.AppendInt(b, int64(s.Max), 10)
	}
	return append(b, '}')
}

// UnmarshalJSON reads what MarshalJSON writes: a missing min or max is no bound on that side.
func (s *Span) UnmarshalJSON(b []byte) error {
	var in struct {
		Value time.Duration  `json:"value"`
		Min   *time.Duration `json:"min"`
		Max   *time.Duration `json:"max"`
	}
	if err := json.Unmarshal(b, &in); err != nil {
		return err
	}
	*s = Span{Value: in.Value, Min: NoMin, Max: NoMax}
	if in.Min != nil {
		s.Min = *in.Min
	}
	if in.Max != nil {
		s.Max = *in.Max
	}
	return nil
}

// Minus is s - o: how much longer s is, with the bounds the two spans' bounds allow (none on a
// side where either has none).
func (s Span) Minus(o Span) Span {
	d := Span{Value: s.Value - o.Value, Min: NoMin, Max: NoMax}
	if s.Min != NoMin && o.Max != NoMax {
		d.Min = s.Min - o.Max
	}
	if s.Max != NoMax && o.Min != NoMin {
		d.Max = s.Max - o.Min
	}
	return d
}
