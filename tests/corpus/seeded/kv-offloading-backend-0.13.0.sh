# vcfg-test: vllm=0.13.0
# vcfg-expect: VC244 5:3
# 0.13 builds the offloading connector from the backend and its size together (VC244).
vllm serve Qwen/Qwen3-8B --port 8000 \
  --kv-offloading-backend native
