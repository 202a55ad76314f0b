"""Close-assault engines (PF-ASSAULT-01..11), one module each: ram, bridge, corvus, dislodge, crush."""

from __future__ import annotations

from rules.pathfinder.bridge import raise_bridge
from rules.pathfinder.corvus import use_corvus
from rules.pathfinder.crush import crush
from rules.pathfinder.dislodge import dislodge_corvus
from rules.pathfinder.ram import ram

__all__ = ["crush", "dislodge_corvus", "raise_bridge", "ram", "use_corvus"]
