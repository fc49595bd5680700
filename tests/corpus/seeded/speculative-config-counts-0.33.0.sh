# vcfg-test: vllm=0.33.0
# vcfg-expect: VC233 7:3
# vcfg-expect: VC238 9:3
# A method with neither a token count nor a draft model to read n_predict from (VC233);
# a token count with neither a method nor a draft model (VC238).
vllm serve Qwen/Qwen3-8B --port 8000 \
  --spec-method deepseek_mtp
vllm serve Qwen/Qwen3-8B --port 8001 \
  --speculative-config '{"num_speculative_tokens": 3}'
