print("storehost")
