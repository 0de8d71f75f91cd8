package chat

import "github.com/chatrest/chat/internal/rest"

// DataImportService imports users, groups, members and messages. Get it from [Client.DataImport].
type DataImportService struct{ rc *rest.Client }
