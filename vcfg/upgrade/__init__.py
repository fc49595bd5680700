"""``vcfg upgrade``: rewrite launches written for one vLLM release for a newer one.

The migration facts are knowledge-pack data (``[[removed]]`` entries with ``migrate``,
``replacement`` and ``alternatives``, each with its releases and sources) and the
catalogs of both releases; the rewriting is the removed-name rules' fixes
(`vcfg.edits`), applied by the fix loop (`vcfg.fix.run`) until none is left.  What no
fact says how to migrate is reported with the reason and where to read about it;
defaults that changed between the releases are reported, never changed.
"""
