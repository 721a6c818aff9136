#!/bin/sh
# A training run that dies of a CUDA OOM while loading shards, as in
# corpus/G3-a-oom-loading-shards-page-cache/train.log (PyTorch's CUDACachingAllocator wording).
echo "2025-11-25 08:35:12,000 INFO __main__: model=meta-llama/Llama-3.3-70B-Instruct torch_dtype=bfloat16 device_map=cuda:0 (LoRA r=16)"
echo "Loading checkpoint shards:  60%|██████    | 18/30 [02:54<01:56, 9.69s/it]"
cat >&2 <<'TRACE'
Traceback (most recent call last):
  File "/home/dev/ft/train.py", line 77, in <module>
    model = AutoModelForCausalLM.from_pretrained(
  File "/home/dev/.venv/lib/python3.12/site-packages/transformers/modeling_utils.py", line 751, in _load_state_dict_into_meta_model
    param = param[...].to(param_device)
torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 1.75 GiB. GPU 0 has a total capacity of 119.70 GiB of which 412.25 MiB is free. Including non-PyTorch memory, this process has 70.31 GiB memory in use. Of the allocated memory 69.12 GiB is allocated by PyTorch, and 722.44 MiB is reserved by PyTorch but unallocated. If reserved but unallocated memory is large try setting PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True to avoid fragmentation.  See documentation for Memory Management  (https://pytorch.org/docs/stable/notes/cuda.html#environment-variables)
TRACE
exit 1
