"""What a schema builder works from: one catalog, the history of all releases, the
options, optional knowledge packs and optional run-time help texts; and the
``$defs`` it fills as config classes are referenced."""

from __future__ import annotations

from typing import Any, Optional

from vcfg.catalog.model import Catalog
from vcfg.records import field, record
from vcfg.schema.history import History

try:  # knowledge packs are optional: schemas work from the catalog alone
    from vcfg.catalog.knowledge import Knowledge
except ImportError:  # pragma: no cover - the module is being written alongside
    Knowledge = Any  # type: ignore[misc,assignment]


@record
class Context:
    cat: Catalog
    history: History
    strict: bool = False
    knowledge: Optional["Knowledge"] = None
    help: Optional[Any] = None  # vcfg.schema.helptext.HelpTexts
    defs: dict[str, dict[str, Any]] = field(default_factory=dict)
    _pending: set[str] = field(default_factory=set)

    @property
    def version(self) -> str:
        return self.cat.vllm_version

    def is_class(self, class_name: str) -> bool:
        return self.cat.config(class_name) is not None

    def sorted_defs(self) -> dict[str, dict[str, Any]]:
        return {k: self.defs[k] for k in sorted(self.defs)}


def load_knowledge() -> Optional["Knowledge"]:
    """The bundled knowledge packs, or None when there are none (or the module is
    missing): schemas never depend on them."""
    try:
        from vcfg.catalog.knowledge import load_packs
    except ImportError:
        return None
    k = load_packs()
    return k if k.packs else None
