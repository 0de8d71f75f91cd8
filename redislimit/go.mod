module github.com/chatrest/chat/redislimit

go 1.26.0

require (
	github.com/chatrest/chat v0.0.0-20261122081430-add6e46c3397
	github.com/go-redis/redis_rate/v10 v10.0.1
	github.com/redis/go-redis/v9 v9.23.0
	github.com/stretchr/testify v1.12.1
	go.uber.org/goleak v1.3.0
)

require (
	github.com/cespare/xxhash/v2 v2.3.0 // indirect
	github.com/coder/websocket v1.8.15 // indirect
	github.com/google/btree v1.1.3 // indirect
	github.com/google/go-querystring v1.2.0 // indirect
	github.com/hashicorp/go-cleanhttp v0.5.2 // indirect
	github.com/hashicorp/go-retryablehttp v0.7.8 // indirect
	go.etcd.io/bbolt v1.4.3 // indirect
	go.uber.org/atomic v1.12.0 // indirect
	go.yaml.in/yaml/v3 v3.0.5 // indirect
	golang.org/x/sys v0.48.0 // indirect
	golang.org/x/time v0.16.0 // indirect
)

// Inside the repository, build against the SDK beside this module. A user's
// build ignores this line and takes the version required above: the first
// commit with everything this module uses (chat.Limiter, and for the
// example chattest.WithFastClock). A release of redislimit (tag
// redislimit/vX.Y.Z) requires a released chat instead.
replace github.com/chatrest/chat => ../
