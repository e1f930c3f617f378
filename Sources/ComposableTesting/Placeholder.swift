// ComposableTesting
