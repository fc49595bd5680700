# vcfg-test: vllm=0.33.0
# vcfg-expect: VC260 4:46
# A watermark config without its secret key (VC260): WatermarkConfig.key has no default.
vllm serve Qwen/Qwen3-8B --watermark-config '{"algorithm": "gumbel"}'
