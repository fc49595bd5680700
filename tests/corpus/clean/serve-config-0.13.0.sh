# vcfg-test: vllm=0.13.0
# The model on the command line, everything else from the YAML beside this script.
cd "$(dirname "$0")"
export CUDA_VISIBLE_DEVICES=0,1
export VLLM_LOGGING_LEVEL=WARNING

vllm serve Qwen/Qwen3-32B --config serve-config-0.13.0.yaml
