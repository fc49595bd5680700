"""Characters that look like the ASCII of a command line and are not: a word pasted
from a document (``–tensor-parallel-size`` with an en dash, ``m --port`` with a
no-break space) reaches vLLM as one unknown argument.  `lookalikes` says which
character it is and the ASCII it stands for."""

from __future__ import annotations

#: character -> (its name, the ASCII it stands for)
LOOKALIKES = {
    "\u2010": ("a hyphen (U+2010)", "-"),
    "\u2011": ("a non-breaking hyphen (U+2011)", "-"),
    "\u2012": ("a figure dash (U+2012)", "-"),
    "\u2013": ("an en dash (U+2013)", "--"),
    "\u2014": ("an em dash (U+2014)", "--"),
    "\u2212": ("a minus sign (U+2212)", "-"),
    "\u00a0": ("a no-break space (U+00A0)", " "),
    "\u2009": ("a thin space (U+2009)", " "),
    "\u202f": ("a narrow no-break space (U+202F)", " "),
    "\u201c": ("a left double quotation mark (U+201C)", '"'),
    "\u201d": ("a right double quotation mark (U+201D)", '"'),
    "\u2018": ("a left single quotation mark (U+2018)", "'"),
    "\u2019": ("a right single quotation mark (U+2019)", "'"),
}


def lookalikes(text: str) -> str:
    """`` (it holds an en dash (U+2013) where `--` is meant: `--tensor-parallel-size`)``
    for a word with such characters, else ""."""
    found = [c for c in dict.fromkeys(text) if c in LOOKALIKES]
    if not found:
        return ""
    names = ", ".join(f"{LOOKALIKES[c][0]} where `{LOOKALIKES[c][1]}` is meant" for c in found)
    fixed = "".join(LOOKALIKES[c][1] if c in LOOKALIKES else c for c in text)
    return f" (it holds {names}: `{fixed}`)"
