# vcfg-test: vllm=0.23.0
# vcfg-expect: VC005 7:20
# vcfg-expect: VC005 8:23
# Values outside the option's choices (VC005, at the value).
vllm serve Qwen/Qwen3-8B \
  --port 8000 \
  --kv-cache-dtype fp8_e4m3fn \
  --uvicorn-log-level verbose
