# vcfg-test: vllm=0.13.0
# vcfg-expect: VC228 6:3
# vcfg-expect: VC229 7:3
# The serve command's own argument checks (VC228, VC229).
vllm serve Qwen/Qwen3-8B --port 8000 \
  --enable-log-outputs \
  --enable-auto-tool-choice
