#!/bin/bash
# Servers started and stopped by functions from a sourced file.
source "$(dirname "$0")/common.sh"
. ./common.sh
start_instance 0 $BASE_PORT --max-num-seqs 64
start_instance 1 $((BASE_PORT + 1)) --enable-prefix-caching
sleep 30
stop_all
restart() {
  stop_all
  start_instance "$1" "$2" --gpu-memory-utilization 0.8
}
restart 0 8100
wait
