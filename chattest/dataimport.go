package chattest

// importState paces the data import endpoints.
type importState struct{}

func (i *importState) init() {}

func dataImportRoutes() []route { return nil }
