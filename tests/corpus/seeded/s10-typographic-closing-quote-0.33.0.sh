# vcfg-test: vllm=0.33.0
# vcfg-expect: VC000 9:24
# vcfg-expect: VC021 9:81
# user-pain 3.6 / section 10 (their VC025): the JSON closed with a typographic quote.
# Bash never sees the end of the single-quoted word: an unterminated quote, which is
# a parse error (our VC000) at the opening quote, and the look-alike quote is VC021.
# See README.
vllm serve Qwen/Qwen3-8B --port 8100 \
  --kv-transfer-config '{"kv_connector":"NixlConnector","kv_role":"kv_producer"}’
