package rest

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestClassify(t *testing.T) {
	tests := []struct {
		method  string
		path    Path
		class   Class
		observe bool
	}{
		{http.MethodPost, NewPath("users"), ClassCore, true},
		{http.MethodDelete, NewPath("users", "a/b"), ClassCore, true},
		{http.MethodPost, NewPath("groups"), ClassCore, true},
		{http.MethodPost, NewPath("groups", "g/1", "members"), ClassCore, true},
		{http.MethodGet, NewPath("users"), ClassStandard, true},
		{http.MethodPut, NewPath("users", "a"), ClassStandard, true},
		{http.MethodDelete, NewPath("users"), ClassStandard, true},
		{http.MethodPost, NewPath("users", "a", "auth_tokens"), ClassStandard, true},
		{http.MethodPost, NewPath("groups", "g", "members", "extra"), ClassStandard, true},
		{http.MethodDelete, NewPath("groups", "g"), ClassStandard, true},
		{http.MethodGet, NewPath("calls"), ClassStandard, true},
		{http.MethodPost, NewPath("data_import", "users"), ClassStandard, false},
	}
	for _, tt := range tests {
		class, observe := Classify(tt.method, tt.path.Escaped())
		assert.Equal(t, tt.class, class, "%s %s", tt.method, tt.path.Escaped())
		assert.Equal(t, tt.observe, observe, "%s %s", tt.method, tt.path.Escaped())
	}
}
