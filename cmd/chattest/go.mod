module github.com/chatrest/chat/cmd/chattest

go 1.26.0

require (
	github.com/chatrest/chat v0.0.0-20261202115055-2f0cdbf1e485
	github.com/coder/websocket v1.8.15
	github.com/stretchr/testify v1.12.1
	go.etcd.io/bbolt v1.4.3
	go.uber.org/goleak v1.3.0
)

require (
	github.com/google/btree v1.1.3 // indirect
	github.com/google/go-querystring v1.2.0 // indirect
	github.com/hashicorp/go-cleanhttp v0.5.2 // indirect
	github.com/hashicorp/go-retryablehttp v0.7.8 // indirect
	go.yaml.in/yaml/v3 v3.0.5 // indirect
	golang.org/x/sys v0.29.0 // indirect
	golang.org/x/time v0.16.0 // indirect
)
