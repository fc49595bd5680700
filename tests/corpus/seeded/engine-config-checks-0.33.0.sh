# vcfg-test: vllm=0.33.0
# vcfg-expect: VC240 8:44
# vcfg-expect: VC241 10:3
# vcfg-expect: VC242 11:3
# vcfg-expect: VC243 12:3
# Checks of the engine config and the serve command on options without a config bound.
vllm serve ibm-granite/granite-4.0-h-small --port 8000 \
  --enable-mamba-cache-stochastic-rounding --mamba-ssm-cache-dtype float32 \
  --data-parallel-size 2 \
  --enable-fault-tolerance \
  --sse-keep-alive-interval -1 \
  --offload-backend prefetch
