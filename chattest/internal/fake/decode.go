package fake

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"reflect"
	"strings"
	"time"

	"github.com/chatrest/chat"
)

// maxBodyBytes bounds a request body; a larger one is a 400.
const maxBodyBytes = 1 << 20

// readBody reads at most maxBodyBytes of the request body.
func readBody(w http.ResponseWriter, r *http.Request) ([]byte, error) {
	if r.Body == nil || r.Body == http.NoBody {
		return nil, nil
	}
	body := r.Body
	if r.ContentLength == 0 {
		// Most likely no body: an HTTP/2 request without one has an empty
		// Body, not NoBody. One byte tells, without ReadAll's buffer.
		var first [1]byte
		n, err := body.Read(first[:])
		if n == 0 && err == io.EOF {
			return nil, nil
		}
		body = struct {
			io.Reader
			io.Closer
		}{io.MultiReader(bytes.NewReader(first[:n]), body), body}
	}
	b, err := io.ReadAll(http.MaxBytesReader(w, body, maxBodyBytes))
	if err != nil {
		var tooLarge *http.MaxBytesError
		if errors.As(err, &tooLarge) {
			return nil, validationError(map[string][]string{"body": {fmt.Sprintf("The request body may not be greater than %d bytes.", maxBodyBytes)}})
		}
		return nil, validationError(map[string][]string{"body": {"The request body could not be read."}})
	}
	return b, nil
}

// call is one authorized request as a handler sees it.
type call struct {
	r          *http.Request
	body       []byte
	now        time.Time // the server clock at the request
	apiKey     string    // the calling key
	onBehalfOf string    // the acting user's uid, when the route reads the header and it was sent
	rate       *rateInfo // set by a handler that counts the request against a budget of its own (data import)
}

// timestamp is the request time as the API sends it.
func (c *call) timestamp() chat.Timestamp { return chat.TimestampOf(c.now) }

// uid returns the path value name as a uid: UIDs are lower-cased.
func (c *call) uid(name string) string { return strings.ToLower(c.r.PathValue(name)) }

// params returns the query string reader.
func (c *call) params() *params { return &params{q: c.r.URL.Query()} }

// decode reads the JSON body into v; an empty body leaves v as it is. A body
// that is not JSON, or a field of the wrong type, is a 400 ERR_BAD_REQUEST
// naming the field.
func (c *call) decode(v any) error {
	b := bytes.TrimSpace(c.body)
	if len(b) == 0 {
		return nil
	}
	err := json.Unmarshal(b, v)
	if err == nil {
		return nil
	}
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) && te.Field != "" {
		return validationError(map[string][]string{te.Field: {fmt.Sprintf("The %s field must be %s.", te.Field, jsonKind(te.Type))}})
	}
	return validationError(map[string][]string{"body": {"The request body must be a JSON object."}})
}

// jsonKind names the JSON type a Go type decodes from.
func jsonKind(t reflect.Type) string {
	if t == nil {
		return "of another type"
	}
	switch t.Kind() {
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "a boolean"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return "an integer"
	case reflect.Float32, reflect.Float64:
		return "a number"
	case reflect.Slice, reflect.Array:
		return "an array"
	case reflect.Map, reflect.Struct:
		return "an object"
	}
	return "of another type"
}
