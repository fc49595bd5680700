# vcfg-test: vllm=0.33.0
# vcfg-expect: VC012 5:38
# An option abbreviated to a prefix, which argparse accepts while it stays
# unambiguous (VC012, at the option).
vllm serve Qwen/Qwen3-8B --port 8000 --max-num-seq 64
