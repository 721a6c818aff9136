# A stand-in for the standard platform module on an x86_64 H100 node: the collect_env "Python
# platform" line from vllm-project/vllm#18582 (patterns/context.json, CTX.arch examples).
import sys


def python_version():
    return "%d.%d.%d" % sys.version_info[:3]


def platform():
    return "Linux-5.15.0-131-generic-x86_64-with-glibc2.35"


def machine():
    return "x86_64"
