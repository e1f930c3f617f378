// `import ConcurrencyExtras`, as TCA apps write it: the same declarations as under
// `ComposableArchitecture` (without its macros), and no host linked.
@_exported import Composable
