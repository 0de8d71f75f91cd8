package rest

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestCore(t *testing.T) {
	tests := []struct {
		method        string
		path          string
		core, observe bool
	}{
		{http.MethodPost, "/users", true, true},
		{http.MethodDelete, "/users/a%2Fb", true, true},
		{http.MethodPost, "/groups", true, true},
		{http.MethodPost, "/groups/g%2F1/members", true, true},
		{http.MethodGet, "/users", false, true},
		{http.MethodPut, "/users/a", false, true},
		{http.MethodDelete, "/users", false, true},
		{http.MethodPost, "/users/a/auth_tokens", false, true},
		{http.MethodPost, "/groups/g/members/extra", false, true},
		{http.MethodDelete, "/groups/g", false, true},
		{http.MethodGet, "/calls", false, true},
		{http.MethodPost, "/data_import/users", false, false},
	}
	for _, tt := range tests {
		core, observe := Core(tt.method, tt.path)
		assert.Equal(t, tt.core, core, "%s %s", tt.method, tt.path)
		assert.Equal(t, tt.observe, observe, "%s %s", tt.method, tt.path)
	}
}
