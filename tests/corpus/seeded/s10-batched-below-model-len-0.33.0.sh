# vcfg-test: vllm=0.33.0
# vcfg-expect: VC201 5:95
# user-pain 5.1 / section 10 (their VC040): with chunked prefill off, one step must
# fit a whole prompt (our VC201, at --max-num-batched-tokens).
vllm serve meta-llama/Llama-3.1-8B-Instruct --no-enable-chunked-prefill --max-model-len 32768 --max-num-batched-tokens 8192
