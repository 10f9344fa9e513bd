package timeline

import "strconv"

// A pod's lanes are keyed by container name: the API refuses two containers of one name in a
// pod. A hand-edited or hostile object can name two alike (an init sidecar and an app
// container, say), and merged into one lane the first vanished. The second gets a lane of its
// own, under its name and a number (dupKey); its Events find it by the list their field path
// names (spec.initContainers or spec.containers). What names a container by its name alone (a
// log, a gap's end, an assertion) is about the first.

// MaxContainersPerPod is how many containers of a pod have a lane: those past it are left out,
// with a note. No pod the API server stores has as many (its object would pass etcd's 1.5 MiB),
// and the cost of a pod's timeline grows with its lanes: a recording can hold any number.
const MaxContainersPerPod = 10000

// listOf is the list of the pod's spec a container of kind k is in, as an Event's field path
// names it: init (sidecars too), app or ephemeral.
func listOf(k ContainerKind) ContainerKind {
	if k == KindSidecar {
		return KindInit
	}
	return k
}

// dupKey is the key of the nth lane (from 1) after the first of a container name.
func dupKey(name string, n int) string { return name + "\x00" + strconv.Itoa(n) }

// laneOf is the lane of container c, as the pod shows it in the observation ps.obsN: the first
// lane of its name in its list that no other container of this observation took, else one the
// Events made before the pod showed it, else a new one.
func (ps *podState) laneOf(c *ContainerObservation) *laneState {
	list := listOf(c.Kind)
	var unshown *laneState
	key := c.Name
	for n := 1; ; n++ {
		ls := ps.lanes[key]
		if ls == nil {
			break
		}
		if ls.seenIn != ps.obsN {
			if ls.list == list {
				return ps.take(ls, c.Name, list)
			}
			if unshown == nil && !ls.shown {
				unshown = ls
			}
		}
		key = dupKey(c.Name, n)
	}
	if unshown != nil {
		return ps.take(unshown, c.Name, list)
	}
	ls := newLaneState()
	ps.lanes[key] = ls
	ls.dup = key != c.Name
	return ps.take(ls, c.Name, list)
}

// take marks ls as the lane of a container of that name and list in this observation.
func (ps *podState) take(ls *laneState, name string, list ContainerKind) *laneState {
	ls.seenIn, ls.list = ps.obsN, list
	return ls
}

// eventLane is the lane an Event about container name of kind (as its field path says; "" if
// it says none) goes to: the first of that name in that list, else the first of that name,
// else a new one, kept for when the pod shows the container.
func (ps *podState) eventLane(name string, kind ContainerKind) *laneState {
	first := ps.lanes[name]
	if first == nil {
		ls := newLaneState()
		ls.list = listOf(kind)
		ps.lanes[name] = ls
		return ls
	}
	if kind == "" || first.list == listOf(kind) {
		return first
	}
	for n := 1; ; n++ {
		ls := ps.lanes[dupKey(name, n)]
		if ls == nil {
			return first
		}
		if ls.list == listOf(kind) {
			return ls
		}
	}
}
