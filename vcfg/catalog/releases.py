"""The vLLM releases vcfg bundles catalogs for: the newest patch of every minor
release from 0.10 on.  Adding one is a line here and `python -m vcfg.dev generate`."""

#: the command that writes every derived file, named in each file's header
GENERATED_BY = "python -m vcfg.dev generate"

BUNDLED_RELEASES: tuple[str, ...] = (
    "0.10.2", "0.11.2", "0.12.0", "0.13.0", "0.14.1", "0.15.1", "0.16.0", "0.17.1",
    "0.18.1", "0.19.1", "0.20.2", "0.21.0", "0.22.1", "0.23.0", "0.24.0", "0.25.1",
    "0.26.0", "0.27.1", "0.28.0", "0.29.0", "0.30.0", "0.31.0", "0.32.0", "0.33.0",
)  # fmt: skip
