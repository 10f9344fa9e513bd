// Package recfile is the recording codec: the format of a recording file (Header, its kind and
// version), its writer (Recorder) and its reader (Reader, whose one read is Next, with ReadAll
// and ReadObservations on top), and the reader's fast paths (the token reader, the spec cache,
// the intern table). It is named for the file, not the sample recordings (package recordings
// embeds those) nor the observation sources (package source makes a watch or a reader into
// what play runs on).
//
// # Its place
//
// recfile imports watch, never the other way: the reader translates each line on the goroutine
// that decoded it (watch.Observe), and decodes the object kinds watch defines (watch.Item,
// watch.Note, watch.ContainerLog, watch.KubeletLog); the slim decode keeps what watch.Slim keeps
// (watch.SlimMeta, SlimSpec, SlimJob). watch, the live watch, writes nothing: a run that records hands its items to a
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
// A Reader is read one way: Next hands out the next Record, an item with the observation the
// reader made of it. What a caller wants of the records is said once, when the reader is made
// (Options): whether they hold the objects of the Pods and core/v1 Events whole, slim or not at
// all (Objects). One rule for everything a Reader hands out (records, their items and objects,
// their observations, the Header): it is the caller's to keep, and read-only. Read-only because
// a Pod shares its spec's slices and maps with the other pods of the recording decoded from the
// same spec text (the spec cache).
package recfile
