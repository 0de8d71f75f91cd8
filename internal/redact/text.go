package redact

import (
	"bufio"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"html"
	"io"
	"mime"
	"mime/quotedprintable"
	"net/textproto"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

// This file hides the credentials of a request by what its parts hold,
// whatever they are labelled, as chattest's request log and dashboard show
// it: a body is read as JSON, a multipart body or a URL-encoded form when
// it is one, whatever its Content-Type says, and every text it holds (a
// JSON string, a form value, a part, a header, a query value, a body that
// is none of those) is read again the same way, then scanned as text. A
// text that still shows a credential once decoded (percent-, JSON- or
// HTML-escaped) is not shown at all.

// credentialHeaders are the headers whose values are redacted whole,
// besides those whose name says they hold a credential (see
// CredentialHeader).
var credentialHeaders = []string{"Apikey", "Key", "Secret", "Authorization", "Proxy-Authorization", "Cookie"}

// CredentialHeader reports whether the values of the header name (in
// canonical form) are credentials: one of the APIs' credential headers
// (apikey, key, secret), Authorization, Proxy-Authorization, Cookie, or a
// name such as X-Auth-Token or X-Api-Key that [SecretField] recognizes.
func CredentialHeader(name string) bool {
	return slices.Contains(credentialHeaders, name) || SecretField(name)
}

// SecretPathParams are the path parameters of the APIs' routes whose
// values are credentials: /v3/apikeys/{apiKey},
// /v3/users/{uid}/auth_tokens/{authToken}, and a push token's.
var SecretPathParams = []string{"apiKey", "authToken", "pushToken"}

// secretFieldSuffixes end the names (see SecretField) of the fields, form
// fields, parts, query parameters and headers that hold a credential.
var secretFieldSuffixes = []string{
	"password",      // webhooks, tenants, groups; basicAuthPassword, webhookPassword
	"passwd",        // and its spellings
	"pwd",           //
	"passphrase",    // a certificate's
	"token",         // authToken, fcmToken, deviceToken, voipToken, pushToken, twilioAuthToken, bitlyAccessToken, ...
	"secret",        // the management secret, client_secret
	"secretkey",     // scaniiSecretKey
	"apikey",        // apiKey, sendGridApiKey, giphyApiKey, revaiAPIKey, x-api-key, ...
	"apivideokey",   // the broadcast extension's key
	"privatekey",    // FCM service accounts' private_key
	"p8key",         // APNs providers' p8Key
	"authkey",       // a tenant app's authKey
	"accesskey",     // an app's accessKey
	"appkey",        // the E2EE extension's virgilAppKey
	"certificate",   // APNs p12 and p8 certificate uploads
	"jwt",           // the client API's websocket credential
	"authorization", // a header's value, wherever it is written
	"cookie",        // likewise
}

// secretWords are the names that hold a credential when they are the last
// word of a name (key, x-key, metadata.key, user[pass]), but not at the
// end of a word (searchKey, dataKey).
var secretWords = []string{"key", "pass", "auth"}

// SecretField reports whether a field, form field, part, query parameter
// or header named name holds a credential. A name's words are its runs of
// ASCII letters and digits, in any letter case (user[password],
// client_secret, X-Api-Key); it holds a credential when its words, joined
// and without the digits that end them, end with one of
// secretFieldSuffixes ("clientSecret", "password2", "x-api-key"), or when
// its last word is one of secretWords. Only string and number values are
// redacted: "withAuthToken" qualifies, but its value is a bool.
func SecretField(name string) bool {
	secret, _ := FieldKind(name)
	return secret
}

// FieldKind says whether a field named name holds a credential (see
// SecretField), and whether it does by one of secretFieldSuffixes: a
// strong name, whose values a request log hides in later requests too.
func FieldKind(name string) (secret, strong bool) {
	for i := range len(name) {
		if name[i] >= utf8.RuneSelf { // lower-casing may make ASCII of it (K, the Kelvin sign, is k)
			name = strings.ToLower(name)
			break
		}
	}
	// The last word that is not all digits, without its final digits.
	end, start := len(name), 0
	for {
		for end > 0 && !isAlnum(name[end-1]) {
			end--
		}
		start = end
		for start > 0 && isAlnum(name[start-1]) {
			start--
		}
		if start == end {
			return false, false
		}
		w := end
		for w > start && '0' <= name[w-1] && name[w-1] <= '9' {
			w--
		}
		if w > start {
			end = w
			break
		}
		end = start
	}
	last := name[end-1] | 0x20 // lower-cased: a letter
	for _, suffix := range secretFieldSuffixes {
		if suffix[len(suffix)-1] == last && hasWordsSuffix(name[:end], suffix) {
			return true, true
		}
	}
	for _, w := range secretWords {
		if strings.EqualFold(name[start:end], w) {
			return true, false
		}
	}
	return false, false
}

func isAlnum(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9'
}

// hasWordsSuffix reports whether name's ASCII letters and digits, joined
// and lower-cased, end with suffix (lower-case ASCII).
func hasWordsSuffix(name, suffix string) bool {
	i := len(name)
	for j := len(suffix) - 1; j >= 0; j-- {
		for i > 0 && !isAlnum(name[i-1]) {
			i--
		}
		if i == 0 {
			return false
		}
		c := name[i-1]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		if c != suffix[j] {
			return false
		}
		i--
	}
	return true
}

// The notes that stand for a body the log does not show.
const (
	binaryNote = "[%d bytes of binary data, not shown]"
	hiddenNote = "[%d bytes not shown: encoded text that may hold a credential]"
)

// maxNesting is how many times a text inside a text (JSON in a form field
// in a part...) is read as JSON, a form or multipart; deeper, it is only
// scanned as text.
const maxNesting = 6

// Finder finds the credentials a Redactor knows by value in a text: it
// appends to spans the [start, end) byte offsets where they occur in v.
type Finder interface {
	Spans(v string, spans [][2]int) [][2]int
}

// A Redactor hides the credentials of one request: by name (see
// SecretField), the passwords of URLs, and by value those its Finder
// knows. It collects the values it hid by name, which the request's other
// parts must not show either ([Redactor.Found]).
type Redactor struct {
	sc    Finder
	found []Found
}

// NewRedactor returns a Redactor that hides, besides the credentials it
// finds by name, those known finds by value; known may be nil.
func NewRedactor(known Finder) *Redactor {
	if known == nil {
		known = noFinder{}
	}
	return &Redactor{sc: known}
}

type noFinder struct{}

func (noFinder) Spans(_ string, spans [][2]int) [][2]int { return spans }

// Found is a value hidden by name; Strong when the name is one of
// secretFieldSuffixes in a field, a form field, a part, a query parameter
// or a credential header, or the password of a URL: a credential the
// server keeps, which a request log then hides wherever it appears, in
// later requests too. A value found only by scanning text, or under a name
// as loose as "key", is hidden in its own request only.
type Found struct {
	Value  string
	Strong bool
}

// Found returns the values rd hid by name so far.
func (rd *Redactor) Found() []Found { return rd.found }

// Note records v as a credential rd hid, strong or not (see [Found]).
func (rd *Redactor) Note(v string, strong bool) {
	if v != "" && v != Redacted {
		rd.found = append(rd.found, Found{v, strong})
	}
}

// NoteField notes the value of a field named name, hidden by name.
func (rd *Redactor) NoteField(name, v string) {
	_, strong := FieldKind(name)
	rd.Note(v, strong)
}

// Path returns the escaped path as a log shows it: when, decoded, it
// shows a credential (by value, or a name and its value, or a URL's
// password), decoded, redacted and escaped again.
func (rd *Redactor) Path(escaped string) string {
	out := rd.plain(escaped)
	dec := percentDecode(out)
	shown, ok := rd.text(dec, maxNesting)
	switch {
	case !ok:
		return "/" + Redacted
	case shown != dec:
		return (&url.URL{Path: shown}).EscapedPath()
	}
	return out
}

// Body returns body, of the content type ct, as a log shows it. A body
// that is not text shows as a note of its size, and so does a text that,
// redacted, would still show a credential once decoded.
func (rd *Redactor) Body(body, ct string) string { return rd.body(body, ct, 0) }

func (rd *Redactor) body(body, ct string, nesting int) string {
	if body == "" {
		return ""
	}
	mt, params, _ := mime.ParseMediaType(ct)
	// The boundary shows as it is: it must show no credential either.
	if b := multipartBoundary(body, mt, params); b != "" && nesting < maxNesting && rd.plain(b) == b && rd.clean(b) {
		return rd.multipart(body, b, nesting+1)
	}
	if !utf8.ValidString(body) {
		return fmt.Sprintf(binaryNote, len(body))
	}
	out, ok := rd.text(body, nesting)
	if !ok {
		return fmt.Sprintf(hiddenNote, len(body))
	}
	return out
}

// Value returns v, a text inside a request (a query value, a header) or
// of a state (a message, a webhook's URL), as a log shows it: Redacted
// when it cannot be shown without a credential.
func (rd *Redactor) Value(v string) string { return rd.value(v, 0) }

// value is Value for a text nesting texts deep (a JSON string, a form
// value, a part).
func (rd *Redactor) value(v string, nesting int) string {
	if !utf8.ValidString(v) {
		return Redacted
	}
	out, ok := rd.text(v, nesting)
	if !ok {
		return Redacted
	}
	return out
}

// text redacts s, valid UTF-8: as JSON when it is a JSON object or array,
// as a URL-encoded form when it is one, else as plain text (see plain). ok
// is false when the result, decoded, would still show a credential.
func (rd *Redactor) text(s string, nesting int) (out string, ok bool) {
	if nesting < maxNesting {
		if t := strings.TrimSpace(s); t != "" && (t[0] == '{' || t[0] == '[') {
			if out, ok := rd.json(s, nesting+1); ok {
				return out, true
			}
		}
		if isForm(s) {
			return rd.form(s, nesting+1), true
		}
	}
	out = rd.plain(s)
	return out, rd.clean(out)
}

// plain redacts s as plain text: the values written after a name that
// holds a credential (see pairSpans), the passwords of URLs (see
// urlSpans) and the secrets of rd.sc, all found in s as it is, so that
// hiding one cannot hide a name that says another is a credential.
func (rd *Redactor) plain(s string) string {
	return redactSpans(s, rd.spans(s))
}

func (rd *Redactor) spans(s string) [][2]int {
	return rd.sc.Spans(s, rd.pairSpans(s, rd.urlSpans(s, nil)))
}

// redactSpans replaces each span of s, [start, end) byte offsets, or each
// run of overlapping spans, by Redacted.
func redactSpans(s string, spans [][2]int) string {
	if len(spans) == 0 {
		return s
	}
	slices.SortFunc(spans, func(a, b [2]int) int { return a[0] - b[0] })
	var b strings.Builder
	last := 0
	for i := 0; i < len(spans); {
		start, end := spans[i][0], spans[i][1]
		for i++; i < len(spans) && spans[i][0] < end; i++ {
			end = max(end, spans[i][1])
		}
		b.WriteString(s[last:start])
		b.WriteString(Redacted)
		last = end
	}
	b.WriteString(s[last:])
	return b.String()
}

// decoders undo the escapings a text may hide a credential behind.
var decoders = []func(string) string{percentDecode, jsonUnescape, html.UnescapeString}

// clean reports whether s, already redacted, shows no credential when
// decoded: by each decoder, and by all of them, applied up to three times.
func (rd *Redactor) clean(s string) bool {
	if !strings.ContainsAny(s, "%\\&") {
		return true // nothing to decode
	}
	all := s
	for range 3 {
		next := all
		for _, dec := range decoders {
			if d := dec(all); d != all {
				if len(rd.spans(d)) > 0 {
					return false
				}
				next = dec(next)
			}
		}
		if next == all {
			return true
		}
		if len(rd.spans(next)) > 0 {
			return false
		}
		all = next
	}
	return true
}

// json redacts s when it is one JSON value: the string and number values
// under a name that holds a credential, at any depth, whole (an object
// under such a name has all its strings and numbers redacted), and every
// other string, key or value, as a text (see text). The result is s as
// sent when nothing was redacted, else s decoded and encoded again, with
// its object keys sorted. ok is false when s is not JSON.
func (rd *Redactor) json(s string, nesting int) (string, bool) {
	dec := json.NewDecoder(strings.NewReader(s))
	dec.UseNumber()
	var v any
	if dec.Decode(&v) != nil {
		return "", false
	}
	if _, err := dec.Token(); err != io.EOF {
		return "", false // more after the value
	}
	changed := false
	// walk redacts v; secret says it is under a name that holds a
	// credential, strong whether that name is a strong one (fieldKind).
	var walk func(v any, secret, strong bool) any
	walk = func(v any, secret, strong bool) any {
		switch v := v.(type) {
		case string:
			if secret && v != "" && v != Redacted {
				rd.Note(v, strong)
				changed = true
				return Redacted
			}
			if c := rd.value(v, nesting); c != v {
				changed = true
				return c
			}
		case json.Number:
			if secret {
				rd.Note(string(v), strong)
				changed = true
				return Redacted
			}
			if len(rd.sc.Spans(string(v), nil)) > 0 {
				changed = true
				return Redacted
			}
		case []any:
			for i, e := range v {
				v[i] = walk(e, secret, strong)
			}
		case map[string]any:
			m := make(map[string]any, len(v))
			for k, e := range v {
				sk := rd.value(k, nesting)
				if sk != k {
					changed = true
				}
				if secret {
					m[sk] = walk(e, true, strong)
				} else {
					ks, kstrong := FieldKind(k)
					m[sk] = walk(e, ks, kstrong)
				}
			}
			return m
		}
		return v
	}
	v = walk(v, false, false)
	// Shown as sent only when the text as sent, too, shows nothing to
	// hide: the value decoded keeps the last of duplicate keys, and the
	// others may hold a credential.
	if !changed && len(rd.spans(s)) == 0 && rd.clean(s) {
		return s, true
	}
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if enc.Encode(v) != nil {
		return "", false // unreachable: decoded JSON encodes
	}
	return strings.TrimSuffix(b.String(), "\n"), true
}

// isForm reports whether s reads as a URL-encoded form: name=value pairs
// joined by "&", escaped, with no space, quote or brace as sent.
func isForm(s string) bool {
	if !strings.Contains(s, "=") || strings.ContainsAny(s, " \t\r\n\"'{}[]<>;") {
		return false
	}
	_, err := url.ParseQuery(s)
	return err == nil
}

// form redacts a URL-encoded form: the values of the fields whose name
// holds a credential, and every other name and value as a text (see text),
// keeping the fields in their order and as sent where nothing changed.
func (rd *Redactor) form(s string, nesting int) string {
	fields := strings.Split(s, "&")
	for i, f := range fields {
		k, v, hasValue := strings.Cut(f, "=")
		name, err1 := url.QueryUnescape(k)
		val, err2 := url.QueryUnescape(v)
		if err1 != nil || err2 != nil {
			fields[i] = Redacted // unreachable: isForm parsed it
			continue
		}
		if SecretField(name) && val != "" {
			rd.NoteField(name, val)
			fields[i] = k + "=" + Redacted
			continue
		}
		if c := rd.value(name, nesting); c != name {
			k = url.QueryEscape(c)
		}
		if c := rd.value(val, nesting); c != val {
			v = url.QueryEscape(c)
		}
		if hasValue {
			fields[i] = k + "=" + v
		} else {
			fields[i] = k
		}
	}
	return strings.Join(fields, "&")
}

// multipartBoundary returns the boundary of body when it is a multipart
// body: the boundary its Content-Type gives, when the body has it, else
// the one its first line gives ("--boundary"), or the first line of that
// shape followed by a part's header (Content-Disposition, Content-Type);
// "" when it is not one.
func multipartBoundary(body, mt string, params map[string]string) string {
	if b := params["boundary"]; strings.HasPrefix(mt, "multipart/") && b != "" && strings.Contains(body, "--"+b) {
		return b
	}
	first := true
	for rest := body; rest != ""; first = false {
		var line string
		line, rest, _ = strings.Cut(rest, "\n")
		b, ok := strings.CutPrefix(strings.TrimSuffix(line, "\r"), "--")
		if !ok || !isBoundary(b) {
			continue
		}
		if first || len(rest) >= len("content-") && strings.EqualFold(rest[:len("content-")], "content-") {
			return b
		}
	}
	return ""
}

// isBoundary reports whether b may be a multipart boundary (RFC 2046):
// 1 to 70 letters, digits and '()+_,-./:=? or spaces, not ending with a
// space.
func isBoundary(b string) bool {
	if b == "" || len(b) > 70 || b[len(b)-1] == ' ' {
		return false
	}
	for i := range len(b) {
		if !isAlnum(b[i]) && strings.IndexByte("'()+_,-./:=? ", b[i]) < 0 {
			return false
		}
	}
	return true
}

// multipart redacts a multipart body of the boundary b: the content of
// each part whose form name holds a credential, and every other part's
// headers as a text and content as a body of its Content-Type (a binary
// file shows as a note of its size). A part cut short, whose headers do
// not parse, or the text before the first part or after the last, is read
// as a body of no type.
func (rd *Redactor) multipart(body, b string, nesting int) string {
	nl := "\r\n"
	if !strings.Contains(body, "\r\n--"+b) && !strings.HasPrefix(body, "--"+b+"\r\n") && strings.Contains(body, "\n--"+b) {
		nl = "\n" // a body written with bare line feeds, which readers accept
	}
	delim := nl + "--" + b
	parts := strings.Split(nl+body, delim)
	parts[0] = rd.body(parts[0], "", nesting) // the preamble
	closed := false
	for i := 1; i < len(parts); i++ {
		p := parts[i]
		if closed {
			parts[i] = rd.body(p, "", nesting)
			continue
		}
		if rest, ok := strings.CutPrefix(p, "--"); ok { // the closing delimiter, then the epilogue
			parts[i], closed = "--"+rd.body(rest, "", nesting), true
			continue
		}
		parts[i] = rd.part(p, nesting)
	}
	return strings.TrimPrefix(strings.Join(parts, delim), nl)
}

// part redacts one part of a multipart body: p is what follows its
// delimiter (padding, a line end, headers, a blank line, the content). The
// headers end, as readers take them, at the first empty line, whatever
// line ends it has.
func (rd *Redactor) part(p string, nesting int) string {
	lineEnd := strings.IndexByte(p, '\n')
	headEnd := -1
	for i := lineEnd + 1; lineEnd >= 0 && i < len(p); {
		nl := strings.IndexByte(p[i:], '\n')
		if nl < 0 {
			break
		}
		if strings.TrimSuffix(p[i:i+nl], "\r") == "" {
			headEnd = i + nl + 1
			break
		}
		i += nl + 1
	}
	if headEnd < 0 {
		return rd.body(p, "", nesting) // cut short: no content
	}
	head := p[:headEnd]
	hdr, err := textproto.NewReader(bufio.NewReader(strings.NewReader(head[lineEnd+1:]))).ReadMIMEHeader()
	if err != nil && !errors.Is(err, io.EOF) {
		return rd.body(p, "", nesting)
	}
	shownHead, ok := rd.text(head, maxNesting) // the headers, scanned as text
	if !ok {
		return fmt.Sprintf(hiddenNote, len(p))
	}
	content := p[len(head):]
	_, disp, err := mime.ParseMediaType(hdr.Get("Content-Disposition"))
	if err == nil && SecretField(disp["name"]) && content != "" {
		rd.NoteField(disp["name"], content)
		return shownHead + Redacted
	}
	ct := hdr.Get("Content-Type")
	if dec, ok := transferDecode(content, hdr.Get("Content-Transfer-Encoding")); ok {
		// Encoded content is shown as sent only when, decoded, it is text
		// with nothing to hide.
		if rd.body(dec, ct, nesting) != dec {
			return shownHead + fmt.Sprintf(hiddenNote, len(content))
		}
	}
	return shownHead + rd.body(content, ct, nesting)
}

// transferDecode decodes the content of a part of the Content-Transfer-
// Encoding cte, base64 or quoted-printable; ok is false for any other.
// Content that does not decode is returned as it is.
func transferDecode(content, cte string) (string, bool) {
	var r io.Reader
	switch strings.ToLower(strings.TrimSpace(cte)) {
	case "base64":
		r = base64.NewDecoder(base64.StdEncoding, strings.NewReader(strings.Join(strings.Fields(content), "")))
	case "quoted-printable":
		r = quotedprintable.NewReader(strings.NewReader(content))
	default:
		return "", false
	}
	b, err := io.ReadAll(r)
	if err != nil {
		return content, true
	}
	return string(b), true
}

// urlSpans appends to spans the password of every URL with user info in
// s ("scheme://user:password@host", the slashes JSON-escaped or not). The
// user info ends at the last "@" before the URL's path; when the host part
// has a ":" that is not a port and a "@" comes later, before the URL ends
// (at a space, a quote or an angle bracket), the password is taken to run
// up to that "@": a password with a "/", "?" or "#" unescaped.
func (rd *Redactor) urlSpans(s string, spans [][2]int) [][2]int {
	if !strings.Contains(s, "/") || !strings.Contains(s, "@") {
		return spans
	}
	for i := 0; i < len(s); {
		j := strings.IndexByte(s[i:], '/')
		if j < 0 {
			break
		}
		i += j
		var from int
		switch {
		case strings.HasPrefix(s[i:], "//"):
			from = i + 2
		case strings.HasPrefix(s[i:], `/\/`) && i > 0 && s[i-1] == '\\':
			from = i + 3
		default:
			i++
			continue
		}
		urlEnd := from + strings.IndexFunc(s[from:], func(r rune) bool {
			return r <= ' ' || strings.ContainsRune("\"'<>`", r)
		})
		if urlEnd < from {
			urlEnd = len(s)
		}
		hostEnd := from + strings.IndexAny(s[from:urlEnd], `/?#\`)
		if hostEnd < from {
			hostEnd = urlEnd
		}
		host := s[from:hostEnd]
		at := strings.LastIndexByte(host, '@')
		colon := strings.IndexByte(host, ':')
		if at < 0 && colon >= 0 && !strings.HasPrefix(host, "[") && strings.Trim(host[colon+1:], "0123456789") != "" {
			at = strings.LastIndexByte(s[from:urlEnd], '@') // a password with "/", "?" or "#" in it
		}
		if at < 0 || colon < 0 || colon > at {
			i = from
			continue
		}
		if pw := s[from+colon+1 : from+at]; pw != "" && pw != Redacted {
			rd.Note(pw, true)
			if u := percentDecode(pw); u != pw {
				rd.Note(u, true)
			}
			spans = append(spans, [2]int{from + colon + 1, from + at})
		}
		i = from + at
	}
	return spans
}

// isNameByte reports whether c may be part of a name in text: ASCII
// letters and digits, "_", "-", ".", "[", "]", and the bytes of non-ASCII
// characters.
func isNameByte(c byte) bool {
	return isAlnum(c) || c >= utf8.RuneSelf || strings.IndexByte("_-.[]", c) >= 0
}

// pairSpans appends to spans the value written after every name in s that
// holds a credential (see SecretField), then a closing quote (JSON-escaped
// or not), ":", "=" or "=>": "password": "v", password=v, 'apiKey' =>
// 'v', Authorization: Bearer v. A quoted value ends at its closing quote
// (or the end of s); an object or array, at its closing bracket; a value
// after "=", at a "&" or the end of the line; a number, true, false or
// null after ":", where it ends; any other value after ":", at the end of
// the line. The values true, false, null and Redacted are left alone. An
// XML element so named, <password>v</password>, has its text redacted, up
// to the next "<".
func (rd *Redactor) pairSpans(s string, spans [][2]int) [][2]int {
	if !strings.ContainsAny(s, ":=>") {
		return spans
	}
	for i := 0; i < len(s); {
		if !isNameByte(s[i]) {
			i++
			continue
		}
		j := i
		for j < len(s) && isNameByte(s[j]) {
			j++
		}
		name := s[i:j]
		if i > 0 && s[i-1] == '<' && j < len(s) && s[j] == '>' && SecretField(name) { // <password>v</password>
			vs, ve := j+1, len(s)
			if lt := strings.IndexByte(s[vs:], '<'); lt >= 0 {
				ve = vs + lt
			}
			if v := s[vs:ve]; strings.TrimSpace(v) != "" && v != Redacted {
				rd.Note(v, false)
				spans = append(spans, [2]int{vs, ve})
			}
			i = ve
			continue
		}
		i = j
		k := j
		for k < len(s) && s[k] == '\\' {
			k++
		}
		if k < len(s) && (s[k] == '"' || s[k] == '\'') {
			k++
		} else {
			k = j
		}
		k = skipSpace(s, k)
		if k >= len(s) || (s[k] != ':' && s[k] != '=') {
			continue
		}
		if s[k] == '=' && strings.EqualFold(name, "name") {
			if cs, ce, ok := partContent(s, i, k+1); ok {
				spans = append(spans, [2]int{cs, ce})
				rd.Note(s[cs:ce], false)
				i = ce
			}
			continue
		}
		if !SecretField(name) {
			continue
		}
		colon := s[k] == ':'
		k++
		if !colon && k < len(s) && s[k] == '>' {
			k++
		}
		vs, ve := valueSpan(s, skipSpace(s, k), colon)
		if ve <= vs {
			continue
		}
		i = ve
		switch v := s[vs:ve]; v {
		case Redacted, "true", "false", "null":
		default:
			rd.Note(v, false)
			if u := jsonUnescape(v); u != v {
				rd.Note(u, false)
			}
			spans = append(spans, [2]int{vs, ve})
		}
	}
	return spans
}

// partContent finds, in text shaped as a multipart body that could not be
// read as one, the content of a part whose header line ("Content-
// Disposition: form-data; name=...") names a credential, given the
// offsets of the end of "name" and of the start of its value: from after
// the next blank line to the next line that starts with "--", or the end.
func partContent(s string, nameEnd, vstart int) (start, end int, ok bool) {
	lineStart := strings.LastIndexByte(s[:nameEnd], '\n') + 1
	if !strings.Contains(strings.ToLower(s[lineStart:nameEnd]), "content-disposition") {
		return 0, 0, false
	}
	vs, ve := valueSpan(s, vstart, false)
	if v := s[vs:ve]; ve < len(s) && (s[ve] == '"' || s[ve] == '\'') {
		ve++ // past the closing quote
	} else if semi := strings.IndexByte(v, ';'); semi >= 0 {
		ve = vs + semi // name=token; filename=...
	}
	if !SecretField(s[vs:min(ve, len(s))]) && !SecretField(strings.Trim(s[vs:ve], `"'`)) {
		return 0, 0, false
	}
	// The blank line that ends the part's headers.
	start = -1
	for i := ve; i < len(s); {
		nl := strings.IndexByte(s[i:], '\n')
		if nl < 0 {
			break
		}
		i += nl + 1
		if rest := s[i:]; strings.HasPrefix(rest, "\n") || strings.HasPrefix(rest, "\r\n") {
			start = i + 1
			if rest[0] == '\r' {
				start++
			}
			break
		}
	}
	if start < 0 || start == len(s) {
		return 0, 0, false
	}
	end = len(s)
	if d := strings.Index(s[start:], "\n--"); d >= 0 {
		end = start + d
		if end > start && s[end-1] == '\r' {
			end--
		}
	}
	if end <= start || s[start:end] == Redacted {
		return 0, 0, false
	}
	return start, end, true
}

func skipSpace(s string, i int) int {
	for i < len(s) && (s[i] == ' ' || s[i] == '\t' || s[i] == '\r' || s[i] == '\n') {
		i++
	}
	return i
}

// valueSpan returns where the value that starts at i in s begins and ends
// (see scanPairs); the quotes of a quoted value are not part of it.
func valueSpan(s string, i int, colon bool) (int, int) {
	n := 0 // the backslashes before a quote: the value is in a JSON string n levels deep
	for i+n < len(s) && s[i+n] == '\\' {
		n++
	}
	if i+n < len(s) && (s[i+n] == '"' || s[i+n] == '\'') {
		q, start := s[i+n], i+n+1
		// The closing quote has the same escaping as the opening one: n
		// backslashes, modulo the escaping of backslashes themselves.
		for k := start; k < len(s); k++ {
			if s[k] != q {
				continue
			}
			bs := 0
			for bs < k-start && s[k-1-bs] == '\\' {
				bs++
			}
			if bs%(2*(n+1)) == n {
				return start, k - n
			}
		}
		return start, len(s)
	}
	if i >= len(s) {
		return i, i
	}
	switch s[i] {
	case '{', '[':
		return i, bracketEnd(s, i)
	}
	lineEnd := i + strings.IndexAny(s[i:], "\r\n")
	if lineEnd < i {
		lineEnd = len(s)
	}
	if !colon {
		if amp := strings.IndexByte(s[i:lineEnd], '&'); amp >= 0 {
			return i, i + amp
		}
		return i, lineEnd
	}
	// A number or literal that ends where JSON's would, else the rest of the line.
	end := i
	for end < lineEnd && strings.IndexByte("0123456789+-.eE", s[end]) >= 0 {
		end++
	}
	if end == i {
		for _, lit := range []string{"true", "false", "null"} {
			if strings.HasPrefix(s[i:], lit) {
				end = i + len(lit)
			}
		}
	}
	if end > i {
		if after := skipSpace(s[:lineEnd], end); after == lineEnd || strings.IndexByte(",}]", s[after]) >= 0 {
			return i, end
		}
	}
	return i, lineEnd
}

// bracketEnd returns the end of the object or array that opens at i in
// s, past its closing bracket; the end of s when it does not close.
func bracketEnd(s string, i int) int {
	depth, inString := 0, false
	for k := i; k < len(s); k++ {
		c := s[k]
		switch {
		case inString:
			if c == '\\' {
				k++
			} else if c == '"' {
				inString = false
			}
		case c == '"':
			inString = true
		case c == '{' || c == '[':
			depth++
		case c == '}' || c == ']':
			depth--
			if depth == 0 {
				return k + 1
			}
		}
	}
	return len(s)
}

// percentDecode decodes the %XX escapes of s, leaving any other "%" as it
// is.
func percentDecode(s string) string {
	if !strings.Contains(s, "%") {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '%' && i+2 < len(s) && isHex(s[i+1]) && isHex(s[i+2]) {
			v, _ := strconv.ParseUint(s[i+1:i+3], 16, 8)
			b.WriteByte(byte(v))
			i += 2
			continue
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

func isHex(c byte) bool { return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F' }

// jsonUnescape decodes the escapes of a JSON string wherever they are in
// s, leaving any other backslash as it is.
func jsonUnescape(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] != '\\' || i+1 == len(s) {
			b.WriteByte(s[i])
			continue
		}
		switch c := s[i+1]; c {
		case '"', '\\', '/', '\'':
			b.WriteByte(c)
		case 'b':
			b.WriteByte('\b')
		case 'f':
			b.WriteByte('\f')
		case 'n':
			b.WriteByte('\n')
		case 'r':
			b.WriteByte('\r')
		case 't':
			b.WriteByte('\t')
		case 'u':
			if i+6 <= len(s) {
				if v, err := strconv.ParseUint(s[i+2:i+6], 16, 16); err == nil {
					b.WriteRune(rune(v))
					i += 5
					continue
				}
			}
			b.WriteByte('\\')
			continue
		default:
			b.WriteByte('\\')
			continue
		}
		i++
	}
	return b.String()
}
