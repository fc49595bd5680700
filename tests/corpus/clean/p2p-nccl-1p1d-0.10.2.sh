# vcfg-test: vllm=0.10.2
# 1P1D with P2pNcclConnector: the proxy listens for HTTP on 10001 and for worker
# registrations (ZMQ) on 30001.  In this release the connector reads http_port
# unconditionally, and it must equal the instance's own --port.
MODEL=Qwen/Qwen2.5-7B-Instruct

python3 disagg_proxy_p2p_nccl_xpyd.py > proxy.log 2>&1 &

CUDA_VISIBLE_DEVICES=0 vllm serve $MODEL \
    --host 0.0.0.0 \
    --port 20001 \
    --tensor-parallel-size 1 \
    --seed 1024 \
    --served-model-name base_model \
    --dtype float16 \
    --max-model-len 10000 \
    --max-num-batched-tokens 10000 \
    --max-num-seqs 256 \
    --trust-remote-code \
    --gpu-memory-utilization 0.9 \
    --kv-transfer-config \
    '{"kv_connector":"P2pNcclConnector","kv_role":"kv_producer","kv_buffer_size":"1e1","kv_port":"21001","kv_connector_extra_config":{"proxy_ip":"10.0.0.5","proxy_port":"30001","http_port":"20001"}}' > prefill.log 2>&1 &

CUDA_VISIBLE_DEVICES=1 vllm serve $MODEL \
    --host 0.0.0.0 \
    --port 20002 \
    --tensor-parallel-size 1 \
    --seed 1024 \
    --served-model-name base_model \
    --dtype float16 \
    --max-model-len 10000 \
    --max-num-batched-tokens 10000 \
    --max-num-seqs 256 \
    --trust-remote-code \
    --gpu-memory-utilization 0.7 \
    --kv-transfer-config \
    '{"kv_connector":"P2pNcclConnector","kv_role":"kv_consumer","kv_buffer_size":"8e9","kv_port":"22001","kv_connector_extra_config":{"proxy_ip":"10.0.0.5","proxy_port":"30001","http_port":"20002"}}' > decode.log 2>&1 &

wait
