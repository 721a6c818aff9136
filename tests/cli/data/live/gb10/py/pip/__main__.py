# A stand-in for `python3 -m pip freeze`: replays freeze.txt beside it.
import os
import sys

if sys.argv[1:] == ["freeze"]:
    with open(os.path.join(os.path.dirname(__file__), "freeze.txt")) as f:
        sys.stdout.write(f.read())
else:
    sys.exit("pip stand-in: only 'freeze'")
