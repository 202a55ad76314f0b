"""Close-assault engines (PF-ASSAULT-01..11), one module per engine: ram, bridge, corvus, crush."""

from __future__ import annotations

from rules.pathfinder.bridge import raise_bridge
from rules.pathfinder.corvus import dislodge_corvus, use_corvus
from rules.pathfinder.crush import crush
from rules.pathfinder.ram import ram

__all__ = ["crush", "dislodge_corvus", "raise_bridge", "ram", "use_corvus"]
