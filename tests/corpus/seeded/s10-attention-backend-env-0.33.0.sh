# vcfg-test: vllm=0.33.0
# vcfg-expect: VC103 5:1
# user-pain 1.7 / section 10 (their VC101): a variable removed in 0.15.1 (our VC103);
# the replacement is --attention-backend FLASH_ATTN.
VLLM_ATTENTION_BACKEND=FLASH_ATTN vllm serve meta-llama/Llama-3.1-8B-Instruct
