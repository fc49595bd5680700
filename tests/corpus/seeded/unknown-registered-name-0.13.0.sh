# vcfg-test: vllm=0.13.0
# vcfg-expect: VC014 4:45
# A reasoning parser 0.13.0 does not register (VC014).
vllm serve Qwen/Qwen3-8B --reasoning-parser deepseek-r2
