"""Memory within budget: context loading, retrieval, compaction, budgets, tiers, revert, forget."""
