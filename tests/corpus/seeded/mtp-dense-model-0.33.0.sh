# vcfg-test: vllm=0.33.0
# vcfg-expect: VC264 4:63
# The model directory sits next to this script (a dense bfloat16 Qwen3 without MTP layers).
vllm serve ./models/qwen3-8b --speculative-config '{"method": "mtp", "num_speculative_tokens": 1}'
