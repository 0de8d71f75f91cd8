package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/chatrest/chat/chattest"
	"github.com/chatrest/chat/cmd/chattest/platform"
)

// stateFlags are the flags that keep, seed and export the state.
type stateFlags struct {
	data, seed, export *string
	sync               *bool
}

// addStateFlags defines -data, -sync, -seed and -export on fs.
func addStateFlags(fs *flag.FlagSet) stateFlags {
	return stateFlags{
		data:   fs.String("data", "", "keep the state in `dir` (created if missing) across stops, crashes included"),
		sync:   fs.Bool("sync", false, "with -data, sync each change to the disk before answering it, so that a crash of the machine loses nothing answered (slower; by default the disk is synced every 100 ms)"),
		seed:   fs.String("seed", "", "start from the state `file` (see -export); with -data, only when dir holds no state yet"),
		export: fs.String("export", "", "write the state of -data (or -seed) to `file` (- for stdout) and exit, serving nothing"),
	}
}

// open opens the handler of opts with the state the flags name. With
// -export, it writes the state to the file and returns a nil handler: the
// command is done.
func (f stateFlags) open(opts []chattest.Option, stdout io.Writer) (*chattest.Handler, error) {
	if *f.sync && *f.data == "" {
		return nil, usagef("-sync needs -data: without it the state is in memory only")
	}
	if *f.data != "" {
		var dirOpts []platform.DataDirOption
		if *f.sync {
			dirOpts = append(dirOpts, platform.SyncEachChange())
		}
		opts = append(opts, platform.WithDataDir(*f.data, dirOpts...))
	}
	if *f.seed != "" {
		opts = append(opts, chattest.WithSeedFile(*f.seed))
	}
	if *f.export == "" {
		return chattest.OpenHandler(opts...)
	}
	if *f.data == "" && *f.seed == "" {
		return nil, usagef("-export needs -data or -seed: there is no state to export")
	}
	if *f.data != "" {
		if _, err := os.Stat(*f.data); err != nil {
			return nil, fmt.Errorf("-data: %w", err) // not created only to export nothing
		}
	}
	h, err := chattest.OpenHandler(opts...)
	if err != nil {
		return nil, err
	}
	err = exportTo(h, *f.export, stdout)
	return nil, errors.Join(err, h.Close())
}

// where says where the state lives, for the banner.
func (f stateFlags) where() string {
	switch {
	case *f.data != "":
		if *f.sync {
			return fmt.Sprintf("kept in %q (every change is synced to the disk before it is answered)", *f.data)
		}
		return fmt.Sprintf("kept in %q (every change is saved before it is answered, and synced to the disk within 100 ms)", *f.data)
	case *f.seed != "":
		return fmt.Sprintf("started from %q, in memory (it forgets the changes when it stops)", *f.seed)
	}
	return "in memory (it forgets everything when it stops)"
}

// exportTo writes h's state to the file path, or to stdout for "-".
func exportTo(h *chattest.Handler, path string, stdout io.Writer) error {
	if path == "-" {
		return h.Export(stdout)
	}
	// The state holds the credentials it issued: the file is the owner's
	// only, even when it existed before.
	out, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o600)
	if err != nil {
		return fmt.Errorf("-export: %w", err)
	}
	if err := out.Chmod(0o600); err != nil {
		out.Close()
		return fmt.Errorf("-export: %w", err)
	}
	if err := h.Export(out); err != nil {
		out.Close()
		return fmt.Errorf("-export: %w", err)
	}
	return out.Close()
}

// credentials are the server's own API key and management credentials.
type credentials struct {
	APIKey           string `json:"apiKey"`
	ManagementKey    string `json:"managementKey"`
	ManagementSecret string `json:"managementSecret"`
}

// credentialsFile is the file of a data directory that keeps the
// credentials generated at its first start.
const credentialsFile = "credentials.json"

// credentials returns the credentials to serve (or export) with. With
// -data they are those kept in the directory, generated and written there
// (readable by its owner only) at its first start, so that the environment
// printed then stays good across restarts; kept reports it. Otherwise
// they are new.
func (f stateFlags) credentials() (c credentials, kept bool, err error) {
	fresh := credentials{APIKey: randomKey(), ManagementKey: randomKey(), ManagementSecret: randomKey()}
	if *f.data == "" {
		return fresh, false, nil
	}
	path := filepath.Join(*f.data, credentialsFile)
	b, err := os.ReadFile(path)
	switch {
	case err == nil:
		if json.Unmarshal(b, &c) != nil || c.APIKey == "" || c.ManagementKey == "" || c.ManagementSecret == "" {
			return credentials{}, false, fmt.Errorf("-data: %s holds no credentials (remove it to generate new ones)", path)
		}
		if *f.export == "" { // an export writes nothing to the directory
			if err := os.Chmod(path, 0o600); err != nil { // the owner's only, even when copied in with other permissions
				return credentials{}, false, fmt.Errorf("-data: %w", err)
			}
		}
		return c, true, nil
	case !errors.Is(err, fs.ErrNotExist):
		return credentials{}, false, fmt.Errorf("-data: %w", err)
	case *f.export != "":
		return fresh, false, nil // an export writes nothing to the directory
	}
	if err := os.MkdirAll(*f.data, 0o700); err != nil {
		return credentials{}, false, fmt.Errorf("-data: %w", err)
	}
	out, err := json.MarshalIndent(fresh, "", "\t")
	if err != nil {
		return credentials{}, false, err
	}
	if err := os.WriteFile(path, append(out, '\n'), 0o600); err != nil {
		return credentials{}, false, fmt.Errorf("-data: %w", err)
	}
	return fresh, true, nil
}
