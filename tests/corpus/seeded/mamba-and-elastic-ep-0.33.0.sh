# vcfg-test: vllm=0.33.0
# vcfg-expect: VC234 5:44
# vcfg-expect: VC237 6:61
# An SSU algorithm without FlashInfer's Mamba kernels (VC234); elastic EP without EPLB (VC237).
vllm serve ibm-granite/granite-4.0-h-small --mamba-ssu-algorithm horizontal --port 8000
vllm serve deepseek-ai/DeepSeek-V3 --enable-expert-parallel --enable-elastic-ep --port 8001
