# vcfg-test: vllm=0.33.0
# vcfg-expect: VC107 6:7
# FLAGCX_PATH unset before a launch that uses the FlagOS plugin's FlagCX connector,
# which needs it (or FLAGCX_LIB_PATH) to find FlagCX (VC107, at the unset).
export USE_FLAGGEMS=1
unset FLAGCX_PATH
vllm serve Qwen/Qwen3-8B --port 20001 \
  --kv-transfer-config '{"kv_connector":"FlagCXConnector","kv_role":"kv_producer"}'
