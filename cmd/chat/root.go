package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/chatrest/chat"
	"github.com/spf13/cobra"
	"golang.org/x/term"
)

// The exit statuses, as "chat --help" documents them.
const (
	exitOK          = 0
	exitAPI         = 1 // the API refused a call, or the network or the service failed
	exitUsage       = 2 // a bad command, flag, argument, file or configuration
	exitRefused     = 3 // an import finished, but the API refused some records
	exitInterrupted = 130
)

// cli is one run of the command: its streams, environment and global flags.
type cli struct {
	stdin          io.Reader
	stdout, stderr *redactor
	getenv         func(string) string
	errTerminal    bool // stderr is a terminal: progress bars
	inTerminal     bool // stdin is a terminal: a destructive command asks

	// net counts the attempts that failed to reach the API, for the
	// error that ends the command.
	net netAttempts

	profile string
	jsonOut bool
	debug   bool
	timeout time.Duration
	flagSet settings // the settings' flags; resolveSettings reads those given

	settings *settings         // the settings in force, once resolved
	sources  map[string]string // where each setting in force comes from

	// hidden names the members of the answers shown with REDACTED beside
	// the stored credentials (redact.StoredCredential) always hidden.
	hidden []string
}

// hide adds credentials the command was given (beside its settings') to
// those its output and errors show as REDACTED.
func (c *cli) hide(secrets ...string) {
	c.stdout.Redact(secrets...)
	c.stderr.Redact(secrets...)
}

// minHiddenPassword is the shortest password given to the command (a
// webhook's, a group's) that its output hides wherever it appears: a
// shorter one would replace ordinary words and JSON names. The members
// that hold a password are hidden whatever its length (see
// redact.StoredCredential).
const minHiddenPassword = 8

// hidePassword hides a password given to the command, as hide does, when it
// is at least minHiddenPassword long.
func (c *cli) hidePassword(pw string) {
	if len(pw) >= minHiddenPassword {
		c.hide(pw)
	}
}

// usageError is a mistake in how the command was called: exit status 2.
type usageError struct{ err error }

func (e *usageError) Error() string { return e.err.Error() }
func (e *usageError) Unwrap() error { return e.err }

func usageErrorf(format string, args ...any) error {
	return &usageError{fmt.Errorf(format, args...)}
}

// exitError ends the command with a status of its own, after its message
// (if any) was printed.
type exitError struct {
	code int
	err  error
}

func (e *exitError) Error() string { return e.err.Error() }
func (e *exitError) Unwrap() error { return e.err }

// run runs the command line args and returns the exit status.
func run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer, getenv func(string) string) int {
	c := &cli{stdin: stdin, stdout: newRedactor(stdout), stderr: newRedactor(stderr), getenv: getenv}
	if f, ok := stderr.(*os.File); ok {
		c.errTerminal = term.IsTerminal(int(f.Fd()))
	}
	if f, ok := stdin.(*os.File); ok {
		c.inTerminal = term.IsTerminal(int(f.Fd()))
	}
	defer c.stdout.Flush()
	defer c.stderr.Flush()

	root := c.rootCmd()
	root.SetArgs(args)
	root.SetIn(stdin)
	root.SetOut(c.stdout)
	root.SetErr(c.stderr)
	cmd, err := root.ExecuteContextC(ctx)
	if err == nil {
		return exitOK
	}
	return c.report(ctx, cmd, err)
}

// report prints err on stderr and returns the exit status it calls for.
func (c *cli) report(ctx context.Context, cmd *cobra.Command, err error) int {
	var (
		ue  *usageError
		ae  *chat.ArgumentError
		ee  *exitError
		msg = err.Error()
	)
	if !strings.HasPrefix(msg, "chat: ") {
		msg = "chat: " + msg
	}
	switch {
	case errors.As(err, &ee):
		if ee.err != nil && ee.err.Error() != "" {
			fmt.Fprintln(c.stderr, msg)
		}
		return ee.code
	case ctx.Err() != nil && errors.Is(err, context.Canceled):
		fmt.Fprintln(c.stderr, "chat: interrupted")
		return exitInterrupted
	case errors.As(err, &ue), errors.As(err, &ae):
		fmt.Fprintln(c.stderr, msg)
		if cmd != nil {
			fmt.Fprintf(c.stderr, "Run '%s --help' for usage.\n", cmd.CommandPath())
		}
		return exitUsage
	}
	fmt.Fprintln(c.stderr, msg)
	if hint := c.nextStep(err); hint != "" {
		fmt.Fprintln(c.stderr, hint)
	}
	return exitAPI
}

const rootLong = `chat is the command line of the chat platform: look up and manage an app's users,
mint auth tokens, send messages and threaded replies on a user's behalf, see
groups and their members, manage API keys, apps and webhooks, and migrate a whole
community onto the platform with the Data Import API.

Configuration: each setting comes from its flag, else its environment variable,
else the selected profile of the configuration file (see "chat config --help"):
%s
Credentials are never printed: wherever an answer, an error or a log line would
show the API key or the management key or secret, it shows REDACTED; so do the
credentials the service stores and sends back (webhook and group passwords, an
app's access key, the keys apps list would show), in tables and --json alike.
A new key or token is shown once, by the command that creates it; apikeys list
and tokens list show the keys and tokens that apikeys delete and tokens delete
revoke.

Every operation of the chat, calls, management and Data Import APIs is a command
("chat commands" lists them with their methods and paths); "chat api PATH" sends
any request with the same credentials, retries and redaction.

Output: tables for people; --json prints what the API answered (the "data" of its
answer: one object, or one JSON array holding the items of a list) for jq and
scripts. A list shows one page (--limit, 30 items by default, at most 100);
--all walks every page. Errors go to standard error with the API's code, and
say what to do next.

A command that deletes or takes away data asks first on a terminal; without
one it runs only with --yes.

Exit status:
  0    success
  1    the API refused a call, or the network or the service failed
  2    usage: a bad command, flag, argument, file or configuration
  3    an import finished, but the API refused some records (FILE.errors.jsonl)
  130  interrupted (an import resumes where it stopped when run again)`

func (c *cli) rootCmd() *cobra.Command {
	var envs strings.Builder
	for _, st := range allSettings {
		fmt.Fprintf(&envs, "  %-20s --%-15s %s\n", "$"+st.env, st.name, st.usage)
	}
	fmt.Fprintf(&envs, "  %-20s --%-15s %s\n", "$CHAT_PROFILE", "profile", "the profile to use")
	fmt.Fprintf(&envs, "  %-20s %-17s %s\n", "$CHAT_CONFIG", "", "the configuration file")

	root := &cobra.Command{
		Use:           "chat",
		Short:         "The chat platform's command line",
		Long:          fmt.Sprintf(rootLong, envs.String()),
		SilenceErrors: true,
		SilenceUsage:  true,
		Args:          groupArgs,
		RunE:          groupRun,
		Version:       versionText(),
	}
	root.SetVersionTemplate("chat {{.Version}}\n")
	root.CompletionOptions.HiddenDefaultCmd = false
	pf := root.PersistentFlags()
	addSettingFlags(pf, &c.flagSet)
	pf.StringVar(&c.profile, "profile", "", "the profile of the configuration file to use ($CHAT_PROFILE)")
	pf.BoolVar(&c.jsonOut, "json", false, "print what the API answered, as JSON")
	pf.BoolVar(&c.debug, "debug", false, "log each request and answer to standard error")
	pf.DurationVar(&c.timeout, "timeout", time.Minute, "the longest a call may take, retries included")
	root.SetFlagErrorFunc(func(cmd *cobra.Command, err error) error { return &usageError{err} })

	root.AddGroup(
		&cobra.Group{ID: "app", Title: "An app's data (with the app's API key):"},
		&cobra.Group{ID: "mgmt", Title: "The management API (with the management key and secret):"},
	)
	tree := c.operationTree(map[string][]*cobra.Command{
		"messages": {c.messagesListCmd()},
		"webhooks": {c.webhooksTriggerCmd()},
	})
	imp := c.importCmd()
	imp.GroupID = "app"
	root.AddCommand(append(tree, imp)...)
	root.AddCommand(c.apiCmd(), c.commandsCmd())
	root.AddCommand(c.configCmd())
	return root
}

// groupCmd returns a command that only holds others.
func groupCmd(use, short, long string) *cobra.Command {
	return &cobra.Command{Use: use, Short: short, Long: long, Args: groupArgs, RunE: groupRun}
}

// groupArgs refuses an argument to a command that only holds others: it
// names a command that does not exist.
func groupArgs(cmd *cobra.Command, args []string) error {
	if len(args) == 0 {
		return nil
	}
	msg := fmt.Sprintf("unknown command %q for %q", args[0], cmd.CommandPath())
	if s := cmd.SuggestionsFor(args[0]); len(s) > 0 {
		msg += fmt.Sprintf("; did you mean %q?", s[0])
	}
	return usageErrorf("%s", msg)
}

// groupRun shows the help of a command that only holds others.
func groupRun(cmd *cobra.Command, _ []string) error { return cmd.Help() }

// exactArgs is cobra.ExactArgs as a usage error.
func exactArgs(n int) cobra.PositionalArgs {
	return func(cmd *cobra.Command, args []string) error {
		if err := cobra.ExactArgs(n)(cmd, args); err != nil {
			return &usageError{err}
		}
		return nil
	}
}

// minArgs is cobra.MinimumNArgs as a usage error.
func minArgs(n int) cobra.PositionalArgs {
	return func(cmd *cobra.Command, args []string) error {
		if err := cobra.MinimumNArgs(n)(cmd, args); err != nil {
			return &usageError{err}
		}
		return nil
	}
}

// password reads a password from the first line of standard input when
// asked to (a --password-stdin flag), and hides it from the command's
// output.
func (c *cli) password(fromStdin bool) (string, error) {
	if !fromStdin {
		return "", nil
	}
	line, err := bufio.NewReader(c.stdin).ReadString('\n')
	if err != nil && !errors.Is(err, io.EOF) {
		return "", err
	}
	pw := strings.TrimRight(line, "\r\n")
	c.hidePassword(pw)
	return pw, nil
}

// jsonObjectFlag decodes a flag's JSON object; "" is none.
func jsonObjectFlag(name, value string) (map[string]any, error) {
	if value == "" {
		return nil, nil
	}
	var m map[string]any
	if err := json.Unmarshal([]byte(value), &m); err != nil || m == nil {
		return nil, usageErrorf("%s must be a JSON object, e.g. '{\"plan\":\"pro\"}'", name)
	}
	return m, nil
}
