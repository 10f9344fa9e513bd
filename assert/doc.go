// Package assert is the small expression language of `sidecar-top check`: assertions about a
// pod's timeline, such as
//
//	app.start - proxy.started < 3s
//	gap("app SIGTERM → app exit") < 5s
//	sidecar.restarts == 0 && count(findings, warning) == 0
//
// An assertion is parsed once (Parse), its container names are checked against a snapshot
// (Assertion.Check), and it is evaluated against each pod (Assertion.Eval) to true, false or
// uncertain.
//
// # Grammar
//
//	assertion  = or
//	or         = and { "||" and }
//	and        = unary { "&&" unary }
//	unary      = "!" unary | comparison
//	comparison = sum [ ( "<" | "<=" | ">" | ">=" | "==" | "!=" ) sum ]
//	sum        = term { ( "+" | "-" ) term }
//	term       = "-" term | "(" or ")" | DURATION | NUMBER | count | gap | milestone | restarts
//	milestone  = lane "." KIND [ "[" ATTEMPT "]" ]
//	restarts   = lane ".restarts"
//	lane       = NAME | STRING | "pod"
//	count      = "count" "(" "findings" [ "," ( "warning" | "info" ) ] ")"
//	gap        = "gap" "(" STRING ")" | "gap" "(" milestone "," milestone ")"
//
// NAME is a container's name as Kubernetes spells it (letters, digits, - and _): a - inside a
// name belongs to it, so init-sleep.exit is the container init-sleep; put spaces around a minus
// between two names. A container whose name is not a NAME (it starts with a digit, or is "pod")
// is written as a STRING: "1st".start. A STRING is double-quoted with Go's escapes.
// DURATION is a number with a unit, ms, s, m or h, or several: 500ms, 1.5s, 1m30s; a space
// may come before a single unit (5 s, 500 ms). NUMBER is a plain number: 0, 2, 0.5. ATTEMPT is
// a whole number.
//
// # What names mean
//
// A milestone is the time something happened. A container's KIND is one of created, waiting,
// start, restart, started, ready, not_ready, probe_failed, back_off, prestop, sigterm and exit;
// the pod's (pod.KIND) one of created, scheduled, initialized, containers_ready, ready,
// not_ready, deleting, deleted and phase (it reached Succeeded or Failed). The timeline's
// kinds with a - are written with _ (not-ready is not_ready).
//
// A container runs more than once when it restarts: [n] picks the run after n restarts (0 the
// first), so app.exit[0] is the first run's exit, and app.restart[2] is the second restart.
// Without [n], the kinds that begin a run (created, waiting, start, started, ready,
// probe_failed) read the first run that has one, and the others (restart, not_ready, back_off,
// prestop, sigterm, exit) the latest: app.start is when the app first started, app.exit when it
// last exited, which are the runs the named gaps read. Pod milestones have no [n]: pod.ready is
// the first time the pod was Ready, pod.not_ready the latest time it stopped being Ready.
//
// lane.restarts is the container's restart count (a number); count(findings) is the number of
// the pod's findings, count(findings, warning) of its warnings only.
//
// gap("FROM → TO") is one of the pod's named gaps, by the name sidecar-top prints (-> may be
// written for →; case and spacing do not matter; "pod deletion → last exit" matches whatever
// container exited last). gap(a.KIND, b.KIND) is the named gap from that milestone to that one,
// e.g. gap(app.sigterm, app.exit). A named gap knows what the difference of two times does not:
// the kubelet's order, so its bounds are never below zero.
//
// # Types
//
// Every expression has one of four types, checked when it is parsed: a time (a milestone), a
// duration (a DURATION, a gap, or a time minus a time), a number (a NUMBER, restarts, count)
// or a truth (a comparison, or &&, || and ! of truths). A time minus a time is a duration; a
// time plus or minus a duration is a time; durations add to durations and numbers to numbers.
// A comparison compares two values of one type, time, duration or number; anything else, such
// as a time with a count or a duration with a plain number (write 3s, not 3), is an error, and
// so is an assertion that is not a truth. ! applies to the comparison after it: !a < b is
// !(a < b). Comparisons do not chain: write a < b && b < c.
//
// # Uncertainty
//
// Every milestone's time is an interval [earliest, latest] it certainly lies in, with an
// estimate inside it; so is every duration computed from them (a - b lies in
// [a.earliest - b.latest, a.latest - b.earliest]). Literals and counts are exact. A comparison
// is true when it holds for every pair of values in its two intervals, false when it holds for
// none, and uncertain otherwise: app.exit - app.sigterm < 5s is true if the difference is at
// most 4.9 s whichever way the seconds fall, false if it is at least 5 s, and uncertain when the
// interval straddles 5 s. == is true only of two exact equal values. !(a < b) has the truth
// of a >= b, and its values are shown so compared; a count of findings is shown with the IDs
// of the findings it counted, 1 (crash-loop) == 0.
//
// The estimate never decides: it is a best guess, and a gate that passed on it would pass
// regressions the evidence cannot rule out, or fail runs the evidence cannot blame. Deciding
// only what the bounds prove makes a verdict reproducible from the recording alone. &&, || and
// ! combine true, false and uncertain as Kleene's three-valued logic does (false && uncertain is
// false, true || uncertain is true, !uncertain is uncertain). An uncertain assertion is
// reported as such; `sidecar-top check` counts it as a failure unless --allow-uncertain is
// given, since what could not be shown to hold has not been shown to hold. An uncertain
// verdict usually means whole-second API times: widen the threshold, or look at the bounds the
// check prints.
//
// An assertion that reads a milestone, container or gap a pod does not have is false for that
// pod, and says what is missing: a CI gate must not pass because the thing it guards never
// happened.
package assert
