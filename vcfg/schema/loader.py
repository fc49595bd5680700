"""How ``vllm serve --config FILE.yaml`` turns a YAML mapping into arguments.

The catalogs do not record the loader (``FlexibleArgumentParser.load_config_file``),
so the few facts the serve schema needs are here, each with the vLLM lines it rests on.
Every top-level key ``k`` becomes ``--k``; then (0.33.0 utils/argparse_utils.py:653-671):

* ``true``  -> ``--k``;  ``false`` -> nothing: vLLM only adds ``--no-k`` when the
  parser that loads the file knows it, and for ``vllm serve`` that is the top-level
  parser, which has no such option (0.33.0 :654-658; dropped outright in 0.10-0.27,
  e.g. 0.15.1 :479-481).  So ``false`` never turns an option off;
* a list -> ``--k item item ...`` (an empty list adds nothing);
* a mapping -> ``--k '<json>'`` from 0.16.0 on (0.16.0 :505); before that the mapping
  is passed as Python text (``str(value)``, 0.15.1 :489), which vLLM's JSON parsing
  rejects, so only a string holding JSON works there;
* anything else -> ``--k str(value)``: ``null`` becomes the text ``None``, which vLLM's
  optional types read as None.

Underscores in a key work: vLLM turns ``_`` into ``-`` in the option name
(0.33.0 utils/argparse_utils.py:376; 0.10.2 utils/__init__.py:1821).
"""

from __future__ import annotations

from vcfg.catalog.store import version_key

#: First release whose loader passes a YAML mapping on as JSON.
MAPPINGS_AS_JSON_FROM = "0.16.0"


def mappings_work(version: str) -> bool:
    """Whether a YAML mapping is a valid value for a JSON-valued option."""
    return version_key(version) >= version_key(MAPPINGS_AS_JSON_FROM)
