package fleet

import (
	"strings"

	"github.com/sidecar-top/sidecar-top/timeline"
)

// Owner is the workload a pod belongs to, as a user names it: a Deployment rather than its
// ReplicaSet, a CronJob rather than its Job. Kind is "" for a pod of its own.
type Owner struct {
	Kind, Name string
}

// String is Kind/Name, or "" for a pod of its own.
func (o Owner) String() string {
	if o.Kind == "" {
		return ""
	}
	return o.Kind + "/" + o.Name
}

// OwnerOf is the workload of a pod with controller ref: the ReplicaSet's Deployment when the
// ReplicaSet's name is a Deployment's name and a pod-template hash (as the Deployment
// controller names them), the Job's CronJob when the Job's name is a CronJob's name and a
// scheduled time in minutes (as the CronJob controller names them); else the controller itself.
// jobOwner, when it knows the Job (a watched one), says its owner exactly.
func OwnerOf(ref *timeline.OwnerRef, jobOwner func(name string) (Owner, bool)) Owner {
	if ref == nil {
		return Owner{}
	}
	switch ref.Kind {
	case "ReplicaSet":
		if base, hash, ok := cutLast(ref.Name); ok && isPodTemplateHash(hash) {
			return Owner{"Deployment", base}
		}
	case "Job":
		if jobOwner != nil {
			if o, ok := jobOwner(ref.Name); ok {
				return o
			}
		}
		if base, minutes, ok := cutLast(ref.Name); ok && len(minutes) >= 8 && allDigits(minutes) {
			return Owner{"CronJob", base}
		}
	}
	return Owner{ref.Kind, ref.Name}
}

// cutLast cuts s at its last '-'.
func cutLast(s string) (before, after string, ok bool) {
	i := strings.LastIndexByte(s, '-')
	if i <= 0 || i == len(s)-1 {
		return s, "", false
	}
	return s[:i], s[i+1:], true
}

// isPodTemplateHash reports whether s can be a pod-template hash: the Deployment controller
// writes it with apimachinery's SafeEncodeString, whose alphabet has no vowels and no 0, 1, 3.
func isPodTemplateHash(s string) bool {
	if len(s) < 5 || len(s) > 10 {
		return false
	}
	for i := 0; i < len(s); i++ {
		if !strings.ContainsRune("bcdfghjklmnpqrstvwxz2456789", rune(s[i])) {
			return false
		}
	}
	return true
}

func allDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return s != ""
}
