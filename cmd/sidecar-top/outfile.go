package main

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
)

// Every file sidecar-top writes (export -o, --export FORMAT=FILE, check --junit, record -o) goes
// through this file's helpers, for two rules: an output never overwrites an input, and a run
// that fails leaves no half-written file behind.

// inputFiles are the files a run reads: its recordings, standard input when it is a file, the
// kubeconfig files, a --marks file. No output may be one of them.
type inputFiles []inputFile

type inputFile struct {
	name string
	info os.FileInfo
}

// add adds the file name names, as it is now (symbolic links followed); "-" is standard input,
// when that is a file. A name that names nothing is not read, so it is not added.
func (in *inputFiles) add(name string, stdin io.Reader) {
	var fi os.FileInfo
	var err error
	if name == "-" {
		f, ok := stdin.(*os.File)
		if !ok {
			return
		}
		name = "standard input"
		fi, err = f.Stat()
	} else {
		fi, err = os.Stat(name)
	}
	if err == nil {
		*in = append(*in, inputFile{name, fi})
	}
}

// inputs are the files the kubectl flags and the logs' flags have a run read: the kubeconfig
// files (--kubeconfig, else those $KUBECONFIG lists, else ~/.kube/config) and a --marks file.
func (k *kubeOptions) inputs() inputFiles {
	var in inputFiles
	files := k.config.rules.GetLoadingPrecedence()
	if p := k.config.rules.ExplicitPath; p != "" {
		files = []string{p}
	}
	for _, f := range files {
		in.add(f, nil)
	}
	if k.logs.marksFile != "" {
		in.add(k.logs.marksFile, nil)
	}
	return in
}

// refuse is an error if path, its symbolic links followed, is one of the inputs, or cannot be
// written (canWrite). Each output is refused before any work, so that a run never fails at its
// end for a name it could have refused at its start.
func (in inputFiles) refuse(what, path string) error {
	if err := in.sameAsInput(what, path); err != nil {
		return err
	}
	return canWrite(what, path)
}

// sameAsInput is an error if path, its symbolic links followed, is one of the inputs (the same
// file: os.SameFile, so a hard link to one is refused too); nil otherwise, and for a path that
// names nothing yet.
func (in inputFiles) sameAsInput(what, path string) error {
	fi, err := os.Stat(path)
	if err != nil {
		return nil
	}
	for _, i := range in {
		if os.SameFile(fi, i.info) {
			same := "is " + i.name
			if i.name != path {
				same = "is the same file as " + i.name
			}
			return fmt.Errorf("%s %s %s, which this run reads: sidecar-top never writes over its input; choose another file", what, path, same)
		}
	}
	return nil
}

// writeOutput writes a file as write writes it, to path, refusing an input (inputFiles.refuse).
// A regular file is written whole or not at all: into a new file beside it, renamed over path
// once write has succeeded, and removed if it fails, so that a run that fails leaves path as it
// was. A path that names something else (a device such as /dev/stdout, a named pipe) is written
// to directly: it cannot be replaced. what names the output in errors (--junit, export).
func writeOutput(what, path string, in inputFiles, write func(io.Writer) error) error {
	if err := in.refuse(what, path); err != nil {
		return err
	}
	real := path
	if r, err := filepath.EvalSymlinks(path); err == nil {
		real = r // a link is written through, as os.Create would, not replaced
	}
	fi, statErr := os.Stat(real)
	if statErr == nil && !fi.Mode().IsRegular() {
		f, err := os.OpenFile(real, os.O_WRONLY, 0)
		if err != nil {
			return fmt.Errorf("%s: %w", what, err)
		}
		err = write(f)
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			return fmt.Errorf("%s %s: %w", what, path, err)
		}
		return nil
	}
	tmp, err := createBeside(real)
	if err != nil {
		return fmt.Errorf("%s: %w", what, err)
	}
	err = write(tmp)
	if statErr == nil && err == nil {
		err = tmp.Chmod(fi.Mode().Perm()) // the file it replaces keeps its permissions
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = in.sameAsInput(what, real) // it may have become one while the output was written
	}
	if err == nil {
		err = os.Rename(tmp.Name(), real)
	}
	if err != nil {
		os.Remove(tmp.Name())
		return fmt.Errorf("%s %s: %w", what, path, err)
	}
	return nil
}

// createBeside creates a new, hidden file in the directory of path, with the permissions a new
// file gets there (0666 less the umask), to be renamed over path.
func createBeside(path string) (*os.File, error) {
	dir, base := filepath.Split(path)
	if len(base) > 100 {
		base = base[:100] // the name must stay within the file system's limit, 255 bytes
	}
	for range 100 {
		name := filepath.Join(dir, fmt.Sprintf(".%s.%08x.tmp", base, rand.Uint32()))
		f, err := os.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o666)
		if !errors.Is(err, os.ErrExist) {
			return f, err
		}
	}
	return nil, fmt.Errorf("cannot create a file beside %s", path)
}

// canWrite is an error if path cannot be written as writeOutput writes it: a directory, or a
// file in a directory that does not exist or that this user cannot create files in (tried with
// a file created beside path and removed). A device or a named pipe is written to directly,
// and "-" is standard output.
func canWrite(what, path string) error {
	if path == "-" {
		return nil
	}
	real := path
	if r, err := filepath.EvalSymlinks(path); err == nil {
		real = r
	}
	if fi, err := os.Stat(real); err == nil && fi.IsDir() {
		return fmt.Errorf("%s %s is a directory: name a file", what, path)
	} else if err == nil && !fi.Mode().IsRegular() {
		return nil
	}
	dir := filepath.Dir(real)
	if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
		return fmt.Errorf("%s %s: there is no directory %s", what, path, dir)
	}
	f, err := createBeside(real)
	if err != nil {
		var pe *fs.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		return fmt.Errorf("%s %s: cannot write in %s: %w", what, path, dir, err)
	}
	f.Close()
	os.Remove(f.Name())
	return nil
}
