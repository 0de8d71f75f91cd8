package fake

import (
	"encoding/json"
	"errors"
	"net/http"
)

// The bodies the API answers with: {"data": ...} on success, {"error":
// {...}} on failure (errors.go builds the errors).

// envelope is the success body of a single resource: {"data": ...}.
type envelope struct {
	Data any `json:"data"`
}

func data(v any) envelope { return envelope{v} }

// errorEnvelope is the error body: {"error": {...}}.
type errorEnvelope struct {
	Error *apiError `json:"error"`
}

// answer is the status and body of what a handler returned: v, encoded,
// with the private metadata the acting user onBehalfOf may not see cut out
// (access.go), or the error envelope of err. An error that is not an
// *apiError, or a v that does not encode, is a 500 ERR_EXCEPTION.
func answer(v any, err error, onBehalfOf string) (status int, out []byte) {
	if err == nil {
		if out, err = json.Marshal(v); err == nil {
			return http.StatusOK, hidePrivate(onBehalfOf, out)
		}
		err = errInternal(err)
	}
	var ae *apiError
	if !errors.As(err, &ae) {
		ae = errInternal(err)
	}
	out, _ = json.Marshal(errorEnvelope{ae}) // an apiError always encodes
	return ae.Status, out
}
