package main

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"

	"github.com/BurntSushi/toml"
	"github.com/chatrest/chat/management"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// settings are what the command needs to reach an app and the management
// API. Each comes from a flag, else the environment, else the selected
// profile of the configuration file.
type settings struct {
	AppID       string `toml:"app-id,omitempty"`
	Region      string `toml:"region,omitempty"`
	APIKey      string `toml:"api-key,omitempty"`
	BaseURL     string `toml:"base-url,omitempty"`
	CAFile      string `toml:"ca-file,omitempty"`
	MgmtKey     string `toml:"mgmt-key,omitempty"`
	MgmtSecret  string `toml:"mgmt-secret,omitempty"`
	MgmtBaseURL string `toml:"mgmt-base-url,omitempty"`
}

// setting describes one of the settings: its name (the flag's and the
// configuration file's), its environment variable, and whether it is a
// credential, never printed.
type setting struct {
	name   string
	env    string
	secret bool
	usage  string
	field  func(*settings) *string
}

// allSettings are the settings, in the order help shows them.
var allSettings = []setting{
	{name: "app-id", env: "CHAT_APP_ID", usage: "the app's id", field: func(s *settings) *string { return &s.AppID }},
	{name: "region", env: "CHAT_REGION", usage: "the app's region: us, eu or in (default us)", field: func(s *settings) *string { return &s.Region }},
	{name: "api-key", env: "CHAT_API_KEY", secret: true, usage: "the app's REST API key (prefer the environment or a profile: a flag shows in the process list)", field: func(s *settings) *string { return &s.APIKey }},
	{name: "base-url", env: "CHAT_BASE_URL", usage: "the chat API's address instead of the region's, e.g. chattest's", field: func(s *settings) *string { return &s.BaseURL }},
	{name: "ca-file", env: "CHAT_CA_FILE", usage: "a PEM file of certificates to trust besides the system's, e.g. chattest's", field: func(s *settings) *string { return &s.CAFile }},
	{name: "mgmt-key", env: "CHAT_MGMT_KEY", secret: true, usage: "the management API's key", field: func(s *settings) *string { return &s.MgmtKey }},
	{name: "mgmt-secret", env: "CHAT_MGMT_SECRET", secret: true, usage: "the management API's secret", field: func(s *settings) *string { return &s.MgmtSecret }},
	{name: "mgmt-base-url", env: "CHAT_MGMT_BASE_URL", usage: "the management API's address (default https://apimgmt.cometchat.io)", field: func(s *settings) *string { return &s.MgmtBaseURL }},
}

// settingNamed returns the setting called name.
func settingNamed(name string) (setting, bool) {
	for _, s := range allSettings {
		if s.name == name {
			return s, true
		}
	}
	return setting{}, false
}

func settingNames() []string {
	names := make([]string, len(allSettings))
	for i, s := range allSettings {
		names[i] = s.name
	}
	return names
}

// defaultProfile is the profile used when none is selected.
const defaultProfile = "default"

// configFile is the configuration file: profiles of settings, by name, as
// TOML tables.
type configFile struct {
	path     string
	profiles map[string]*settings
}

// configPath returns where the configuration file is: $CHAT_CONFIG, else
// chat/config.toml in the user's configuration directory.
func configPath(getenv func(string) string) (string, error) {
	if p := getenv("CHAT_CONFIG"); p != "" {
		return p, nil
	}
	dir, err := os.UserConfigDir()
	if err != nil {
		return "", usageErrorf("no configuration directory (%v): set CHAT_CONFIG to the configuration file's path", err)
	}
	return filepath.Join(dir, "chat", "config.toml"), nil
}

// loadConfig reads the configuration file at path; a missing file holds no
// profile. A file others may read gets a warning on warn: it holds
// credentials.
func loadConfig(path string, warn io.Writer) (*configFile, error) {
	cf := &configFile{path: path, profiles: map[string]*settings{}}
	info, err := os.Stat(path)
	if errors.Is(err, fs.ErrNotExist) {
		return cf, nil
	}
	if err != nil {
		return nil, usageErrorf("reading the configuration: %v", err)
	}
	if info.Mode().Perm()&0o077 != 0 {
		fmt.Fprintf(warn, "chat: warning: %s may be read by other users (mode %v); it holds credentials: chmod 600 it\n", path, info.Mode().Perm())
	}
	md, err := toml.DecodeFile(path, &cf.profiles)
	var pe toml.ParseError
	switch {
	case errors.As(err, &pe):
		// The parser's message may quote the text of a value, a
		// credential perhaps: it is shown without what it quotes.
		return nil, usageErrorf("reading %s: line %d (last key %q): %s", path, pe.Position.Line, pe.LastKey, quoted.ReplaceAllString(pe.Message, redacted))
	case err != nil:
		return nil, usageErrorf("reading %s: %v", path, err)
	}
	if keys := md.Undecoded(); len(keys) > 0 {
		return nil, usageErrorf("reading %s: unknown setting %q (the settings are %s)", path, keys[0].String(), strings.Join(settingNames(), ", "))
	}
	for name, p := range cf.profiles {
		if p == nil {
			cf.profiles[name] = &settings{}
		}
	}
	return cf, nil
}

// quoted matches the quoted text in a parser's message.
var quoted = regexp.MustCompile(`"[^"]*"|'[^']*'`)

// save writes the file atomically, readable by its owner only: a
// temporary file beside it, synced, then renamed over it.
func (cf *configFile) save() error {
	var buf bytes.Buffer
	names := make([]string, 0, len(cf.profiles))
	for name := range cf.profiles {
		names = append(names, name)
	}
	sort.Strings(names)
	buf.WriteString("# chat command line profiles: chat config --help\n")
	for _, name := range names {
		fmt.Fprintf(&buf, "\n[%s]\n", tomlKey(name))
		if err := toml.NewEncoder(&buf).Encode(cf.profiles[name]); err != nil {
			return err
		}
	}
	if err := os.MkdirAll(filepath.Dir(cf.path), 0o700); err != nil {
		return err
	}
	return writeFileAtomic(cf.path, buf.Bytes(), 0o600)
}

// tomlKey quotes a profile name for a table header when it needs it.
func tomlKey(name string) string {
	for _, r := range name {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_') {
			return fmt.Sprintf("%q", name)
		}
	}
	return name
}

// writeFileAtomic writes data to path so that a reader (or a crash) sees
// either the old file or the new one whole: a temporary file in the same
// directory, written and synced, renamed over path, and the directory
// synced.
func writeFileAtomic(path string, data []byte, perm fs.FileMode) error {
	dir := filepath.Dir(path)
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name()) // fails harmlessly once renamed
	if err := tmp.Chmod(perm); err != nil {
		tmp.Close()
		return err
	}
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return err
	}
	return syncDir(dir)
}

// syncDir makes a rename in dir durable.
func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	if err := d.Sync(); err != nil && !errors.Is(err, errors.ErrUnsupported) {
		return err
	}
	return nil
}

// addSettingFlags adds a flag for each setting to fs.
func addSettingFlags(fs *pflag.FlagSet, s *settings) {
	for _, st := range allSettings {
		fs.StringVar(st.field(s), st.name, "", st.usage+" ($"+st.env+")")
	}
}

// resolveSettings returns the settings in force: each from its flag when
// given, else from the environment, else from the profile. The profile is
// --profile's, else $CHAT_PROFILE's, else "default" when the file has it.
func (c *cli) resolveSettings(cmd *cobra.Command) (*settings, error) {
	path, err := configPath(c.getenv)
	if err != nil {
		return nil, err
	}
	cf, err := loadConfig(path, c.stderr)
	if err != nil {
		return nil, err
	}
	name := c.profile
	if name == "" {
		name = c.getenv("CHAT_PROFILE")
	}
	var prof settings
	switch p, ok := cf.profiles[name]; {
	case name == "":
		if p := cf.profiles[defaultProfile]; p != nil {
			prof = *p
		}
	case !ok:
		return nil, usageErrorf("no profile %q in %s (chat config set --profile %s ... makes one)", name, path, name)
	default:
		prof = *p
	}
	var out settings
	c.sources = map[string]string{}
	for _, st := range allSettings {
		v := *st.field(&prof)
		if v != "" {
			c.sources[st.name] = fmt.Sprintf("profile %s (%s)", cmpOr(name, defaultProfile), path)
		}
		if e := c.getenv(st.env); e != "" {
			v = e
			c.sources[st.name] = "environment ($" + st.env + ")"
		}
		if f := cmd.Flags().Lookup(st.name); f != nil && f.Changed {
			v = f.Value.String()
			c.sources[st.name] = "flag (--" + st.name + ")"
		}
		*st.field(&out) = v
	}
	c.hide(out.APIKey, out.MgmtKey, out.MgmtSecret)
	c.settings = &out
	return &out, nil
}

// configCmd manages the profiles of the configuration file.
func (c *cli) configCmd() *cobra.Command {
	cmd := groupCmd("config", "Manage the profiles of the configuration file",
		`A profile is a named set of settings in the configuration file, selected with
--profile or $CHAT_PROFILE ("default" when neither is given). The file is
$CHAT_CONFIG, else chat/config.toml in the user's configuration directory; it is
written readable by its owner only. Flags win over the environment, which wins
over the profile.

The settings: `+strings.Join(settingNames(), ", ")+`.`)
	cmd.AddCommand(
		&cobra.Command{
			Use:   "set SETTING VALUE",
			Short: "Set a setting of the profile (VALUE - reads it from standard input)",
			Long: `Set a setting of the selected profile, creating the profile and the file when
needed. A VALUE of - reads the value from the first line of standard input, so
that a credential stays out of the shell's history and the process list:

  printf '%s\n' "$KEY" | chat config set api-key - --profile staging`,
			Args:              exactArgs(2),
			ValidArgsFunction: completeSettings,
			RunE: func(cmd *cobra.Command, args []string) error {
				st, ok := settingNamed(args[0])
				if !ok {
					return usageErrorf("unknown setting %q (the settings are %s)", args[0], strings.Join(settingNames(), ", "))
				}
				value := args[1]
				if value == "-" {
					line, err := bufio.NewReader(c.stdin).ReadString('\n')
					if err != nil && !errors.Is(err, io.EOF) {
						return err
					}
					value = strings.TrimRight(line, "\r\n")
				}
				return c.editProfile(func(p *settings) { *st.field(p) = value })
			},
		},
		&cobra.Command{
			Use:               "unset SETTING",
			Short:             "Remove a setting from the profile",
			Args:              exactArgs(1),
			ValidArgsFunction: completeSettings,
			RunE: func(cmd *cobra.Command, args []string) error {
				st, ok := settingNamed(args[0])
				if !ok {
					return usageErrorf("unknown setting %q (the settings are %s)", args[0], strings.Join(settingNames(), ", "))
				}
				return c.editProfile(func(p *settings) { *st.field(p) = "" })
			},
		},
		&cobra.Command{
			Use:   "list",
			Short: "Show the profiles and their settings (credentials as set or not)",
			Args:  exactArgs(0),
			RunE: func(cmd *cobra.Command, args []string) error {
				path, err := configPath(c.getenv)
				if err != nil {
					return err
				}
				cf, err := loadConfig(path, c.stderr)
				if err != nil {
					return err
				}
				t := newTable(c.stdout, "PROFILE", "SETTING", "VALUE")
				names := make([]string, 0, len(cf.profiles))
				for name := range cf.profiles {
					names = append(names, name)
				}
				slices.Sort(names)
				for _, name := range names {
					for _, st := range allSettings {
						v := *st.field(cf.profiles[name])
						if v == "" {
							continue
						}
						if st.secret {
							v = "(set)"
						}
						t.row(name, st.name, v)
					}
				}
				return t.flush()
			},
		},
		&cobra.Command{
			Use:   "show",
			Short: "Show each setting in effect and where it comes from (credentials masked)",
			Long: `Show each setting the commands would use, and where it comes from: a flag,
the environment, the profile (and the configuration file), or the default.
Credentials show as set or not, never their value.`,
			Args: exactArgs(0),
			RunE: func(cmd *cobra.Command, args []string) error {
				s, err := c.resolveSettings(cmd)
				if err != nil {
					return err
				}
				t := newTable(c.stdout, "SETTING", "VALUE", "SOURCE")
				for _, st := range allSettings {
					v, src := *st.field(s), c.sources[st.name]
					switch {
					case v == "" && settingDefault(st.name, s) != "":
						v, src = settingDefault(st.name, s), "default"
					case v == "":
						v, src = "(not set)", ""
					case st.secret:
						v = "(set)"
					}
					t.row(st.name, v, src)
				}
				profile, src := c.profile, "flag (--profile)"
				if profile == "" {
					profile, src = c.getenv("CHAT_PROFILE"), "environment ($CHAT_PROFILE)"
				}
				if profile == "" {
					profile, src = defaultProfile, "default"
				}
				t.row("profile", profile, src)
				path, _ := configPath(c.getenv)
				src = "default"
				if c.getenv("CHAT_CONFIG") != "" {
					src = "environment ($CHAT_CONFIG)"
				}
				t.row("config", path, src)
				return t.flush()
			},
		},
		&cobra.Command{
			Use:   "path",
			Short: "Print the configuration file's path",
			Args:  exactArgs(0),
			RunE: func(cmd *cobra.Command, args []string) error {
				path, err := configPath(c.getenv)
				if err != nil {
					return err
				}
				_, err = fmt.Fprintln(c.stdout, path)
				return err
			},
		},
	)
	return cmd
}

// settingDefault is the value a setting has when nothing sets it, "" when
// none.
func settingDefault(name string, s *settings) string {
	switch name {
	case "region":
		return "us"
	case "base-url":
		if s.AppID == "" {
			return ""
		}
		return "https://" + s.AppID + ".api-" + cmpOr(s.Region, "us") + ".cometchat.io/v3"
	case "mgmt-base-url":
		return management.DefaultBaseURL
	}
	return ""
}

// editProfile applies edit to the selected profile and saves the file.
func (c *cli) editProfile(edit func(*settings)) error {
	path, err := configPath(c.getenv)
	if err != nil {
		return err
	}
	cf, err := loadConfig(path, c.stderr)
	if err != nil {
		return err
	}
	name := c.profile
	if name == "" {
		name = c.getenv("CHAT_PROFILE")
	}
	if name == "" {
		name = defaultProfile
	}
	p := cf.profiles[name]
	if p == nil {
		p = &settings{}
		cf.profiles[name] = p
	}
	edit(p)
	if err := cf.save(); err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	return nil
}

func completeSettings(_ *cobra.Command, args []string, _ string) ([]string, cobra.ShellCompDirective) {
	if len(args) > 0 {
		return nil, cobra.ShellCompDirectiveNoFileComp
	}
	return settingNames(), cobra.ShellCompDirectiveNoFileComp
}
