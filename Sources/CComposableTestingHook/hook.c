// Test stores live in Composable, which links no test framework. When ComposableTesting is
// linked into a test process, this constructor runs before any test and installs its
// reporter, so `import ComposableArchitecture` alone gives tests failures where they belong.
#include "ComposableTestingHook.h"

extern void composable_testing_install(void);

__attribute__((constructor)) static void composable_testing_hook(void) {
  composable_testing_install();
}
