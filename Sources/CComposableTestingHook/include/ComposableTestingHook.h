// Installs ComposableTesting's test failure reporter as the process loads (see hook.c).
