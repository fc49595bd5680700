# vcfg-test: vllm=0.33.0
# vcfg-expect: VC009 8:27
# vcfg-expect: VC009 9:23
# Boolean options followed by a value (VC009, at the value): argparse sees "false" and "True"
# as stray positionals and fails.
vllm serve Qwen/Qwen3-8B \
  --port 8000 \
  --enable-prefix-caching false \
  --trust-remote-code True
