// Package recfile is the recording codec: the format of a recording file (Header, its kind and
// version), its writer (Recorder) and its reader (Reader, ReadAll, ReadObservations), with the
// reader's fast paths (the token reader, the spec cache, the intern table, the slab). It is
// named for the file, not the sample recordings (package recordings embeds those) nor the
// observation sources (package source makes a watch or a reader into what play runs on).
//
// # Its place
//
// recfile imports watch, never the other way: the reader translates each line on the
// goroutine that decoded it (watch.Observe, watch.FillPod and watch.FillEvent into its slab),
// and decodes the object kinds watch defines (watch.Item, watch.Note, watch.ContainerLog,
// watch.KubeletLog); the slim decode keeps what watch.Slim keeps (watch.SlimMeta, SlimSpec,
// SlimJob). watch, the live watch, writes nothing: a run that records hands its items to a
// Recorder (package source). A replay still links watch for that translation; moving the
// translation and the item types into a package below both would leave client-go out of a
// replay-only build.
//
// # What a caller may keep
//
// One rule for everything a Reader hands out: an Item, its Object and an observation are the
// caller's to keep, and are read-only, until the reader is told otherwise. Read-only because
// a Pod shares its spec's slices and maps with the other pods of the recording decoded from the
// same spec text (the spec cache), and strings with other lines. The two modes that reuse
// memory narrow what is kept, and are for callers that apply each observation to a
// timeline.Builder (which copies what it keeps) before they read the next:
//   - Transient: an item of a Pod or a core/v1 Event holds no object (Object is nil); only its
//     observation is handed out, and Next refuses to read.
//   - Reuse (transient too): an observation of a Pod or a core/v1 Event is good only until the
//     next call to the reader; keep nothing of it past that call.
//
// The Header is the caller's to keep. Slim changes what an object holds (what watch.Slim
// keeps), not how long it may be kept.
package recfile
