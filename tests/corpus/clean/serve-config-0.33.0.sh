# vcfg-test: vllm=0.33.0
# Model positional, the rest from the YAML next to this script, plus one option
# the YAML does not set.
SCRIPT_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
export VLLM_LOGGING_LEVEL=INFO

vllm serve deepseek-ai/DeepSeek-V3 \
  --config "$SCRIPT_DIR/serve-config-0.33.0.yaml" \
  --trust-remote-code
