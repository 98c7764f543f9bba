"""The memory agent: its runtime loop over the tool layer, and the offline agent."""
