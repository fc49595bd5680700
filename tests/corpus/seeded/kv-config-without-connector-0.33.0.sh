# vcfg-test: vllm=0.33.0
# vcfg-expect: VC231 5:3
# Dotted keys without kv_connector: no connector to look up when the engine config is built (VC231).
vllm serve Qwen/Qwen3-8B --port 8100 \
  --kv-transfer-config.kv_role kv_producer --kv-transfer-config.kv_port 5601
