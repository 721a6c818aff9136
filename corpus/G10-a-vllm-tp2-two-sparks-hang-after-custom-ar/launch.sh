# head: spark-a (169.254.77.10), worker: spark-b (169.254.77.11); ray start --head on spark-a, ray start --address on spark-b
export NCCL_SOCKET_IFNAME=enp1s0f0np0 NCCL_IB_HCA=rocep1s0f0 GLOO_SOCKET_IFNAME=enp1s0f0np0
vllm serve openai/gpt-oss-120b --tensor-parallel-size 2 --distributed-executor-backend ray --gpu-memory-utilization 0.8 --port 8000
./wait_ready.sh http://127.0.0.1:8000/health 1800
