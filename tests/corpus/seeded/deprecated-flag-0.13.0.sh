# vcfg-test: vllm=0.13.0
# vcfg-expect: VC003 4:49
# An option this release marks deprecated (VC003).
vllm serve Qwen/Qwen2.5-7B-Instruct --port 8000 --disable-log-requests --max-model-len 8192
