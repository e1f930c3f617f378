// StoreHost
