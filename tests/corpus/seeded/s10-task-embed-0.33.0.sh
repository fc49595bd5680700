# vcfg-test: vllm=0.33.0
# vcfg-expect: VC002 5:36
# user-pain 1.2 / section 10 (their VC001): --task was removed in 0.13.0 (our VC002);
# the replacement is --runner pooling --convert embed.
vllm serve BAAI/bge-m3 --port 8001 --task embed
