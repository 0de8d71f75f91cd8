module github.com/chatrest/chat/e2e

go 1.26.0

// The end-to-end tests always run against the SDK and the local platform
// beside them.
replace (
	github.com/chatrest/chat => ../
	github.com/chatrest/chat/cmd/chattest => ../cmd/chattest
)

require (
	github.com/chatrest/chat v0.0.0-20261202115055-2f0cdbf1e485
	github.com/chatrest/chat/cmd/chattest v0.0.0-00010101000000-000000000000
	github.com/chromedp/cdproto v0.159.0
	github.com/chromedp/chromedp v0.23.0
	github.com/stretchr/testify v1.12.1
	go.uber.org/goleak v1.3.0
)

require (
	github.com/coder/websocket v1.8.15 // indirect
	github.com/go-json-experiment/json v0.0.0-20260213210345-44df1a37e875 // indirect
	github.com/google/btree v1.1.3 // indirect
	github.com/google/go-querystring v1.2.0 // indirect
	github.com/hashicorp/go-cleanhttp v0.5.2 // indirect
	github.com/hashicorp/go-retryablehttp v0.7.8 // indirect
	go.etcd.io/bbolt v1.4.3 // indirect
	go.yaml.in/yaml/v3 v3.0.5 // indirect
	golang.org/x/sys v0.29.0 // indirect
	golang.org/x/time v0.16.0 // indirect
)
