package redact

import (
	"encoding/base64"
	"net/url"
	"reflect"
	"slices"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/chatrest/chat/internal/rest"
)

// secretType is the type of every credential field of the SDK's request
// and response types.
var secretType = reflect.TypeFor[Secret]()

func isSecretType(t reflect.Type) bool { return t == secretType }

// holdsSecrets caches, per type, whether a value of the type can hold a
// Secret; most bodies (a message to send) cannot, and are not walked.
var holdsSecrets sync.Map // reflect.Type -> bool

func mayHoldSecrets(t reflect.Type) bool {
	if v, ok := holdsSecrets.Load(t); ok {
		return v.(bool)
	}
	holdsSecrets.Store(t, false) // a recursive type meets itself as "no"
	var found bool
	switch {
	case isSecretType(t):
		found = true
	default:
		switch t.Kind() {
		case reflect.Pointer, reflect.Slice, reflect.Array:
			found = mayHoldSecrets(t.Elem())
		case reflect.Map:
			found = mayHoldSecrets(t.Key()) || mayHoldSecrets(t.Elem())
		case reflect.Interface:
			found = true // known only from the value
		case reflect.Struct:
			for i := range t.NumField() {
				if f := t.Field(i); f.IsExported() && mayHoldSecrets(f.Type) {
					found = true
					break
				}
			}
		}
	}
	holdsSecrets.Store(t, found)
	return found
}

// SecretsIn returns the values of every Secret that v (a request body or
// query) holds, however deep; nil when it holds none.
func SecretsIn(v any) []string {
	if v == nil {
		return nil
	}
	rv := reflect.ValueOf(v)
	if !mayHoldSecrets(rv.Type()) {
		return nil
	}
	var out []string
	collectSecrets(rv, &out, 0)
	return out
}

func collectSecrets(v reflect.Value, out *[]string, depth int) {
	if depth > 16 || !v.IsValid() {
		return
	}
	t := v.Type()
	if isSecretType(t) {
		if s := v.String(); s != "" {
			*out = append(*out, s)
		}
		return
	}
	if !mayHoldSecrets(t) {
		return
	}
	switch v.Kind() {
	case reflect.Pointer, reflect.Interface:
		if !v.IsNil() {
			collectSecrets(v.Elem(), out, depth+1)
		}
	case reflect.Slice, reflect.Array:
		for i := range v.Len() {
			collectSecrets(v.Index(i), out, depth+1)
		}
	case reflect.Map:
		for it := v.MapRange(); it.Next(); {
			collectSecrets(it.Key(), out, depth+1)
			collectSecrets(it.Value(), out, depth+1)
		}
	case reflect.Struct:
		for i := range v.NumField() {
			if t.Field(i).IsExported() {
				collectSecrets(v.Field(i), out, depth+1)
			}
		}
	}
}

// WithEncodings returns secrets with the forms in which a server may echo
// them besides their own: URL-escaped as a query value and as a path
// segment, and base64-encoded (standard and URL alphabets, padded or not).
func WithEncodings(secrets []string) []string {
	out := secrets[:len(secrets):len(secrets)]
	for _, s := range secrets {
		if s == "" {
			continue
		}
		b := []byte(s)
		for _, e := range []string{url.QueryEscape(s), url.PathEscape(s), rest.EscapeSegment(s),
			base64.StdEncoding.EncodeToString(b), base64.RawStdEncoding.EncodeToString(b),
			base64.URLEncoding.EncodeToString(b), base64.RawURLEncoding.EncodeToString(b)} {
			if e != s && !slices.Contains(out, e) {
				out = append(out, e)
			}
		}
	}
	return out
}

// Scrub replaces every occurrence of each secret in text with REDACTED. A
// secret of 8 characters or more is replaced wherever it appears; a
// shorter one only where it stands as a word of its own (between
// characters that are not letters or digits), so that a short password
// does not wipe the letters out of a message.
func Scrub(text string, secrets []string) string {
	for _, s := range secrets {
		if s == "" || !strings.Contains(text, s) {
			continue
		}
		if len(s) >= 8 {
			text = strings.ReplaceAll(text, s, Redacted)
			continue
		}
		var b strings.Builder
		last := 0
		for i := 0; i <= len(text)-len(s); {
			j := strings.Index(text[i:], s)
			if j < 0 {
				break
			}
			j += i
			end := j + len(s)
			before, _ := utf8.DecodeLastRuneInString(text[:j])
			after, _ := utf8.DecodeRuneInString(text[end:])
			if wordRune(before) || wordRune(after) {
				i = j + 1
				continue
			}
			b.WriteString(text[last:j])
			b.WriteString(Redacted)
			last, i = end, end
		}
		b.WriteString(text[last:])
		text = b.String()
	}
	return text
}

func wordRune(r rune) bool { return r != utf8.RuneError && (unicode.IsLetter(r) || unicode.IsDigit(r)) }

// ScrubDetails applies scrub to the keys and values of details (an error's
// field -> problems map); keys that become equal keep every value.
func ScrubDetails(details map[string][]string, scrub func(string) string) map[string][]string {
	if len(details) == 0 {
		return details
	}
	out := make(map[string][]string, len(details))
	for k, vs := range details {
		for i, v := range vs {
			vs[i] = scrub(v)
		}
		k = scrub(k)
		out[k] = append(out[k], vs...)
	}
	return out
}
