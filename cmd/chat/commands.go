package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"net/url"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"github.com/chatrest/chat"
	"github.com/spf13/cobra"
)

// The annotations of a command made from an operation.
const (
	annotMethod = "method" // the operation's HTTP method
	annotPath   = "path"   // the operation's path, as the reference writes it
	annotPlain  = "plain"  // "true" when made from the table alone, with nothing of its own for people
)

// commandGroup describes a command that holds the commands of a part of an
// API.
type commandGroup struct {
	name, short, long string
	mgmt              bool // on the management API
	appFlag           bool // its commands take the app from --app
}

// commandGroups are the groups of commands, in the order help lists them.
var commandGroups = []commandGroup{
	{name: "users", short: "List, look up, create, update, delete, deactivate and reactivate users"},
	{name: "tokens", short: "Mint, list and delete users' auth tokens"},
	{name: "groups", short: "List, look up, create, update and delete groups"},
	{name: "members", short: "List, add, re-scope and kick group members"},
	{name: "bans", short: "Ban and unban group members, and list those banned"},
	{name: "messages", short: "Send messages and threaded replies on a user's behalf; list conversations and threads"},
	{name: "conversations", short: "List conversations; mark them read, delivered, pinned or reset for a user"},
	{name: "friends", short: "Add, list and remove users' friends"},
	{name: "blocked", short: "Block and unblock users, and list those blocked"},
	{name: "roles", short: "Manage roles and their restricted features"},
	{name: "permissions", short: "Manage role and group-scope permissions"},
	{name: "moderation", short: "Moderation rules, keyword lists, reasons, and blocked, flagged and reviewed messages"},
	{name: "notifications", short: "Push, email and SMS notifications: settings, providers, preferences, tokens, logs"},
	{name: "apikeys", short: "List, create and delete the app's API keys"},
	{name: "metrics", short: "The app's usage and message metrics"},
	{name: "ai-agents", short: "AI agents: Agent Builder and bring-your-own"},
	{name: "calls", short: "Calls and their transcriptions (the calls API)"},
	{name: "data-import", short: "Import users, groups, members and messages one request at a time (see chat import for files)"},
	{name: "apps", short: "List, create and delete apps, and request usage reports", mgmt: true},
	{name: "tenants", short: "Add tenants", mgmt: true},
	{name: "collaborators", short: "List and change an app's team members", mgmt: true, appFlag: true},
	{name: "app-settings", short: "List, map and unmap an app's settings", mgmt: true, appFlag: true},
	{name: "extensions", short: "List, enable and configure an app's extensions", mgmt: true, appFlag: true},
	{name: "webhooks", short: "Manage an app's webhooks and their triggers; deliver a trigger to a receiver", mgmt: true, appFlag: true,
		long: `Manage the webhooks of the app --app (default: the app of the settings, $CHAT_APP_ID)
and the triggers each subscribes to; deliver a trigger's body to a receiver to try it.`},
	{name: "app-moderation", short: "The management API's (deprecated) moderation of an app: use chat moderation", mgmt: true, appFlag: true},
}

// operationTree returns the commands of every operation, under the
// groups' commands, with the workflows that are not one operation
// (extra, keyed by the words of their group).
func (c *cli) operationTree(extra map[string][]*cobra.Command) []*cobra.Command {
	nodes := map[string]*cobra.Command{}
	var tops []*cobra.Command
	for _, g := range commandGroups {
		cmd := groupCmd(g.name, g.short, g.long)
		cmd.GroupID = "app"
		if g.mgmt {
			cmd.GroupID = "mgmt"
		}
		if g.appFlag {
			cmd.PersistentFlags().String("app", "", "the app whose "+g.name+" to manage (default: the app-id setting)")
		}
		nodes[g.name] = cmd
		tops = append(tops, cmd)
	}
	node := func(words []string) *cobra.Command {
		parent := nodes[words[0]]
		for i := 1; i < len(words); i++ {
			key := strings.Join(words[:i+1], " ")
			n, ok := nodes[key]
			if !ok {
				n = groupCmd(words[i], subgroupShort[key], "")
				nodes[key] = n
				parent.AddCommand(n)
			}
			parent = n
		}
		return parent
	}
	for i := range operations {
		op := &operations[i]
		words := strings.Fields(op.words)
		parent := node(words[:len(words)-1])
		parent.AddCommand(c.operationCmd(op))
	}
	for group, cmds := range extra {
		node(strings.Fields(group)).AddCommand(cmds...)
	}
	return tops
}

// subgroupShort describes the commands that group others below a group.
var subgroupShort = map[string]string{
	"webhooks triggers": "List, add and remove the triggers a webhook subscribes to",
}

// operationCmd returns the command of op: its hand-written one (described
// by op's short when it has no description of its own), or one made from
// its definition; a destructive one asks first.
func (c *cli) operationCmd(op *operation) *cobra.Command {
	var cmd *cobra.Command
	if op.custom != nil {
		cmd = op.custom(c)
		cmd.Short = cmpOr(cmd.Short, op.short)
	} else {
		cmd = c.genericCmd(op)
	}
	if cmd.Annotations == nil {
		cmd.Annotations = map[string]string{}
	}
	cmd.Annotations[annotMethod] = op.method
	cmd.Annotations[annotPath] = op.path
	if op.destructive {
		c.guard(cmd)
	}
	return cmd
}

// genericCmd makes the command of op from its definition: the path's
// parameters and its own arguments as arguments, its options and the
// fields of its request and options types as flags, -f, -F and --input
// for the rest.
func (c *cli) genericCmd(op *operation) *cobra.Command {
	words := strings.Fields(op.words)
	params := op.argParams()
	use := words[len(words)-1]
	for _, p := range params {
		use += " " + argName(p)
	}
	for _, a := range op.args {
		use += " " + a.name
		if a.many {
			use += "..."
		}
	}
	for _, o := range op.options {
		if o.required {
			use += " --" + o.flag + " " + strings.ToUpper(o.flag)
		}
	}
	var (
		fa         fieldArgs
		as         string
		limit      int
		taken      = op.taken()
		bodyFlags  = untaken(fieldFlags(op.body, "json"), taken)
		queryFlags = untaken(fieldFlags(op.query, "url"), taken)
		nargs      = len(params) + len(op.args)
		argsRule   = exactArgs(nargs)
	)
	if len(op.args) > 0 && op.args[len(op.args)-1].many {
		argsRule = minArgs(nargs)
	}
	cmd := &cobra.Command{
		Use:         use,
		Short:       op.short,
		Long:        operationLong(op),
		Args:        argsRule,
		Annotations: map[string]string{},
	}
	if op.plain() {
		cmd.Annotations[annotPlain] = "true"
	}
	if len(op.args) > 0 {
		cmd.ValidArgsFunction = op.completeArgs(len(params))
	}
	cmd.RunE = func(cmd *cobra.Command, args []string) error {
		c.hidden = append(c.hidden, op.hide...)
		if op.obo == oboRequired && as == "" {
			return usageErrorf("--as is required: the user the call acts as")
		}
		for _, name := range op.queryArgs {
			if v, _ := cmd.Flags().GetString(flagName(name)); v == "" {
				return usageErrorf("--%s is required", flagName(name))
			}
		}
		if op.change && !fa.given() && !op.anyGiven(cmd, bodyFlags) {
			return usageErrorf("nothing to change: give at least one of %s, or a field with -f", op.optionList())
		}
		own, err := c.optionValues(cmd, op, args[len(params):], fa.given())
		if err != nil {
			return err
		}
		req := &chat.Request{Method: op.method, OnBehalfOf: as}
		path, secrets, err := c.operationPath(cmd, op, args[:len(params)])
		if err != nil {
			return err
		}
		req.Path, req.Secrets = path, secrets
		q, err := buildQuery(cmd, &fa, queryFlags, op.method == "GET")
		if err != nil {
			return err
		}
		for _, name := range op.queryArgs {
			v, _ := cmd.Flags().GetString(flagName(name))
			q.Set(name, v)
		}
		if op.method == "GET" {
			for k, v := range own {
				q[k] = queryText(v, true)
			}
		} else if req.Body, err = buildBody(cmd, c.stdin, &fa, bodyFlags, own); err != nil {
			return err
		} else if err := op.checkBody(req.Body); err != nil {
			return err
		}
		if op.list {
			return c.showPages(cmd, op, req, q, limit)
		}
		if len(q) > 0 {
			req.Query = q
		}
		var raw json.RawMessage
		if err := c.send(cmd, op.api, req, &raw); err != nil {
			return err
		}
		return c.showAnswer(op, raw)
	}
	for _, o := range op.options {
		addOption(cmd, o)
	}
	for _, name := range op.queryArgs {
		cmd.Flags().String(flagName(name), "", fmt.Sprintf("the %q query parameter (required)", name))
	}
	for _, ff := range bodyFlags {
		addFieldFlag(cmd, ff, fmt.Sprintf("the body's %q", ff.key))
	}
	for _, ff := range queryFlags {
		addFieldFlag(cmd, ff, fmt.Sprintf("the %q query parameter", ff.key))
	}
	switch op.obo {
	case oboRequired:
		cmd.Flags().StringVar(&as, "as", "", "the user the call acts as (onBehalfOf, required)")
	case oboOptional:
		cmd.Flags().StringVar(&as, "as", "", "the user the call acts as (onBehalfOf)")
	}
	fa.add(cmd)
	if op.list {
		addLimitFlag(cmd, &limit)
	}
	return cmd
}

// addOption adds the flag of o to cmd.
func addOption(cmd *cobra.Command, o option) {
	f := cmd.Flags()
	switch o.kind {
	case optBool:
		f.Bool(o.flag, o.def == "true", o.usage)
	case optStdin:
		f.Bool(o.flag, false, o.usage)
	case optList:
		f.StringSlice(o.flag, nil, o.usage+" (repeat or separate with commas)")
	default:
		f.String(o.flag, o.def, o.usage)
	}
}

// taken returns the members and flag names op's options, arguments and
// fixed members take: no flag is made for them from the request's fields.
func (op *operation) taken() map[string]bool {
	taken := map[string]bool{}
	for _, o := range op.options {
		taken[o.key], taken["--"+o.flag], taken[o.argsTo] = true, true, true
		for _, ch := range o.choices {
			taken[ch.argsTo] = true
			for k := range ch.set {
				taken[k] = true
			}
		}
	}
	for _, a := range op.args {
		taken[a.key] = true
	}
	for k := range op.fixed {
		taken[k] = true
	}
	delete(taken, "")
	return taken
}

// untaken returns the flags of ffs whose member and name are not taken.
func untaken(ffs []fieldFlag, taken map[string]bool) []fieldFlag {
	return slices.DeleteFunc(ffs, func(ff fieldFlag) bool { return taken[ff.key] || taken["--"+ff.flag] })
}

// anyGiven reports whether one of op's options or of flags was given.
func (op *operation) anyGiven(cmd *cobra.Command, flags []fieldFlag) bool {
	f := cmd.Flags()
	return slices.ContainsFunc(op.options, func(o option) bool { return f.Changed(o.flag) }) ||
		slices.ContainsFunc(flags, func(ff fieldFlag) bool { return f.Changed(ff.flag) })
}

// optionList names op's options for an error: --a, --b or --c.
func (op *operation) optionList() string {
	var names []string
	for _, o := range op.options {
		names = append(names, "--"+o.flag)
	}
	return strings.Join(names, ", ")
}

// optionValues returns the members op's options and arguments set (rest
// are the arguments after the path's), after checking them: the required
// options given, a choice among its values, a JSON object where one is
// asked, a credential given one way. A required option may be left to the
// fields (fields: -f, -F or --input was given). A credential given is
// hidden from the output.
func (c *cli) optionValues(cmd *cobra.Command, op *operation, rest []string, fields bool) (map[string]any, error) {
	f := cmd.Flags()
	own := map[string]any{}
	maps.Copy(own, op.fixed)
	argsTo := ""
	for _, o := range op.options {
		given := f.Changed(o.flag)
		if o.required && !given && !fields {
			return nil, usageErrorf("--%s is required", o.flag)
		}
		switch o.kind {
		case optBool:
			v, _ := f.GetBool(o.flag)
			switch {
			case o.argsTo != "":
				if v && argsTo == "" {
					argsTo = o.argsTo
				}
			case given || o.always:
				own[o.key] = v
			}
			continue
		case optList:
			if given {
				own[o.key], _ = f.GetStringSlice(o.flag)
			}
			continue
		case optStdin:
			if v, _ := f.GetBool(o.flag); !v {
				continue
			}
			if _, dup := own[o.key]; dup {
				return nil, usageErrorf("give the %s with %s, not both", o.key, op.flagsOf(o.key))
			}
			pw, err := c.password(true)
			if err != nil {
				return nil, err
			}
			own[o.key] = pw
			continue
		}
		v, _ := f.GetString(o.flag)
		if len(o.choices) > 0 {
			i := slices.IndexFunc(o.choices, func(ch choice) bool { return ch.value == v })
			if i < 0 {
				var vals []string
				for _, ch := range o.choices {
					vals = append(vals, ch.value)
				}
				return nil, usageErrorf("--%s must be %s or %s", o.flag, strings.Join(vals[:len(vals)-1], ", "), vals[len(vals)-1])
			}
			maps.Copy(own, o.choices[i].set)
			if argsTo == "" {
				argsTo = o.choices[i].argsTo
			}
			continue
		}
		if !given && !o.always {
			continue
		}
		switch o.kind {
		case optJSON:
			m, err := jsonObjectFlag("--"+o.flag, v)
			if err != nil {
				return nil, err
			}
			own[o.key] = m
		case optSecret:
			c.hidePassword(v)
			own[o.key] = v
		default:
			own[o.key] = v
		}
	}
	for i, a := range op.args {
		key := cmpOr(a.key, argsTo)
		if a.many {
			own[key] = rest[i:]
		} else {
			own[key] = rest[i]
		}
	}
	return own, nil
}

// flagsOf names the flags of op's options that set key: --a or --b.
func (op *operation) flagsOf(key string) string {
	var names []string
	for _, o := range op.options {
		if o.key == key {
			names = append(names, "--"+o.flag)
		}
	}
	return strings.Join(names, " or ")
}

// completeArgs completes op's own arguments, after the path's n.
func (op *operation) completeArgs(n int) cobra.CompletionFunc {
	return func(_ *cobra.Command, args []string, _ string) ([]string, cobra.ShellCompDirective) {
		i := len(args) - n
		if i < 0 {
			return nil, cobra.ShellCompDirectiveNoFileComp
		}
		if i >= len(op.args) {
			if last := op.args[len(op.args)-1]; last.many {
				i = len(op.args) - 1
			} else {
				return nil, cobra.ShellCompDirectiveNoFileComp
			}
		}
		a := op.args[i]
		if a.valid == nil {
			return nil, cobra.ShellCompDirectiveNoFileComp
		}
		return slices.DeleteFunc(a.valid(), func(v string) bool { return slices.Contains(args[n:], v) }), cobra.ShellCompDirectiveNoFileComp
	}
}

// operationLong is the help of a command made from an operation.
func operationLong(op *operation) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s.\n", op.short)
	if op.long != "" {
		fmt.Fprintf(&b, "%s\n", op.long)
	}
	fmt.Fprintf(&b, "\nAPI: %s %s (%s API", op.method, op.path, op.api)
	switch op.obo {
	case oboRequired:
		b.WriteString("; onBehalfOf required: --as")
	case oboOptional:
		b.WriteString("; onBehalfOf optional: --as")
	}
	b.WriteString(")\n")
	if op.appFromFlag() {
		b.WriteString("The app is --app, else the app-id setting.\n")
	}
	b.WriteString(`
The flags set the body's (or, for GET, the query's) members of simple kinds;
give any other member with -f key=value (text) or -F key=value (JSON), or the
whole body with --input FILE.`)
	if op.list {
		b.WriteString(`
It shows one page (--limit items, at most 100); --all shows every page.`)
	}
	if op.destructive {
		b.WriteString(`
It asks before changing anything on a terminal; without one it needs --yes.`)
	}
	return b.String()
}

// operationPath returns the path of a call of op: its literal segments
// and the arguments (the app of --app for {appId} when the operation takes
// it so), with those that are credentials.
func (c *cli) operationPath(cmd *cobra.Command, op *operation, args []string) ([]string, []chat.Secret, error) {
	var (
		path    []string
		secrets []chat.Secret
		next    int
	)
	for _, seg := range strings.Split(strings.Trim(op.path, "/"), "/") {
		if !strings.HasPrefix(seg, "{") {
			path = append(path, seg)
			continue
		}
		name := seg[1 : len(seg)-1]
		var v string
		if name == "appId" && op.appFromFlag() {
			app, err := c.appFlag(cmd)
			if err != nil {
				return nil, nil, err
			}
			v = app
		} else {
			v = args[next]
			next++
		}
		if v == "" || v == "." || v == ".." {
			// The argument names the parameter, as the SDK's methods do.
			return nil, nil, &chat.ArgumentError{Name: name, Problem: "must not be empty or a dot segment"}
		}
		switch name {
		case "authToken", "apiKey", "pushToken":
			secrets = append(secrets, chat.Secret(v))
		}
		path = append(path, v)
	}
	return path, secrets, nil
}

// appFlag returns the app a management command acts on: --app, else the
// app-id setting.
func (c *cli) appFlag(cmd *cobra.Command) (string, error) {
	app, _ := cmd.Flags().GetString("app")
	if app != "" {
		return app, nil
	}
	s, err := c.resolveSettings(cmd)
	if err != nil {
		return "", err
	}
	if s.AppID == "" {
		return "", usageErrorf("no app: give --app, or set $CHAT_APP_ID or app-id in a profile")
	}
	return s.AppID, nil
}

// send sends req to the API a and decodes the answer's body into out.
func (c *cli) send(cmd *cobra.Command, a api, req *chat.Request, out *json.RawMessage) error {
	ctx := cmd.Context()
	switch a {
	case apiMgmt:
		mc, _, err := c.mgmtClient(cmd)
		if err != nil {
			return err
		}
		return mc.Do(ctx, req, out)
	case apiCalls:
		client, err := c.callsClient(cmd)
		if err != nil {
			return err
		}
		return client.Do(ctx, req, out)
	}
	client, err := c.chatClient(cmd)
	if err != nil {
		return err
	}
	return client.Do(ctx, req, out)
}

// callsClient returns a client of the app's calls API: a chat client
// whose address is the calls API's.
func (c *cli) callsClient(cmd *cobra.Command) (*chat.Client, error) {
	client, err := c.chatClient(cmd)
	if err != nil || c.settings.BaseURL != "" {
		return client, err // the base URL serves both APIs
	}
	s := *c.settings
	opts, err := c.clientOptions(&s, client.CallsBaseURL())
	if err != nil {
		return nil, err
	}
	return chat.NewClient(s.AppID, s.APIKey, opts...)
}

// showAnswer prints the answer of op: with --json its data, else a table
// of its data's members (or, for a list, of its items): those of op's
// columns when it has some.
func (c *cli) showAnswer(op *operation, raw []byte) error {
	if len(bytes.TrimSpace(raw)) == 0 {
		return nil
	}
	data := redactJSON(answerData(raw), c.hidden...)
	if c.jsonOut {
		if err := printJSON(c.stdout, data, ""); err != nil {
			return err
		}
		_, err := io.WriteString(c.stdout, "\n")
		return err
	}
	var items []json.RawMessage
	isList := json.Unmarshal(data, &items) == nil
	switch {
	case op != nil && op.render != nil:
		t := newTable(c.stdout, "FIELD", "VALUE")
		op.render(t, data)
		return t.flush()
	case op != nil && len(op.columns) > 0 && isList:
		return c.columnsTable(op.columns, items)
	case op != nil && len(op.columns) > 0:
		return c.fieldsTable(op.columns, data)
	case isList:
		return c.itemsTable(items)
	}
	keys, values, ok := members(data)
	if !ok {
		_, err := fmt.Fprintln(c.stdout, cell(scalarText(data)))
		return err
	}
	t := newTable(c.stdout, "FIELD", "VALUE")
	for i, k := range keys {
		t.row(k, scalarText(values[i]))
	}
	return t.flush()
}

// columnsTable prints items as a table of cols.
func (c *cli) columnsTable(cols []column, items []json.RawMessage) error {
	headers := make([]string, len(cols))
	for i, col := range cols {
		headers[i] = col.name
	}
	t := newTable(c.stdout, headers...)
	for _, it := range items {
		row := make([]string, len(cols))
		for i, col := range cols {
			row[i], _ = col.text(c, it)
		}
		t.row(row...)
	}
	return t.flush()
}

// fieldsTable prints the object data as a row for each of cols, but an
// optional one without a value.
func (c *cli) fieldsTable(cols []column, data []byte) error {
	t := newTable(c.stdout, "FIELD", "VALUE")
	for _, col := range cols {
		if v, _ := col.text(c, data); v != "" || !col.optional {
			t.row(col.name, v)
		}
	}
	return t.flush()
}

// maxColumns is the most columns a list's table shows: --json shows all.
const maxColumns = 6

// itemsTable prints items as a table: a column for each of the first
// item's members whose value is not an object or array, up to maxColumns.
func (c *cli) itemsTable(items []json.RawMessage) error {
	if len(items) == 0 {
		_, err := fmt.Fprintln(c.stderr, "(none)")
		return err
	}
	keys, values, ok := members(items[0])
	if !ok {
		t := newTable(c.stdout, "VALUE")
		for _, it := range items {
			t.row(scalarText(it))
		}
		return t.flush()
	}
	var cols []string
	for i, k := range keys {
		if v := bytes.TrimSpace(values[i]); len(v) > 0 && v[0] != '{' && v[0] != '[' && len(cols) < maxColumns {
			cols = append(cols, k)
		}
	}
	headers := make([]string, len(cols))
	for i, k := range cols {
		headers[i] = strings.ToUpper(flagName(k))
	}
	t := newTable(c.stdout, headers...)
	for _, it := range items {
		var m map[string]json.RawMessage
		_ = json.Unmarshal(it, &m)
		row := make([]string, len(cols))
		for i, k := range cols {
			row[i] = short(scalarText(m[k]), 60)
		}
		t.row(row...)
	}
	return t.flush()
}

// members returns the members of a JSON object in their order.
func members(raw []byte) (keys []string, values []json.RawMessage, ok bool) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return nil, nil, false
	}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, nil, false
		}
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return nil, nil, false
		}
		keys, values = append(keys, tok.(string)), append(values, v)
	}
	return keys, values, true
}

// scalarText shows a JSON value in a table: text as it is, other values
// as compact JSON.
func scalarText(raw []byte) string {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return ""
	}
	var s string
	if raw[0] == '"' && json.Unmarshal(raw, &s) == nil {
		return s
	}
	var buf bytes.Buffer
	if json.Compact(&buf, raw) == nil {
		return short(buf.String(), 80)
	}
	return string(raw)
}

// paging is how a list's pages are walked, as the SDK's iterators walk
// them.
type paging int

const (
	noPages       paging = iota // one answer holds the list
	pageNumbers                 // perPage and page, until meta.pagination's last page
	cursors                     // limit and the cursor of each page (affix, id, sentAt)
	updateCursors               // limit and meta.next's updatedAt; a short page does not end it
	logCursors                  // limit and logId, the _id of the page's last item; a short page ends it
)

// pagingOf returns how op's list is walked, and its page size parameter.
func pagingOf(op *operation) (paging, string) {
	t := op.query
	for t != nil && t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t == nil || t.Kind() != reflect.Struct {
		return noPages, ""
	}
	for i := range t.NumField() {
		switch t.Field(i).Type {
		case reflect.TypeFor[chat.PageOptions]():
			return pageNumbers, "perPage"
		case reflect.TypeFor[chat.CursorOptions]():
			return cursors, "limit"
		case reflect.TypeFor[chat.UpdateCursorOptions]():
			return updateCursors, "limit"
		}
		switch name, _, _ := strings.Cut(t.Field(i).Tag.Get("url"), ","); name {
		case "logId":
			return logCursors, "limit"
		case "perPage":
			return pageNumbers, name
		case "limit":
			return cursors, name
		}
	}
	return noPages, ""
}

// pageMeta is what the pager reads of a list's answer.
type pageMeta struct {
	Meta struct {
		Pagination *chat.Pagination `json:"pagination"`
		Next       map[string]any   `json:"next"`
		Cursor     map[string]any   `json:"cursor"`
	} `json:"meta"`
	Cursor map[string]any `json:"cursor"`
}

// cursorParams are the members of a cursor that position the next page.
var cursorParams = []string{"affix", "id", "sentAt", "updatedAt", "createdAt"}

// showPages makes the calls of a list and prints its items: one page, or
// with --all every page, at most limit items (0: all).
func (c *cli) showPages(cmd *cobra.Command, op *operation, req *chat.Request, q url.Values, limit int) error {
	all, _ := cmd.Flags().GetBool("all")
	strategy, param := pagingOf(op)
	if strategy == noPages && !cmd.Flags().Changed("limit") {
		limit = 0 // one answer holds the whole list: it is the one page
	}
	size := perPage(limit)
	if param != "" {
		q.Set(param, strconv.Itoa(size))
	}
	var items []json.RawMessage
	seen := map[string]bool{} // the positions asked for: a list going round in circles ends
	for {
		req.Query = q
		seen[q.Encode()] = true
		var raw json.RawMessage
		if err := c.send(cmd, op.api, req, &raw); err != nil {
			return err
		}
		var got []json.RawMessage
		if err := json.Unmarshal(answerData(raw), &got); err != nil {
			return c.showAnswer(op, raw) // not a list after all: what was answered
		}
		items = append(items, got...)
		if limit > 0 && len(items) >= limit {
			items = items[:limit]
			break
		}
		if !all || len(got) == 0 || !nextPage(strategy, raw, q, got, size) || seen[q.Encode()] {
			break
		}
	}
	arr, err := json.Marshal(items)
	if err != nil {
		return err
	}
	return c.showAnswer(op, arr)
}

// nextPage moves q to the page after the one answered (raw, holding the
// items got of a page of size), and reports whether there is one.
func nextPage(strategy paging, raw []byte, q url.Values, got []json.RawMessage, size int) bool {
	var pm pageMeta
	if json.Unmarshal(raw, &pm) != nil {
		return false
	}
	n := len(got)
	switch strategy {
	case logCursors:
		// meta.next names the message of the last entry, not the entry:
		// the next page starts after the last entry, by its id.
		var last struct {
			ID string `json:"_id"`
		}
		if n < size || json.Unmarshal(got[n-1], &last) != nil || last.ID == "" {
			return false
		}
		q.Set("logId", last.ID)
		return true
	case pageNumbers:
		p := pm.Meta.Pagination
		if p == nil || p.CurrentPage >= p.TotalPages || n < size {
			return false
		}
		q.Set("page", strconv.Itoa(p.CurrentPage+1))
		return true
	case cursors, updateCursors:
		if strategy == cursors && n < size {
			return false
		}
		next := pm.Meta.Next
		if next == nil && strategy == cursors {
			next = cmpOrMap(pm.Meta.Cursor, pm.Cursor)
		}
		moved := false
		for _, k := range cursorParams {
			v, ok := next[k]
			if !ok || v == nil {
				continue
			}
			s := fmt.Sprint(v)
			if f, ok := v.(float64); ok {
				s = strconv.FormatFloat(f, 'f', -1, 64)
			}
			if s == "" || s == "0" {
				continue
			}
			if k != "affix" {
				moved = true
			}
			q.Set(k, s)
		}
		return moved
	}
	return false
}

func cmpOrMap(a, b map[string]any) map[string]any {
	if a != nil {
		return a
	}
	return b
}

// commandsCmd lists the commands of the operations.
func (c *cli) commandsCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "commands",
		Short: "List the command of every API operation, with its method and path",
		Long: `List the command of every operation of the chat, calls, management and data
import APIs, with the operation's method and path as the reference writes them.
With --json: an array of {"command", "method", "path", "api"}.`,
		Args: exactArgs(0),
		RunE: func(cmd *cobra.Command, _ []string) error {
			type entry struct {
				Command string `json:"command"`
				Method  string `json:"method"`
				Path    string `json:"path"`
				API     string `json:"api"`
			}
			entries := make([]entry, len(operations))
			for i, op := range operations {
				entries[i] = entry{op.words, op.method, op.path, op.api.String()}
			}
			slices.SortStableFunc(entries, func(a, b entry) int { return strings.Compare(a.Command, b.Command) })
			if c.jsonOut {
				b, err := json.MarshalIndent(entries, "", "  ")
				if err != nil {
					return err
				}
				_, err = fmt.Fprintf(c.stdout, "%s\n", b)
				return err
			}
			t := newTable(c.stdout, "COMMAND", "METHOD", "PATH", "API")
			for _, e := range entries {
				t.row(e.Command, e.Method, e.Path, e.API)
			}
			return t.flush()
		},
	}
}
