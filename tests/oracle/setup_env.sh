#!/usr/bin/env bash
# Build the fidelity oracle: a virtualenv holding vLLM 0.33.0 (no dependencies), a CPU
# torch and the pure-Python packages vLLM's `vllm serve` parser imports.  See
# docs/fidelity.md.
#
#   tests/oracle/setup_env.sh            # build if missing or stale, else do nothing
#   tests/oracle/setup_env.sh --force    # rebuild from scratch
#
# Prints the venv's python path as its last line.
#
# Environment:
#   VCFG_CACHE_DIR          the venv goes to $VCFG_CACHE_DIR/oracle-venv
#                           (default ~/.cache/vcfg/oracle-venv)
#   VCFG_ORACLE_VENV        override the venv path
#   VCFG_ORACLE_PYTHON      interpreter to build it with (default python3)
#   VCFG_ORACLE_TORCH_INDEX where the CPU torch build comes from
#                           (default "none": only the configured indexes and the
#                           machine's own wheel files, where torch 2.13.0+cpu lies on
#                           these machines; an extra index URL otherwise)
#   VCFG_ORACLE_FIND_LINKS  a folder that may already hold the vllm wheel (saves the
#                           ~340 MB download)
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
VLLM_VERSION="0.33.0"
TORCH_VERSION="2.13.0"
CACHE="${VCFG_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/vcfg}"
VENV="${VCFG_ORACLE_VENV:-$CACHE/oracle-venv}"
PY="${VCFG_ORACLE_PYTHON:-python3}"
TORCH_INDEX="${VCFG_ORACLE_TORCH_INDEX:-none}"
CONSTRAINTS="$HERE/constraints.txt"
REQUIREMENTS="$HERE/requirements.txt"

# The stamp names everything the venv was built from; a different stamp means rebuild.
stamp="vllm=$VLLM_VERSION torch=$TORCH_VERSION $(cat "${BASH_SOURCE[0]}" "$CONSTRAINTS" "$REQUIREMENTS" | sha256sum | cut -c1-16)"

if [[ "${1:-}" != "--force" && -f "$VENV/.vcfg-oracle-stamp" ]] \
    && [[ "$(cat "$VENV/.vcfg-oracle-stamp")" == "$stamp" ]] \
    && "$VENV/bin/python" -c "import vllm, torch" >/dev/null 2>&1; then
    echo "oracle venv up to date: $VENV" >&2
    echo "$VENV/bin/python"
    exit 0
fi

log() { echo "[oracle-setup $(date +%T)] $*" >&2; }
start=$(date +%s)

rm -rf "$VENV"
mkdir -p "$(dirname "$VENV")"
log "venv $VENV ($("$PY" --version 2>&1))"
"$PY" -m venv "$VENV"
VPY="$VENV/bin/python"
pipi() { "$VPY" -m pip install --disable-pip-version-check --no-input --quiet "$@"; }
pipi --upgrade pip

# 1. torch: the CPU build, named with its local label so a CUDA wheel can never match.
log "torch $TORCH_VERSION+cpu"
torch_index=()
if [[ -n "$TORCH_INDEX" && "$TORCH_INDEX" != "none" ]]; then
    torch_index=(--extra-index-url "$TORCH_INDEX")
fi
pipi "${torch_index[@]}" -c "$CONSTRAINTS" "torch==$TORCH_VERSION+cpu"

# 2. vLLM itself, without dependencies (they would pull the CUDA stack).
log "vllm $VLLM_VERSION (--no-deps)"
find_links=()
if [[ -n "${VCFG_ORACLE_FIND_LINKS:-}" ]]; then
    find_links=(--find-links "$VCFG_ORACLE_FIND_LINKS")
fi
pipi --no-deps --only-binary :all: "${find_links[@]}" "vllm==$VLLM_VERSION"

# 3. the pure-Python packages the serve parser imports, torch held by the constraint.
log "parser dependencies"
pipi -c "$CONSTRAINTS" -r "$REQUIREMENTS" 2> >(grep -v -e "^vllm .* requires" -e "dependency conflicts" >&2)
# xgrammar without its triton dependency (see requirements.txt)
pipi --no-deps "xgrammar==0.2.8"

# Check: torch is still the CPU build and the serve parser's modules import.
"$VPY" - <<'EOF'
import os, sys
os.environ.setdefault("VLLM_TARGET_DEVICE", "cpu")
import torch
if torch.version.cuda is not None:
    sys.exit(f"oracle venv has a CUDA torch ({torch.__version__}): refusing")
import vllm.entrypoints.cli.serve  # noqa: F401
print(f"oracle venv ok: vllm {vllm.__version__}, torch {torch.__version__}", file=sys.stderr)
EOF

echo "$stamp" > "$VENV/.vcfg-oracle-stamp"
log "built in $(( $(date +%s) - start )) s"
echo "$VPY"
