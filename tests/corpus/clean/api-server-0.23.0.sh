# vcfg-test: vllm=0.23.0
# The OpenAI server module started directly, with a speculative decoding config.
API_PORT="${API_PORT:-8300}"
python -m vllm.entrypoints.openai.api_server \
    --model meta-llama/Llama-3.1-8B-Instruct \
    --host 127.0.0.1 \
    --port "$API_PORT" \
    --speculative-config '{"method":"ngram","num_speculative_tokens":4,"prompt_lookup_max":5,"prompt_lookup_min":2}' \
    --max-num-seqs 64 \
    --generation-config vllm \
    --chat-template-content-format openai \
    --enable-log-requests \
    --enable-log-outputs
