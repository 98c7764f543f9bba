"""Where an agent's memory lives in its home, and the tiered layout below it.

    ~/memory/active                current priorities and recent sessions, one dated line each
    ~/memory/patterns              recurring observations
    ~/memory/corrections           corrections of earlier facts, and the user's preferences
    ~/memory/projects/<name>       what is known about one project
    ~/memory/archive/<YYYY-Www>    one page per ISO week; the week's session pages below it

The memory agent's tools, the offline agent, compaction, the weekly consolidation, retrieval
and `load_memories` all take their root and tier paths from here.
"""

from __future__ import annotations

MEMORY_ROOT = "~/memory"
ACTIVE = f"{MEMORY_ROOT}/active"
PATTERNS = f"{MEMORY_ROOT}/patterns"
CORRECTIONS = f"{MEMORY_ROOT}/corrections"
PROJECTS = f"{MEMORY_ROOT}/projects"
ARCHIVE = f"{MEMORY_ROOT}/archive"
TIERS = (ACTIVE, PATTERNS, CORRECTIONS, PROJECTS, ARCHIVE)

# The title and the one-line intro of each tier's page.
TIER_PAGES = {
    ACTIVE: ("Active", "Current priorities and recent sessions, one dated line each."),
    PATTERNS: ("Patterns", "Recurring observations, gathered from the weekly archives."),
    CORRECTIONS: (
        "Corrections",
        "Corrections of earlier facts, and the user's preferences and rules.",
    ),
    PROJECTS: ("Projects", "One page per project below this one."),
    ARCHIVE: ("Archive", "One page per ISO week (YYYY-Www), the week's sessions rolled in."),
}
