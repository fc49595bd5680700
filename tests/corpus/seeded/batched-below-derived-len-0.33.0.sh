# vcfg-test: vllm=0.33.0
# vcfg-expect: VC263 4:58
# The model directory sits next to this script (a dense bfloat16 Qwen3 without quantization).
vllm serve ./models/qwen3-8b --no-enable-chunked-prefill --max-num-batched-tokens 8192
