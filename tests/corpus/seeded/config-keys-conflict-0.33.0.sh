# vcfg-test: vllm=0.33.0
# vcfg-expect: VC239 7:24
# vcfg-expect: VC239 8:20
# Proton options without the Proton profiler (VC239); the pynccl communicator with async
# EPLB, the default (VC239).
vllm serve Qwen/Qwen3-8B --port 8000 \
  --profiler-config '{"proton_context": "python"}' \
  --eplb-config '{"communicator": "pynccl"}'
