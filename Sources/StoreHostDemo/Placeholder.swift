// StoreHostDemo
