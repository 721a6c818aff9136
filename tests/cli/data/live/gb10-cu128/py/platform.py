# A stand-in for the standard platform module, as the probe uses it on a DGX Spark (DGX OS
# kernel, aarch64): the collect_env "Python platform" line of a GB10 from patterns/context.json
# (CTX.arch examples). python_version() is the real one.
import sys


def python_version():
    return "%d.%d.%d" % sys.version_info[:3]


def platform():
    return "Linux-6.11.0-1016-nvidia-aarch64-with-glibc2.39"


def machine():
    return "aarch64"
