package webhook

import (
	"errors"
	"net/http"
)

// Errors of [Verifier.Verify], [Decode] and [DecodeEnvelope]; test them
// with errors.Is. [StatusCode] gives the HTTP status [NewHandler] answers
// for each. None of them ever contains a password.
var (
	// ErrMethod: the request is not a POST.
	ErrMethod = errors.New("webhook: deliveries are POST requests")
	// ErrUnauthorized: the Basic auth credentials are missing or wrong.
	ErrUnauthorized = errors.New("webhook: missing or wrong Basic auth credentials")
	// ErrContentType: the request says its body is not JSON.
	ErrContentType = errors.New("webhook: the body is not JSON")
	// ErrTooLarge: the body is larger than the Verifier's limit.
	ErrTooLarge = errors.New("webhook: the body is too large")
	// ErrInvalidPayload: the body is not a delivery that decodes.
	ErrInvalidPayload = errors.New("webhook: invalid delivery")
	// ErrNoCredentials: the Verifier has no Username and does not allow
	// unauthenticated deliveries: a mistake in the receiver's set-up.
	ErrNoCredentials = errors.New("webhook: the Verifier has no Username; set the webhook's credentials, or Unauthenticated")
)

// StatusCode returns the HTTP status a receiver answers a delivery that
// failed with err, as [NewHandler] does: 405 for ErrMethod, 401 for
// ErrUnauthorized, 415 for ErrContentType, 413 for ErrTooLarge, 400 for
// ErrInvalidPayload and 500 for anything else (ErrNoCredentials, a
// failure to read the body, or the receiver's own error), so that a
// webhook with retryOnFailure tries again. A nil err is 200.
func StatusCode(err error) int {
	switch {
	case err == nil:
		return http.StatusOK
	case errors.Is(err, ErrMethod):
		return http.StatusMethodNotAllowed
	case errors.Is(err, ErrUnauthorized):
		return http.StatusUnauthorized
	case errors.Is(err, ErrContentType):
		return http.StatusUnsupportedMediaType
	case errors.Is(err, ErrTooLarge):
		return http.StatusRequestEntityTooLarge
	case errors.Is(err, ErrInvalidPayload):
		return http.StatusBadRequest
	}
	return http.StatusInternalServerError
}
