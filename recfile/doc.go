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
// # What translation reads
//
// The members of a Pod and of a core/v1 Event that translation reads are declared once, in
// translatedFields (fields_test.go). TestTranslatedFieldsAreDeclared changes every member of a
// few objects, one at a time, and fails when one whose change changes the observation is not
// declared, or one declared changes nothing. TestFastDecodeReadsEveryTranslatedField writes
// objects with each declared member changed as recording lines and fails unless the fast
// decoder (the token reader of fastdecode.go and tokenread.go) takes each line, and it, the
// slim decode of slimdecode.go and watch.Slim each give the observation of the whole object. So
// a member translation starts to read fails a test until it is declared, and then until every
// one of them keeps it. Lines of other shapes are held to the library's decoding by
// TestTokenLineReadsAsLibrary and FuzzTokenLine.
//
// # What a caller may keep
//
// One rule for everything a Reader hands out (items, their objects, observations, Notes, the
// Header): it is the caller's to keep, and read-only. Read-only because a Pod shares its spec's
// slices and maps with the other pods of the recording decoded from the same spec text (the
// spec cache). Two modes, set before the first read, hand out less, for callers that apply each
// observation to a timeline.Builder (which copies what it keeps) before they read the next:
//   - Transient: an item of a Pod or a core/v1 Event holds no object (Object is nil); only its
//     observation is handed out, and Next refuses to read.
//   - Reuse (transient too): an observation of a Pod or a core/v1 Event is good only until the
//     next call to the reader; keep nothing of it past that call.
//
// Slim changes what an object holds (what watch.Slim keeps), not how long it may be kept.
package recfile
