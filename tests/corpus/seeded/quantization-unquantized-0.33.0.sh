# vcfg-test: vllm=0.33.0
# vcfg-expect: VC262 4:45
# The model directory sits next to this script (a dense bfloat16 Qwen3 without quantization).
vllm serve ./models/qwen3-8b --quantization awq
