/// `JSONValue`, `JSONPatch` and the writer and diff types that the session API uses.
@_exported import StoreHostJSON
