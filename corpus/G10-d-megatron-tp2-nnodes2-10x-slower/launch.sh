torchrun --nnodes=2 --nproc_per_node=1 --node_rank=$NODE_RANK --master_addr=169.254.77.10 --master_port=6000 pretrain_gpt.py \
  --tensor-model-parallel-size 2 --pipeline-model-parallel-size 1 --num-layers 32 --hidden-size 4096 --num-attention-heads 32 \
  --micro-batch-size 1 --global-batch-size 32 --seq-length 4096 --bf16 --train-iters 2000
