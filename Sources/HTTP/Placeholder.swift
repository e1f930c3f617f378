// HTTP
