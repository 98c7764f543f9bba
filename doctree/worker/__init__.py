"""The worker floor: the memory worker that hands finished sessions to the memory agent, and
the `Engine` facade an agent host drives (sessions in, memory out)."""
