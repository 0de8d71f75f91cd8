package chattest

func metricsRoutes() []route { return nil }
