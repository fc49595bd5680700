# vcfg-test: vllm=0.13.0
# vcfg-expect: VC233 6:3
# vcfg-expect: VC022 6:46
# The misspelt key is dropped by 0.13 (VC022 warns), which leaves no token count (VC233).
vllm serve Qwen/Qwen3-8B --port 8000 \
  --speculative-config '{"method": "ngram", "num_speculative_token": 3, "prompt_lookup_max": 4}'
