package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"net/url"
	"os"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"github.com/chatrest/chat"
	"github.com/spf13/cobra"
)

// api is the API an operation belongs to, which says where it is sent and
// with which credentials.
type api int

const (
	apiChat   api = iota // the app's chat API, with its API key
	apiCalls             // the app's calls API, with the same key
	apiMgmt              // the management API, with the management key and secret
	apiImport            // the Data Import API: the chat API's address and key
)

func (a api) String() string {
	return [...]string{"chat", "calls", "management", "data import"}[a]
}

// onBehalfOf is an operation's rule for the onBehalfOf header: the user
// the call acts as (--as).
type onBehalfOf int

const (
	oboNone onBehalfOf = iota
	oboOptional
	oboRequired
)

// operation is the definition of one operation of an API, and of the
// command that calls it.
type operation struct {
	words  string // the command, e.g. "users list"
	api    api
	method string
	path   string // as the reference writes it, parameters in braces
	obo    onBehalfOf
	// body and query are the SDK's request and options types: each of
	// their fields of a simple kind (text, number, yes/no, list of text)
	// is a flag; other fields are given with -f, -F or --input.
	body, query reflect.Type
	// unchecked says the SDK's method sends the body as given, though
	// its type has a Validate (that of another method, which checks it):
	// the command then does not check it either (see checkBody).
	unchecked bool
	// queryArgs are query parameters every call needs, each a flag.
	queryArgs   []string
	list        bool // the answer is a list: one page unless --all
	destructive bool // asks on a terminal, and needs --yes without one
	short       string
	long        string // said in help after what the table says

	// What the command adds for people. args go into the body after the
	// path's parameters; options are flags of its own (a flag made from
	// a field of the request stands for any other member); fixed are
	// members (query parameters of a GET) every call sends; change says
	// the call needs something to change.
	args    []posArg
	options []option
	fixed   map[string]any
	change  bool
	// columns are what a table shows of the answer (every simple member
	// when none): the columns of a list, or the rows of one object;
	// render shows an answer columns cannot. hide names members of the
	// answers shown as REDACTED.
	columns []column
	render  func(*table, json.RawMessage)
	hide    []string

	// custom builds the command by hand, for a workflow that is more than
	// a call (one that chooses between operations or mints a credential),
	// or a call whose body is no JSON (a form with a file); see operations.
	custom func(*cli) *cobra.Command
}

// plain reports whether the command of op is made from its definition
// alone, with nothing of its own for people.
func (op *operation) plain() bool {
	return op.custom == nil && len(op.args)+len(op.options)+len(op.columns) == 0 && op.render == nil && op.long == ""
}

// params returns the names of the path's parameters, in order.
func (op *operation) params() []string {
	var names []string
	for _, seg := range strings.Split(strings.Trim(op.path, "/"), "/") {
		if strings.HasPrefix(seg, "{") && strings.HasSuffix(seg, "}") {
			names = append(names, seg[1:len(seg)-1])
		}
	}
	return names
}

// appFromFlag reports whether the operation takes the {appId} of its path
// from --app (the app-id setting by default) rather than an argument: the
// management API's operations on an app's parts, but not those of the apps
// themselves.
func (op *operation) appFromFlag() bool {
	return op.api == apiMgmt && !strings.HasPrefix(op.words, "apps ") && slices.Contains(op.params(), "appId")
}

// argParams are the path parameters given as arguments.
func (op *operation) argParams() []string {
	var out []string
	for _, p := range op.params() {
		if p == "appId" && op.appFromFlag() {
			continue
		}
		out = append(out, p)
	}
	return out
}

// argName shows a parameter as an argument: conversationId as
// CONVERSATION_ID.
func argName(param string) string {
	var b strings.Builder
	for i, r := range param {
		if unicode.IsUpper(r) && i > 0 {
			b.WriteByte('_')
		}
		b.WriteRune(unicode.ToUpper(r))
	}
	return b.String()
}

// flagName shows a JSON member or query parameter as a flag:
// statusMessage as status-message.
func flagName(key string) string {
	var b strings.Builder
	for i, r := range key {
		switch {
		case r == '_':
			b.WriteByte('-')
		case unicode.IsUpper(r) && i > 0:
			b.WriteByte('-')
			b.WriteRune(unicode.ToLower(r))
		default:
			b.WriteRune(unicode.ToLower(r))
		}
	}
	return b.String()
}

// reservedFlags are flag names an operation's fields cannot take: the
// command's own. A field named so is given with -f instead.
var reservedFlags = []string{
	"app-id", "region", "api-key", "base-url", "ca-file", "mgmt-key", "mgmt-secret", "mgmt-base-url",
	"profile", "json", "debug", "timeout", "help", "version",
	"as", "input", "field", "raw-field", "limit", "all", "yes", "app",
}

// fieldFlag is a flag made from a field of a request or options type.
type fieldFlag struct {
	flag  string
	key   string // the JSON member, or the query parameter
	kind  reflect.Kind
	comma bool // a query list sent as a,b
}

// pagingTypes are the options the pager sets itself.
var pagingTypes = []reflect.Type{
	reflect.TypeFor[chat.PageOptions](), reflect.TypeFor[chat.CursorOptions](), reflect.TypeFor[chat.UpdateCursorOptions](),
}

// fieldFlags returns the flags of t's fields with tag (json or url) of a
// simple kind. Credentials ([chat.Secret]) are no flag: a flag shows in
// the process list.
func fieldFlags(t reflect.Type, tag string) []fieldFlag {
	for t != nil && t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t == nil || t.Kind() != reflect.Struct {
		return nil
	}
	var out []fieldFlag
	for i := range t.NumField() {
		f := t.Field(i)
		if f.Anonymous {
			if !slices.Contains(pagingTypes, f.Type) {
				out = append(out, fieldFlags(f.Type, tag)...)
			}
			continue
		}
		if !f.IsExported() {
			continue
		}
		name, opts, _ := strings.Cut(f.Tag.Get(tag), ",")
		if name == "" || name == "-" {
			continue
		}
		ft := f.Type
		if ft.Kind() == reflect.Pointer {
			ft = ft.Elem()
		}
		if ft == reflect.TypeFor[chat.Secret]() {
			continue
		}
		kind := ft.Kind()
		switch kind {
		case reflect.String, reflect.Bool:
		case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
			reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
			kind = reflect.Int64
		case reflect.Slice:
			if ft.Elem().Kind() != reflect.String || ft.Elem() == reflect.TypeFor[chat.Secret]() {
				continue
			}
		default:
			continue
		}
		fl := flagName(name)
		if slices.Contains(reservedFlags, fl) {
			continue
		}
		out = append(out, fieldFlag{flag: fl, key: name, kind: kind, comma: strings.Contains(opts, "comma")})
	}
	return out
}

// addFieldFlag adds ff's flag to cmd.
func addFieldFlag(cmd *cobra.Command, ff fieldFlag, usage string) {
	f := cmd.Flags()
	if f.Lookup(ff.flag) != nil {
		return
	}
	switch ff.kind {
	case reflect.String:
		f.String(ff.flag, "", usage)
	case reflect.Bool:
		f.Bool(ff.flag, false, usage)
	case reflect.Int64:
		f.Int64(ff.flag, 0, usage)
	case reflect.Slice:
		f.StringSlice(ff.flag, nil, usage+" (repeat or separate with commas)")
	}
}

// flagValue returns the value given to ff's flag, and whether it was
// given.
func flagValue(cmd *cobra.Command, ff fieldFlag) (any, bool) {
	f := cmd.Flags()
	if !f.Changed(ff.flag) {
		return nil, false
	}
	switch ff.kind {
	case reflect.Bool:
		v, _ := f.GetBool(ff.flag)
		return v, true
	case reflect.Int64:
		v, _ := f.GetInt64(ff.flag)
		return v, true
	case reflect.Slice:
		v, _ := f.GetStringSlice(ff.flag)
		return v, true
	}
	v, _ := f.GetString(ff.flag)
	return v, true
}

// queryText is a flag's value as a query parameter.
func queryText(v any, comma bool) []string {
	switch x := v.(type) {
	case []string:
		if comma {
			return []string{strings.Join(x, ",")}
		}
		return x
	case bool:
		return []string{strconv.FormatBool(x)}
	case int64:
		return []string{strconv.FormatInt(x, 10)}
	}
	return []string{fmt.Sprint(v)}
}

// fieldArgs are the -f and -F fields of a command.
type fieldArgs struct {
	strs, raws []string
	input      string
}

func (fa *fieldArgs) add(cmd *cobra.Command) {
	f := cmd.Flags()
	f.StringArrayVarP(&fa.strs, "field", "f", nil, "a field key=value, the value as text (repeatable; a.b=v nests, k[]=v appends)")
	f.StringArrayVarP(&fa.raws, "raw-field", "F", nil, "a field key=value, the value as JSON when it is (numbers, true, null, {...}, [...]), else text")
	f.StringVar(&fa.input, "input", "", "a file holding the JSON body to send (- for standard input); flags and fields go on top of its members")
}

// given reports whether a field was given.
func (fa *fieldArgs) given() bool { return len(fa.strs)+len(fa.raws) > 0 || fa.input != "" }

// maxInputBytes caps a body read with --input.
const maxInputBytes = 32 << 20

// body returns the JSON body of --input, or nil.
func (fa *fieldArgs) inputBody(stdin io.Reader) (any, error) {
	if fa.input == "" {
		return nil, nil
	}
	var r io.Reader = stdin
	if fa.input != "-" {
		f, err := os.Open(fa.input)
		if err != nil {
			return nil, usageErrorf("--input: %v", err)
		}
		defer f.Close()
		r = f
	}
	b, err := io.ReadAll(io.LimitReader(r, maxInputBytes+1))
	if err != nil {
		return nil, usageErrorf("--input: %v", err)
	}
	if len(b) > maxInputBytes {
		return nil, usageErrorf("--input: more than %d MiB", maxInputBytes>>20)
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, usageErrorf("--input %s is not JSON: %v", fa.input, err)
	}
	return v, nil
}

// fields returns the -f and -F fields, in order, as key and value.
func (fa *fieldArgs) fields() ([][2]any, error) {
	var out [][2]any
	for _, s := range fa.strs {
		k, v, ok := strings.Cut(s, "=")
		if !ok || k == "" {
			return nil, usageErrorf("-f %q: give key=value", s)
		}
		out = append(out, [2]any{k, v})
	}
	for _, s := range fa.raws {
		k, v, ok := strings.Cut(s, "=")
		if !ok || k == "" {
			return nil, usageErrorf("-F %q: give key=value", s)
		}
		dec := json.NewDecoder(strings.NewReader(v))
		dec.UseNumber()
		var x any
		if dec.Decode(&x) == nil && !dec.More() {
			out = append(out, [2]any{k, x})
		} else {
			out = append(out, [2]any{k, v})
		}
	}
	return out, nil
}

// setField sets key (a.b nests; k[] appends) in m to v.
func setField(m map[string]any, key string, v any) error {
	parts := strings.Split(key, ".")
	for _, p := range parts[:len(parts)-1] {
		next, ok := m[p].(map[string]any)
		if !ok {
			if _, taken := m[p]; taken {
				return usageErrorf("field %q: %q is not an object", key, p)
			}
			next = map[string]any{}
			m[p] = next
		}
		m = next
	}
	last := parts[len(parts)-1]
	if name, ok := strings.CutSuffix(last, "[]"); ok {
		arr, _ := m[name].([]any)
		m[name] = append(arr, v)
		return nil
	}
	m[last] = v
	return nil
}

// buildBody merges --input, the members own sets (an operation's options
// and arguments), the flags and the fields into a body, nil when none was
// given.
func buildBody(cmd *cobra.Command, stdin io.Reader, fa *fieldArgs, flags []fieldFlag, own map[string]any) (any, error) {
	in, err := fa.inputBody(stdin)
	if err != nil {
		return nil, err
	}
	fields, err := fa.fields()
	if err != nil {
		return nil, err
	}
	var given []fieldFlag
	for _, ff := range flags {
		if cmd.Flags().Changed(ff.flag) {
			given = append(given, ff)
		}
	}
	if in != nil && len(fields) == 0 && len(given) == 0 && len(own) == 0 {
		return in, nil
	}
	m, ok := in.(map[string]any)
	switch {
	case in == nil && len(fields) == 0 && len(given) == 0 && len(own) == 0:
		return nil, nil
	case in != nil && !ok:
		return nil, usageErrorf("--input: flags and fields go into a JSON object; %s holds another JSON value", fa.input)
	case m == nil:
		m = map[string]any{}
	}
	maps.Copy(m, own)
	for _, ff := range given {
		v, _ := flagValue(cmd, ff)
		m[ff.key] = v
	}
	for _, kv := range fields {
		if err := setField(m, kv[0].(string), kv[1]); err != nil {
			return nil, err
		}
	}
	return m, nil
}

// checkBody checks body as the SDK's method of op checks its request
// before sending, with the Validate of op's request type; a body of no
// type, of a type without Validate, or of an unchecked operation is sent
// as given. No body is checked as the type's zero value. A body the type
// cannot hold is left to the service to judge. A field at fault is named
// as the body's member, as its flag and -f name it.
func (op *operation) checkBody(body any) error {
	t := op.body
	if t == nil || op.unchecked {
		return nil
	}
	v := reflect.New(t)
	req, ok := v.Interface().(interface{ Validate() error })
	if !ok {
		return nil
	}
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil || json.Unmarshal(b, v.Interface()) != nil {
			return nil
		}
	}
	err := req.Validate()
	var ae *chat.ArgumentError
	switch {
	case err == nil:
		return nil
	case !errors.As(err, &ae):
		return err
	case ae.Name == "req":
		return usageErrorf("the body %s", ae.Problem)
	}
	return usageErrorf("the body's %q %s", bodyMember(t, ae.Name), ae.Problem)
}

// bodyMember returns the member of a body of type t that the SDK's name
// of a request field stands for, as JSON names it: "tags[3]" for
// "req.Tags[3]". A name it cannot follow is returned as it is.
func bodyMember(t reflect.Type, name string) string {
	path, ok := strings.CutPrefix(name, "req.")
	if !ok {
		return name
	}
	var members []string
	for seg := range strings.SplitSeq(path, ".") {
		field, index, indexed := strings.Cut(seg, "[")
		for t.Kind() == reflect.Pointer || t.Kind() == reflect.Slice || t.Kind() == reflect.Map {
			t = t.Elem()
		}
		if t.Kind() != reflect.Struct {
			return name
		}
		f, ok := t.FieldByName(field)
		if !ok {
			return name
		}
		key, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		switch key {
		case "-":
			return name
		case "":
			key = f.Name
		}
		if indexed {
			key += "[" + index
		}
		members = append(members, key)
		t = f.Type
	}
	return strings.Join(members, ".")
}

// buildQuery returns the query of the flags of the operation's query
// fields and the -f and -F fields (of a GET).
func buildQuery(cmd *cobra.Command, fa *fieldArgs, flags []fieldFlag, withFields bool) (url.Values, error) {
	q := url.Values{}
	for _, ff := range flags {
		if v, ok := flagValue(cmd, ff); ok {
			q[ff.key] = append(q[ff.key], queryText(v, ff.comma)...)
		}
	}
	if !withFields {
		return q, nil
	}
	if fa.input != "" {
		return nil, usageErrorf("--input: a %s request sends no body; give its query with -f key=value", cmd.Annotations[annotMethod])
	}
	fields, err := fa.fields()
	if err != nil {
		return nil, err
	}
	for _, kv := range fields {
		var s string
		switch v := kv[1].(type) {
		case string:
			s = v
		case json.Number:
			s = v.String()
		default:
			b, _ := json.Marshal(v)
			s = string(b)
		}
		k := strings.TrimSuffix(kv[0].(string), "[]")
		q[k] = append(q[k], s)
	}
	return q, nil
}

// optKind is the kind of value an option takes.
type optKind int

const (
	optText   optKind = iota // text
	optBool                  // yes or no
	optList                  // a list of text: repeated, or separated with commas
	optJSON                  // a JSON object
	optSecret                // text that is a credential: hidden from the output
	optStdin                 // a credential read from the first line of standard input
)

// option is a flag an operation declares itself: a friendlier name for a
// member of its body (or, for a GET, a parameter of its query), with its
// help, default and rules. The flags made from the request's fields stand
// for the members no option takes.
type option struct {
	flag, key string
	kind      optKind
	usage     string
	def       string // the default, as text
	required  bool
	always    bool // sent, with its default, when not given
	// choices, when set, are the values the option takes, each setting
	// its own members (and not key) or telling where the arguments go.
	choices []choice
	// argsTo, for a yes-or-no option, is the member the arguments go to
	// when it is given.
	argsTo string
}

// choice is a value of an option with choices.
type choice struct {
	value  string
	set    map[string]any // members the value sets
	argsTo string         // the member the arguments go to
}

// posArg is an argument that goes into the body, after those of the path.
type posArg struct {
	name string // as help shows it: UID
	key  string // the member; "" when an option's value says which
	many bool   // the rest of the arguments, one or more, as a list
	// valid are the values it completes to.
	valid func() []string
}

// column is a value a table shows of an answer: a column of a list's
// table, or a row of one object's.
type column struct {
	name string // the header, or the row's label
	key  string // the member; a.b for a member of a member
	// show shows the value; nil shows it as scalarText does.
	show func(c *cli, v json.RawMessage) string
	// optional leaves out the row of a member the answer does not have.
	optional bool
}

// value returns the member key (a.b nested) of the object raw.
func (col *column) value(raw []byte) (json.RawMessage, bool) {
	v := json.RawMessage(raw)
	for part := range strings.SplitSeq(col.key, ".") {
		var m map[string]json.RawMessage
		if json.Unmarshal(v, &m) != nil {
			return nil, false
		}
		var ok bool
		if v, ok = m[part]; !ok {
			return nil, false
		}
	}
	return v, true
}

// text shows the column's value of the object raw.
func (col *column) text(c *cli, raw []byte) (string, bool) {
	v, ok := col.value(raw)
	if col.show != nil {
		return col.show(c, v), ok
	}
	return scalarText(v), ok
}
