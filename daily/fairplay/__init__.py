"""Fair play: the day's perfect-information ceiling and foresight detection (core, no I/O)."""
