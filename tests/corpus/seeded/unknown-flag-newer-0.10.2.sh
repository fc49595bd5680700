# vcfg-test: vllm=0.10.2
# vcfg-expect: VC001 6:3
# An option this release does not have yet (VC001: "added in 0.11.2").
vllm serve meta-llama/Llama-3.1-8B-Instruct \
  --port 8000 \
  --kv-offloading-size 32 \
  --max-model-len 16384
