# vcfg-test: vllm=0.20.2
# vcfg-expect: VC002 5:38
# user-pain 1.1 / section 10 (their VC001): a flag removed in 0.17.1 (our VC002).
# The sketch targets 0.33.0, where --disable-log-requests is valid again (see README).
vllm serve Qwen/Qwen3-8B --port 8000 --disable-log-requests
